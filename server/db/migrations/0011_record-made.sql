CREATE TABLE "record_made" (
	"patient_id" uuid NOT NULL,
	"record" text NOT NULL,
	"made_at" timestamp with time zone NOT NULL,
	CONSTRAINT "record_made_patient_id_record_pk" PRIMARY KEY("patient_id","record")
);
--> statement-breakpoint
ALTER TABLE "record_made" ADD CONSTRAINT "record_made_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;