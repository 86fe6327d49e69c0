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

// The trigger also keeps to two rules of its own: no alert for a reading measured more than 24
// hours before it arrives (the worklist shows it), and none within an hour of the patient's last.
export { SEVERE_LOW_LEVEL } from '../../schemas/admin.ts';
/** An alert that reached a device later than this after the measurement says how late. */
export const LATE_AFTER_MS = 10 * 60_000;

export const isSevereLowPayload = (p: unknown): p is SevereLowPayload =>
  typeof p === 'object' && p !== null && 'readingId' in p && typeof p.readingId === 'string' && 'valueMgDl' in p && typeof p.valueMgDl === 'number';

/** The audit log's entry for each staff device an alert reached (under the device's owner). */
export const SEVERE_LOW_AUDIT_ACTION = 'severe-low alert sent';
