// report/types.ts — the report's shared shapes (issue 7). Used by the device (src/ — /app/reports,
// /admin/report, the PDF worker) and by the server (POST /api/users/report, POST /api/admin/report).
// Everything in report/ is plain TypeScript without Lingui macros or DOM, so the server can run it.
// Glucose values are mg/dL everywhere in the model; display units are chosen by the renderer (`unit`).
import type { GlucoseUnit, GlucoseValue } from '../schemas/glucose-units.ts';
import type { GlucoseReading, GlucoseType } from '../schemas/glucose.ts';
import type { Band, TargetStatus } from '../schemas/judgement.ts';

export type MealSlot = 'breakfast' | 'lunch' | 'dinner';

/** Everything a report is made from: the same whether it comes from RxDB, the staff cache or PostgreSQL. */
export interface ReportInput {
  patient: {
    name: string;
    hospNo: string;
    hospital?: string | null;
    /** The hospital's identifier system (a URI) for its hospital numbers: the FHIR Patient.identifier's. */
    identifierSystem?: string | null;
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
   * `utcOffsetMinutes`: the recording device's offset then, when the reading kept it.
   */
  readings: Pick<GlucoseReading, '_id' | 'type' | 'value' | 'unit' | 'enteredValue' | 'recordedAt' | 'utcOffsetMinutes'>[];
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
  /** The lowest and highest reading (mg/dL, with the unit and number as typed). */
  min: GlucoseValue | null;
  max: GlucoseValue | null;
  /** International Consensus bands as shown in the report's unit: counts and percentages (percent null without readings). */
  bands: Record<'veryLow' | 'low' | 'inRange' | 'high' | 'veryHigh', { count: number; percent: number | null }>;
  /**
   * "In target": each reading against the target of its own meal tag (fasting 80–130, after a meal 70
   * to below 180, random 70–180 mg/dL); in a per-tag summary, that tag's target.
   */
  inTarget: { count: number; percent: number | null };
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
  unit?: GlucoseUnit | null | undefined;
  enteredValue?: number | null | undefined;
  /** The recording device's UTC offset then (minutes east of UTC), when the reading kept it. */
  utcOffsetMinutes?: number | null | undefined;
  /** Its consensus band as shown in the report's unit (judgement.ts). */
  band: Band;
  /** Against the target of its own meal tag, as shown: a fasting 148 mg/dL is in range but above target. */
  target: TargetStatus;
}

/** A logbook cell's reading: its value as stored and as typed, and its band. */
export type LoggedValue = Pick<ReportReading, 'value' | 'unit' | 'enteredValue' | 'band'>;

export interface ReportModel {
  input: ReportInput;
  /** The glucose unit every figure, band and value of the report is shown and judged in. */
  unit: GlucoseUnit;
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
   * Every low of the range (below 70 mg/dL / 3.9 mmol/L as shown in the report's unit), oldest first, with
   * the symptoms the patient reported on that local day (issue 16).
   */
  lows: (ReportReading & { symptoms: string[] })[];
  appointments: ReportInput['appointments'];
}
