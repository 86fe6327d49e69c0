// Pure planning: which reminders fall due for one patient in a window of time. No database, no
// clock: the scheduler passes the patient, their prescriptions and the window, which keeps every
// time-zone, daylight-saving and dose-pattern case testable on its own.
import { localDate, weekdayOf, zonedInstant } from '../lib/time.ts';
import type { GlucometerAlertJson, MedicineReminderJson } from '../../schemas/push.ts';
import { MEALS, mealsOfDose, type Meal } from './dose-pattern.ts';

export interface PlanPatient {
  timeZone: string;
  notificationTimings: Record<Meal, string>;
  /** Normalised alert days: weekday names ("Monday") and dates ("2026-11-30"). */
  glucometerAlerts: string[];
}

export interface PlanPrescription {
  prescrNo: string;
  name: string;
  dose: string;
  startDate: string | null;
  endDate: string | null;
}

/** The data parts of the pushes (the contract with the service worker, schemas/push.ts). */
export type MedicineReminderData = MedicineReminderJson;
export type GlucometerReminderData = GlucometerAlertJson;

export type ReminderData = MedicineReminderData | GlucometerReminderData;

/** What is stored with a reminder job: the push's data part, its tag and this meal's portion. */
export interface ReminderPayload {
  data: ReminderData;
  tag: string;
  portion?: string;
}

export interface PlannedReminder {
  kind: ReminderData['type'];
  /** Unique per patient: the same occurrence planned twice (two instances, two passes) is one row. */
  dedupeKey: string;
  dueAt: Date;
  localDate: string;
  payload: ReminderPayload;
}

/** A prescription is taken on `date` (the patient's local day) if it has started and not ended. */
export function isActiveOn(p: Pick<PlanPrescription, 'startDate' | 'endDate'>, date: string): boolean {
  return (p.startDate === null || p.startDate <= date) && (p.endDate === null || p.endDate >= date);
}

export function isAlertDay(alertDays: string[], date: string): boolean {
  return alertDays.includes(date) || alertDays.includes(weekdayOf(date));
}

export interface DueMeal {
  date: string;
  meal: Meal;
  time: string;
  dueAt: Date;
}

/**
 * The patient's meal times whose instant lies in (from, to]. The local days that window touches
 * are walked (at most two for a window of a few hours), so a window across local midnight sees both.
 */
export function mealsDueIn(patient: Pick<PlanPatient, 'timeZone' | 'notificationTimings'>, from: Date, to: Date): DueMeal[] {
  const out: DueMeal[] = [];
  const dates = new Set([localDate(new Date(from.getTime() + 1), patient.timeZone), localDate(to, patient.timeZone)]);
  for (const date of dates) {
    for (const meal of MEALS) {
      const time = patient.notificationTimings[meal];
      const dueAt = zonedInstant(date, time, patient.timeZone);
      if (dueAt.getTime() > from.getTime() && dueAt.getTime() <= to.getTime()) out.push({ date, meal, time, dueAt });
    }
  }
  return out;
}

/** Every reminder due in (from, to]: medicines at their meals, glucometer days at breakfast. */
export function planReminders(patient: PlanPatient, prescriptions: PlanPrescription[], from: Date, to: Date): PlannedReminder[] {
  const out: PlannedReminder[] = [];
  for (const { date, meal, time, dueAt } of mealsDueIn(patient, from, to)) {
    const notificationTime = dueAt.toISOString();
    if (meal === 'breakfast' && isAlertDay(patient.glucometerAlerts, date)) {
      out.push({
        kind: 'glucometerAlert',
        dedupeKey: `gluco:${date}`,
        dueAt,
        localDate: date,
        payload: { tag: `gluco-${date}`, data: { type: 'glucometerAlert', time, notificationTime } },
      });
    }
    for (const p of prescriptions) {
      if (!isActiveOn(p, date)) continue;
      const mealDose = mealsOfDose(p.dose).find((d) => d.meal === meal);
      if (!mealDose) continue;
      out.push({
        kind: 'medicine',
        dedupeKey: `med:${p.prescrNo}:${date}:${meal}`,
        dueAt,
        localDate: date,
        payload: {
          tag: `med-${p.prescrNo}-${date}-${meal}`,
          portion: mealDose.portion,
          data: { type: 'medicine', prescrNo: p.prescrNo, medicineName: p.name, dose: p.dose, time, meal, notificationTime },
        },
      });
    }
  }
  return out.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
}
