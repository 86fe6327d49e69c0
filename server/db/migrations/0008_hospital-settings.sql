ALTER TABLE "hospitals" ADD COLUMN "identifier_system" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "urgent_high_mg_dl" double precision DEFAULT 400 NOT NULL;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "care_contact" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD CONSTRAINT "hospitals_urgent_high_range" CHECK ("hospitals"."urgent_high_mg_dl" between 300 and 500);