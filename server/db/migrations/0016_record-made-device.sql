-- Which device's write each record (or meal time) holds (services/record-made.ts): a write sent
-- again on no version with what it was made on (`madeOn`) is not a conflict with the same device's
-- own earlier change, sent again ahead of it after a heal (randomized fault runs, PGlite, seed
-- 1838412833). Null for staff changes and for writes without a mutation id.
ALTER TABLE "record_made" ADD COLUMN "device" text;
