import type { Medicine } from '../../../schemas/medicine.ts';
import { PENDING_MEDICINE_LIMITS, type PendingMedicine } from '../../../sync/storage/collections.ts';
import { localDateKey } from '../../lib/dates.ts';

/** docs/requirements.md §3: active means no end date, or an end date today or later (to the end of that day). */
export const isActive = (m: Pick<Medicine, 'endDate'>, now = new Date()) => !m.endDate || m.endDate >= localDateKey(now);

/**
 * The medicines to take now, by name. The device's collection holds every prescription, ended ones
 * too (a report over a past period lists them): whatever means "my medicines" goes through here, with
 * the time of the render, so a medicine whose last day ends at midnight leaves the list then, though
 * nothing changed on the server.
 */
export function activeMedicines<M extends Pick<Medicine, 'endDate' | 'name'>>(medicines: readonly M[], now: Date): M[] {
  return medicines.filter((m) => isActive(m, now)).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The reminders still to answer, less those of a medicine that has ended since the reminder came
 * (one that arrived late on the medicine's last day is kept for 2 hours, past midnight). A reminder
 * of a prescription the device does not hold yet stays: the server reminds of active medicines
 * only, and the pull that brings the prescription may still be to come. Pending entries keep the
 * prescription number cut to its limit (docs/requirements.md §5), so numbers are compared cut.
 */
export function waitingReminders<P extends Pick<PendingMedicine, 'prescrNo'>>(
  pending: readonly P[],
  medicines: readonly Pick<Medicine, 'prescrNo' | 'endDate'>[],
  now: Date,
): P[] {
  const cut = (prescrNo: string) => prescrNo.slice(0, PENDING_MEDICINE_LIMITS.prescrNo);
  const active = new Set(medicines.filter((m) => isActive(m, now)).map((m) => cut(m.prescrNo)));
  const ended = new Set(medicines.filter((m) => !isActive(m, now)).map((m) => cut(m.prescrNo)));
  return pending.filter((p) => active.has(p.prescrNo) || !ended.has(p.prescrNo));
}
