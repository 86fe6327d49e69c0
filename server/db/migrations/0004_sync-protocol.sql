CREATE TABLE "applied_mutations" (
	"patient_id" uuid NOT NULL,
	"mutation_id" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applied_mutations_patient_id_mutation_id_pk" PRIMARY KEY("patient_id","mutation_id")
);
--> statement-breakpoint
CREATE TABLE "sync_counters" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "glucose_readings" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_tests" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "medicine_intakes" ADD COLUMN "slot" text;--> statement-breakpoint
ALTER TABLE "medicine_intakes" ADD COLUMN "day" date;--> statement-breakpoint
ALTER TABLE "medicine_intakes" ADD COLUMN "extra" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "medicine_intakes" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "medicine_intakes" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "timings_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "access_key_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "symptoms" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "applied_mutations" ADD CONSTRAINT "applied_mutations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applied_mutations_created_idx" ON "applied_mutations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "appointments_patient_version_idx" ON "appointments" USING btree ("patient_id","version");--> statement-breakpoint
CREATE INDEX "glucose_patient_version_idx" ON "glucose_readings" USING btree ("patient_id","version");--> statement-breakpoint
CREATE INDEX "lab_tests_patient_version_idx" ON "lab_tests" USING btree ("patient_id","version");--> statement-breakpoint
CREATE INDEX "intakes_patient_version_idx" ON "medicine_intakes" USING btree ("patient_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "intakes_one_per_slot_idx" ON "medicine_intakes" USING btree ("patient_id","prescr_no","day","slot") WHERE "medicine_intakes"."slot" is not null and not "medicine_intakes"."extra" and "medicine_intakes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "prescriptions_patient_version_idx" ON "prescriptions" USING btree ("patient_id","version");--> statement-breakpoint
CREATE INDEX "symptoms_patient_version_idx" ON "symptoms" USING btree ("patient_id","version");--> statement-breakpoint
-- Hand-written from here on (docs/sync-protocol.md, "Versions, not wall clocks").
--
-- eddy_next_version hands out a patient's next version from their row in sync_counters. The upsert
-- takes that row's lock, and the lock is held until the writing transaction commits or rolls back:
-- a second writer of the same patient waits here, and gets n+1 only once the holder of n has
-- committed. So a patient's versions become visible in the order they were assigned: a pull that
-- has seen version n has seen every committed version below it, and a pull from a checkpoint can
-- never skip a commit that finished late. (A rolled-back writer leaves a gap, which is harmless.)
CREATE FUNCTION eddy_next_version(p uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  INSERT INTO sync_counters AS c (patient_id, version) VALUES (p, 1)
  ON CONFLICT (patient_id) DO UPDATE SET version = c.version + 1
  RETURNING c.version INTO v;
  RETURN v;
END;
$$;
--> statement-breakpoint
-- Every insert and update of a patient record takes a new version, whoever writes it (the API, the
-- staff area, the CLI, the demo seed): a value the writer put in `version` is overwritten.
CREATE FUNCTION eddy_stamp_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := eddy_next_version(NEW.patient_id);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- The profile is the patients row itself. Each meal time also keeps the version at which its value
-- last changed, so that a device's stale edit of breakfast is not mistaken for a conflict with
-- staff's change of lunch: writing a meal time's current value again does not move its entry.
CREATE FUNCTION eddy_stamp_patient_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  NEW.version := eddy_next_version(NEW.id);
  FOREACH k IN ARRAY ARRAY['breakfast', 'lunch', 'dinner'] LOOP
    IF TG_OP = 'INSERT' THEN
      NEW.timings_versions := jsonb_set(coalesce(NEW.timings_versions, '{}'::jsonb), ARRAY[k], to_jsonb(NEW.version));
    ELSIF (NEW.notification_timings -> k) IS DISTINCT FROM (OLD.notification_timings -> k) THEN
      NEW.timings_versions := jsonb_set(coalesce(NEW.timings_versions, '{}'::jsonb), ARRAY[k], to_jsonb(NEW.version));
    END IF;
  END LOOP;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER glucose_readings_version BEFORE INSERT OR UPDATE ON glucose_readings FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER symptoms_version BEFORE INSERT OR UPDATE ON symptoms FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER appointments_version BEFORE INSERT OR UPDATE ON appointments FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER lab_tests_version BEFORE INSERT OR UPDATE ON lab_tests FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER prescriptions_version BEFORE INSERT OR UPDATE ON prescriptions FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER medicine_intakes_version BEFORE INSERT OR UPDATE ON medicine_intakes FOR EACH ROW EXECUTE FUNCTION eddy_stamp_version();
--> statement-breakpoint
CREATE TRIGGER patients_version BEFORE INSERT OR UPDATE ON patients FOR EACH ROW EXECUTE FUNCTION eddy_stamp_patient_version();
--> statement-breakpoint
-- Rows written before versions existed take one now (the triggers above stamp them), so a device's
-- first pull from version 0 receives everything. updated_at is left alone: ISO pulls see no change.
UPDATE patients SET version = 0;
--> statement-breakpoint
UPDATE glucose_readings SET version = 0;
--> statement-breakpoint
UPDATE symptoms SET version = 0;
--> statement-breakpoint
UPDATE appointments SET version = 0;
--> statement-breakpoint
UPDATE lab_tests SET version = 0;
--> statement-breakpoint
UPDATE prescriptions SET version = 0;
--> statement-breakpoint
UPDATE medicine_intakes SET version = 0;
--> statement-breakpoint
-- Sessions opened with an access key before its expiry was kept: never renewed past their end.
UPDATE sessions SET access_key_expires_at = expires_at WHERE method = 'access-key';
