// Severe-low alerts to the care team (issue 18). A reading below the patient's hospital's level
// (54 mg/dL unless the hospital set another, 40–70) queues one job in reminder_jobs, in the same
// transaction as the write, by the trigger of migration 0007: every write path (the routes, the
// batch, a replay from a device that was offline) queues it the same way, at most once per patient
// per hour. The scheduler claims it like any reminder and sends it to the devices of the hospital's
// staff who turned alerts on (scheduler.ts); the message is worded here.

/** What the trigger stores with the job: the reading as it was written. */
export interface SevereLowPayload {
  readingId: string;
  valueMgDl: number;
  /** When the reading was measured (ISO); it may be long before the job, when written offline. */
  measuredAt: string;
  /** The unit and number as the patient typed them (absent for readings from older clients). */
  enteredUnit?: 'mg/dL' | 'mmol/L' | null;
  enteredValue?: number | null;
}

/** The default level: the consensus "level 2" (clinically significant) hypoglycaemia threshold. */
export const DEFAULT_SEVERE_LOW_MG_DL = 54;
/** The range a hospital may set its level in (the database checks it too). */
export const SEVERE_LOW_RANGE = { min: 40, max: 70 } as const;
/** A reading measured longer ago than this does not alert (the worklist shows it instead). */
export const SEVERE_LOW_MAX_AGE_HOURS = 24;
/** A second low of the same patient within this time after an alert does not alert again. */
export const SEVERE_LOW_QUIET_MINUTES = 60;
/** An alert that reached a device later than this after the measurement says how late. */
export const LATE_AFTER_MS = 10 * 60_000;

export const isSevereLowPayload = (p: unknown): p is SevereLowPayload =>
  typeof p === 'object' && p !== null && typeof (p as SevereLowPayload).readingId === 'string' && typeof (p as SevereLowPayload).valueMgDl === 'number';

/** The audit log's entry for each staff device an alert reached (under the device's owner). */
export const SEVERE_LOW_AUDIT_ACTION = 'severe-low alert sent';
