ALTER TABLE "glucose_readings" ADD COLUMN "entered_unit" text;--> statement-breakpoint
ALTER TABLE "glucose_readings" ADD COLUMN "entered_value" double precision;