CREATE TABLE "consent_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"domain" text NOT NULL,
	"preferences" jsonb NOT NULL,
	"metadata" jsonb,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text,
	"address_hash" text
);
--> statement-breakpoint
CREATE INDEX "consent_records_address_idx" ON "consent_records" USING btree ("address_hash","domain","type","given_at");