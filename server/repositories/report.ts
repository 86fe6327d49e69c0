// What a report reads: one patient's live records between two instants. The service widens the
// window by a day on each side so every local day of the range is covered whatever the patient's
// time zone; buildReport then keeps exactly the local days asked for.
import { and, asc, eq, gte, isNull, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appointments, glucoseReadings, labTests, medicineIntakes, prescriptions, symptoms } from '../db/schema.ts';

export interface Window {
  from: Date;
  to: Date;
}

export const reportRepo = {
  async glucose(db: Db, patientId: string, w: Window) {
    return db
      .select({
        id: glucoseReadings.id,
        type: glucoseReadings.type,
        value: glucoseReadings.valueMgDl,
        unit: glucoseReadings.enteredUnit,
        enteredValue: glucoseReadings.enteredValue,
        recordedAt: glucoseReadings.recordedAt,
        utcOffsetMinutes: glucoseReadings.utcOffsetMinutes,
      })
      .from(glucoseReadings)
      .where(
        and(
          eq(glucoseReadings.patientId, patientId),
          isNull(glucoseReadings.deletedAt),
          gte(glucoseReadings.recordedAt, w.from),
          lte(glucoseReadings.recordedAt, w.to),
        ),
      )
      .orderBy(asc(glucoseReadings.recordedAt));
  },

  async symptoms(db: Db, patientId: string, w: Window) {
    return db
      .select({ symptom: symptoms.symptom, recordedAt: symptoms.recordedAt })
      .from(symptoms)
      .where(and(eq(symptoms.patientId, patientId), isNull(symptoms.deletedAt), gte(symptoms.recordedAt, w.from), lte(symptoms.recordedAt, w.to)));
  },

  async intakes(db: Db, patientId: string, w: Window) {
    return db
      .select({ prescrNo: medicineIntakes.prescrNo, medicineName: medicineIntakes.medicineName, dose: medicineIntakes.dose, takenAt: medicineIntakes.takenAt })
      .from(medicineIntakes)
      .where(
        and(
          eq(medicineIntakes.patientId, patientId),
          isNull(medicineIntakes.deletedAt),
          gte(medicineIntakes.takenAt, w.from),
          lte(medicineIntakes.takenAt, w.to),
        ),
      );
  },

  /** Every prescription, ended ones too: adherence counts the days each was active in the range. */
  async prescriptions(db: Db, patientId: string) {
    return db
      .select({
        prescrNo: prescriptions.prescrNo,
        name: prescriptions.name,
        dose: prescriptions.dose,
        startDate: prescriptions.startDate,
        endDate: prescriptions.endDate,
      })
      .from(prescriptions)
      .where(eq(prescriptions.patientId, patientId));
  },

  /** Lab results up to the window's end, earlier ones included (the report shows the previous value). */
  async labTests(db: Db, patientId: string, to: Date) {
    return db
      .select({ id: labTests.id, name: labTests.name, value: labTests.value, unit: labTests.unit, recordedAt: labTests.recordedAt })
      .from(labTests)
      .where(and(eq(labTests.patientId, patientId), isNull(labTests.deletedAt), lte(labTests.recordedAt, to)));
  },

  async appointments(db: Db, patientId: string, w: Window) {
    return db
      .select({ doctor: appointments.doctor, date: appointments.date, notes: appointments.notes })
      .from(appointments)
      .where(and(eq(appointments.patientId, patientId), isNull(appointments.deletedAt), gte(appointments.date, w.from), lte(appointments.date, w.to)));
  },
};
