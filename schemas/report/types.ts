// schemas/report/types.ts — the report's shared shapes (issue 7). Used by the device (src/ — /app/reports,
// /admin/report, the PDF worker) and by the server (POST /api/users/report, POST /api/admin/report).
// Everything in schemas/report/ is plain TypeScript without Lingui macros or DOM, so the server can run it.
// Glucose values are mg/dL everywhere in the model; display units are chosen by the renderer (`unit`).
import type { EntryUnit, GlucoseReading, GlucoseType } from '../glucose.ts';

export type MealSlot = 'breakfast' | 'lunch' | 'dinner';
export type DisplayUnit = 'mg/dL' | 'mmol/L';

/** Everything a report is made from: the same whether it comes from RxDB, the staff cache or PostgreSQL. */
export interface ReportInput {
  patient: {
    name: string;
    hospNo: string;
    hospital?: string | null;
    gender?: string | null;
    age?: number | null;
    timeZone: string;
    notificationTimings?: Partial<Record<MealSlot, string>> | null;
    glucometerAlerts?: string[] | null;
  };
  /** Inclusive local calendar dates (YYYY-MM-DD) in the patient's time zone. */
  range: { from: string; to: string };
  /**
   * Readings of the range AND of the previous period of the same length (for the comparison); others
   * are ignored. Likewise intakes, symptoms and appointments may include more than the range.
   * Lab tests should include earlier results too: the report shows the one before the latest.
   */
  readings: Pick<GlucoseReading, '_id' | 'type' | 'value' | 'unit' | 'enteredValue' | 'recordedAt'>[];
  medicines: { prescrNo: string; name: string; dose: string; startDate?: string | null; endDate?: string | null }[];
  intakes: { prescrNo: string; medicineName?: string; dose?: string; takenAt: string }[];
  symptoms: { symptom: string; recordedAt: string }[];
  /** `loinc` from the lab test reference when known (the FHIR export codes the Observation with it; `_id` becomes its id). */
  labTests: { _id?: string; name: string; value: number; unit?: string | null; loinc?: string | null; recordedAt: string }[];
  appointments: { doctor: string; date: string; notes?: string | null }[];
  /** When the report is made (ISO); tests pass a fixed one. */
  generatedAt: string;
}

export interface GlucoseSummary {
  count: number;
  /** count / days in range. */
  readingsPerDay: number;
  mean: number | null;
  median: number | null;
  /** Sample SD and CV (%), null with fewer than 30 readings (MIN_READINGS_FOR_VARIABILITY). */
  sd: number | null;
  cv: number | null;
  min: number | null;
  max: number | null;
  /** International Consensus bands: counts and percentages (percent null without readings). */
  bands: Record<'veryLow' | 'low' | 'inRange' | 'high' | 'veryHigh', { count: number; percent: number | null }>;
  /** ADA meal target for the tag (fasting 80–130, postprandial < 180; random/overall: 70–180). */
  inTarget: { count: number; percent: number | null };
  /** Each reading against its own tag's ADA target (the same as inTarget in a per-tag summary). */
  inOwnTarget: { count: number; percent: number | null };
  lows: { below70: number; below54: number };
}

/** A reading of the range as shown: local date and time in the patient's time zone, band of its value. */
export interface ReportReading {
  id: string;
  recordedAt: string;
  date: string;
  time: string;
  /** Minutes since local midnight (0–1439), for the time-of-day chart. */
  minutes: number;
  type: GlucoseType;
  /** mg/dL as stored, with the unit and number as typed when the reading kept them. */
  value: number;
  unit?: EntryUnit | null | undefined;
  enteredValue?: number | null | undefined;
  band: 'veryLow' | 'low' | 'inRange' | 'high' | 'veryHigh';
  /** Against the ADA target of its own meal tag: a fasting 148 mg/dL is in range but above target. */
  target: 'below' | 'in' | 'above';
}

/** A logbook cell's reading: its value as stored and as typed, and its band. */
export type LoggedValue = Pick<ReportReading, 'value' | 'unit' | 'enteredValue' | 'band'>;

export interface ReportModel {
  input: ReportInput;
  days: number;
  /** The readings of the range, oldest first. */
  readings: ReportReading[];
  /** Local days of the range with at least one reading. */
  daysWithReadings: number;
  /** The patient's local date when the report was made (days after it expect no doses or checks). */
  today: string;
  overall: GlucoseSummary;
  byType: Record<GlucoseType, GlucoseSummary>;
  /** GMI % and eA1c % when shown; otherwise null with the reason. */
  gmi: { value: number | null; reason?: 'too-few-readings' | 'too-few-days' };
  eA1c: { value: number | null; reason?: 'too-few-readings' | 'too-few-days' };
  previous: { range: { from: string; to: string }; overall: GlucoseSummary };
  adherence: { prescrNo: string; name: string; dose: string; expected: number; taken: number; percent: number | null }[];
  symptoms: { symptom: string; count: number; lastAt: string }[];
  labs: {
    name: string;
    unit?: string | null;
    loinc?: string | null;
    latest: { value: number; recordedAt: string };
    previous?: { value: number; recordedAt: string };
  }[];
  /** `percent` is the value as NGSP % (converted from IFCC mmol/mol when that is the unit). */
  latestHbA1c: { value: number; unit?: string | null; percent: number; recordedAt: string } | null;
  /** Planned glucometer days up to today; `missedDays` are the planned dates without a reading. */
  checks: { plannedDays: number; daysWithReading: number; missedDays: string[] };
  /** Logbook: one row per local day, the readings of each slot (fasting/before-breakfast, after meals, other). */
  logbook: { date: string; fasting: LoggedValue[]; postprandial: LoggedValue[]; random: LoggedValue[] }[];
  /**
   * Every low of the range (below 70 mg/dL / 3.9 mmol/L, judged in its own unit), oldest first, with
   * the symptoms the patient reported on that local day (issue 16).
   */
  lows: (ReportReading & { symptoms: string[] })[];
  appointments: ReportInput['appointments'];
}
