// Repositories of the patient record tables; each is the shared synced-records core on its table.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appointments, glucoseReadings, labTests, medicineIntakes, symptoms } from '../db/schema.ts';
import { appointmentJson, glucoseJson, intakeJson, labTestJson, symptomJson } from './json-view.ts';
import { syncedRecords } from './synced-records.ts';

export const glucoseRepo = syncedRecords(glucoseReadings, glucoseReadings.recordedAt, { json: glucoseJson, group: glucoseReadings.type });
export const symptomRepo = syncedRecords(symptoms, symptoms.recordedAt, { json: symptomJson });
export const appointmentRepo = syncedRecords(appointments, appointments.date, { json: appointmentJson });
export const labTestRepo = syncedRecords(labTests, labTests.recordedAt, { json: labTestJson });
/** Doses taken: their one-per-slot insert lives in medicines.ts. */
export const intakeRepo = syncedRecords(medicineIntakes, medicineIntakes.takenAt, { json: intakeJson });

export type GlucoseRow = typeof glucoseReadings.$inferSelect;
export type SymptomRow = typeof symptoms.$inferSelect;
export type AppointmentRow = typeof appointments.$inferSelect;
export type LabTestRow = typeof labTests.$inferSelect;
export type IntakeRow = typeof medicineIntakes.$inferSelect;

/** Symptom reports (live or removed) of that name on that local day. */
export async function symptomsOnDay(db: Db, patientId: string, name: string, day: string): Promise<SymptomRow[]> {
  return db
    .select()
    .from(symptoms)
    .where(and(eq(symptoms.patientId, patientId), eq(symptoms.day, day), sql`lower(${symptoms.symptom}) = lower(${name})`));
}
