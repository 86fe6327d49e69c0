// The patient's local RxDB documents → ReportInput (report/types.ts), the one shape the
// statistics, the PDF, the CSV and the FHIR export are made from. Only the fields the report uses
// are copied: the input crosses into the PDF worker, and nothing else of the record should.
import type { MealSlot, ReportInput } from '../../../report/types.ts';
import type { Appointment, GlucoseReading, LabTest, Medicine, MedicineIntake, ProfileDoc, Symptom } from '../../../sync/storage/collections.ts';
import { addDays, daysInRange, type DateRange } from './range.ts';

export interface LocalReportData {
  profile: ProfileDoc;
  readings: readonly GlucoseReading[];
  medicines: readonly Medicine[];
  intakes: readonly MedicineIntake[];
  symptoms: readonly Symptom[];
  labTests: readonly LabTest[];
  appointments: readonly Appointment[];
}

/** The device's own zone, for a profile that does not name one yet. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const MEAL_SLOTS: readonly MealSlot[] = ['breakfast', 'lunch', 'dinner'];

function mealTimes(timings: ProfileDoc['notificationTimings'] | undefined): Partial<Record<MealSlot, string>> {
  const out: Partial<Record<MealSlot, string>> = {};
  for (const slot of MEAL_SLOTS) {
    const at = timings?.[slot];
    if (at) out[slot] = at;
  }
  return out;
}

/**
 * The instants a report over `range` needs, with a day's margin on both sides for any time zone:
 * the range itself and the previous period of the same length (the comparison). buildReport keeps
 * exactly the readings of each period by the patient's calendar, so the margin is never counted.
 */
export function queryWindow(range: DateRange): { since: string; until: string } {
  const previousFrom = addDays(range.from, -daysInRange(range));
  return { since: `${addDays(previousFrom, -1)}T00:00:00.000Z`, until: `${addDays(range.to, 2)}T00:00:00.000Z` };
}

export function reportInputFromLocal(data: LocalReportData, range: DateRange, generatedAt: string): ReportInput {
  const p = data.profile;
  return {
    patient: {
      name: p.name,
      hospNo: p.hospNum,
      hospital: p.hospital ?? null,
      // A profile stored before it carried the hospital's settings has none until the next pull.
      identifierSystem: p.hospitalSettings?.identifierSystem ?? null,
      gender: p.gender ?? null,
      age: p.age ?? null,
      timeZone: p.timeZone || deviceTimeZone(),
      notificationTimings: mealTimes(p.notificationTimings),
      glucometerAlerts: [...p.glucometerAlerts],
    },
    range: { from: range.from, to: range.to },
    readings: data.readings.map((r) => ({
      _id: r._id,
      type: r.type,
      value: r.value,
      unit: r.unit ?? null,
      enteredValue: r.enteredValue ?? null,
      recordedAt: r.recordedAt,
      utcOffsetMinutes: r.utcOffsetMinutes ?? null,
    })),
    medicines: data.medicines.map((m) => ({ prescrNo: m.prescrNo, name: m.name, dose: m.dose, startDate: m.startDate ?? null, endDate: m.endDate ?? null })),
    intakes: data.intakes.map((i) => ({ prescrNo: i.prescrNo, medicineName: i.medicineName, dose: i.dose, takenAt: i.takenAt })),
    symptoms: data.symptoms.map((s) => ({ symptom: s.symptom, recordedAt: s.recordedAt })),
    labTests: data.labTests.map((l) => ({ _id: l._id, name: l.name, value: l.value, unit: l.unit ?? null, recordedAt: l.recordedAt })),
    appointments: data.appointments.map((a) => ({ doctor: a.doctor, date: a.date, notes: a.notes ?? null })),
    generatedAt,
  };
}
