import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { mealSlotOf, type MealSlot } from '../../../schemas/dose-slot.ts';
import type { Medicine, MedicineIntake } from '../../../schemas/medicine.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { DoseText } from '../../components/dose-text.tsx';
import { Icon } from '../../components/icon.tsx';
import { PENDING_MEDICINE_LIMITS, type PendingMedicine, type ProfileDoc } from '../../../sync/storage/collections.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';
import { useLiveDocs } from '../../lib/use-live.ts';
import { useClock } from '../../lib/clock.tsx';
import type { SavedNotifier } from '../../lib/ui/saved-notice.ts';
import type { ToastOptions } from '../../lib/ui/toast-store.ts';
import { localDateKey } from '../../lib/dates.ts';
import { useNow } from '../../lib/use-now.ts';
import { activeMedicines, waitingReminders } from './active.ts';
import { removeRecord } from '../../../sync/storage/remove.ts';

/** "08:05" in the device's time, the form meal times are kept in. */
const clockOf = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** A second "Mark as taken" for a dose already recorded: shown instead of recording it twice. */
interface AlreadyTaken {
  medicine: { prescrNo: string; name: string; dose: string };
  intake: MedicineIntake;
  slot: MealSlot;
  pendingId: string | undefined;
}

interface Props {
  db: EddyDatabase | undefined;
  notify: (o: ToastOptions) => void;
  /** The notice of a dose saved (it says so when the device is offline). */
  notifySaved: SavedNotifier;
}

/**
 * Active medicines with "Mark as taken", and the reminders still waiting for an answer (docs/requirements.md §3,
 * §4). A dose is a record of its own, saved on the device and sent when the server can be reached.
 * The collection holds ended prescriptions too (for the report): only active ones are offered here.
 */
export function MedicinesCard({ db, notify, notifySaved }: Props) {
  const { t } = useLingui();
  const medicines = useLiveDocs<Medicine>(db, (d) => d.medicines.find(), []);
  // Reminders expire 2 hours after they arrived (docs/requirements.md §9), and a medicine's last day
  // ends at midnight: the time is renewed every minute so both leave the screen without a reload.
  const minute = useNow();
  const now = new Date(minute);
  const today = localDateKey(now);
  const intakes = useLiveDocs<MedicineIntake>(
    db,
    (d) => d.medicineIntakes.find({ selector: { takenAt: { $gte: new Date(`${today}T00:00:00`).toISOString() } }, sort: [{ takenAt: 'desc' }] }),
    [today],
  );
  const waiting = useLiveDocs<PendingMedicine>(db, (d) => d.pendingMedicines.find({ selector: { expiry: { $gt: minute } }, sort: [{ expiry: 'asc' }] }), [
    minute,
  ]);
  const profile = useLiveDocs<ProfileDoc>(db, (d) => d.profile.find(), []);
  const timings = profile?.[0]?.notificationTimings;
  const [already, setAlready] = useState<AlreadyTaken | undefined>();
  // Taps are handled one after the other, each reading what the one before it recorded: a double
  // tap can never record two doses.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const clock = useClock();
  const time = clock.time;
  const active = activeMedicines(medicines ?? [], now);
  const pending = waiting && waitingReminders(waiting, medicines ?? [], now);

  const slotOf = (i: MedicineIntake) => i.slot ?? (timings ? mealSlotOf(clockOf(new Date(i.takenAt)), timings) : undefined);

  function markTaken(m: { prescrNo: string; name: string; dose: string }, pendingId?: string, opts: { extra?: boolean; mealTime?: string } = {}) {
    // A failed write on the device (storage full, the database closed by a logout) is said, not lost in the log.
    const run = queue.current
      .then(() => record(m, pendingId, opts))
      .catch((err: unknown) => {
        log.error('Recording the dose failed', err);
        const name = m.name;
        notify({ type: 'error', text: t`The dose of ${name} could not be recorded on this device. Please try again.` });
      });
    queue.current = run;
    return run;
  }

  /**
   * One dose per prescription, day and meal slot (docs/sync-protocol.md): the meal is the one the
   * reminder was for, or the one nearest to now. A dose already recorded for that meal is shown
   * with Undo and "extra dose" instead of being recorded again.
   */
  async function record(m: { prescrNo: string; name: string; dose: string }, pendingId: string | undefined, opts: { extra?: boolean; mealTime?: string }) {
    if (!db) return;
    const now = new Date();
    const slot = timings ? mealSlotOf(opts.mealTime ?? clockOf(now), timings) : undefined;
    if (slot && !opts.extra) {
      const midnight = new Date(`${localDateKey(now)}T00:00:00`).toISOString();
      const today = await db.medicineIntakes.find({ selector: { takenAt: { $gte: midnight } } }).exec();
      const same = today.map((d) => d.toJSON() as MedicineIntake).find((i) => i.prescrNo === m.prescrNo && !i.extra && slotOf(i) === slot);
      if (same) {
        // The reminder is answered by the dose already recorded.
        if (pendingId) await db.pendingMedicines.findOne(pendingId).remove();
        setAlready({ medicine: m, intake: same, slot, pendingId: undefined });
        return;
      }
    }
    setAlready(undefined);
    await db.medicineIntakes.insert({
      _id: uuidv7(),
      prescrNo: m.prescrNo,
      medicineName: m.name,
      dose: m.dose,
      takenAt: now.toISOString(),
      ...(slot ? { slot } : {}),
      ...(opts.extra ? { extra: true } : {}),
    });
    // A medicine marked taken is removed from the pending list (docs/requirements.md §4).
    if (pendingId) await db.pendingMedicines.findOne(pendingId).remove();
    // Pending entries hold the prescription number cut to its limit (docs/requirements.md §5).
    else await db.pendingMedicines.find({ selector: { prescrNo: m.prescrNo.slice(0, PENDING_MEDICINE_LIMITS.prescrNo) } }).remove();
    notifySaved(t`Medicine recorded successfully`);
  }

  async function undo(a: AlreadyTaken) {
    if (!db) return;
    try {
      await removeRecord(db.medicineIntakes, a.intake._id);
    } catch (err) {
      log.error('Undoing the dose failed', err);
      const name = a.medicine.name;
      notify({ type: 'error', text: t`The dose of ${name} could not be removed on this device. Please try again.` });
      return;
    }
    setAlready(undefined);
    notify({ type: 'info', text: t`The dose of ${{ medicine: a.medicine.name }} was removed.` });
  }

  const takenToday = (prescrNo: string) => (intakes ?? []).filter((i) => i.prescrNo === prescrNo);
  const mealName = (slot: MealSlot) => (slot === 'breakfast' ? t`breakfast` : slot === 'lunch' ? t`lunch` : t`dinner`);

  return (
    <section className="card" aria-labelledby="medicines-title" data-testid="medicines">
      <h2 id="medicines-title">
        <Trans>Medicines</Trans>
      </h2>
      {pending && pending.length > 0 && (
        <div className="pending" aria-labelledby="pending-title">
          <h3 id="pending-title">
            <Trans>Reminders waiting</Trans>
          </h3>
          <ul className="list">
            {pending.map((p) => (
              <li key={p._id}>
                <Icon icon="mdi:alarm" className="list-icon" />
                <div className="list-main" id={`pending-${p._id}`}>
                  <strong>{p.name}</strong> · <DoseText dose={p.dose} />
                  <div className="muted">
                    <Trans>
                      Due {{ dueTime: clock.profileClockTime(p.time) }} · prescription {{ prescriptionNo: p.prescrNo }}
                    </Trans>
                  </div>
                </div>
                <button
                  type="button"
                  className="button button--small"
                  aria-describedby={`pending-${p._id}`}
                  onClick={() => inBackground(markTaken(p, p._id, { mealTime: p.time }), 'Recording the dose failed')}
                >
                  <Trans>Mark as taken</Trans>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!medicines ? (
        <p role="status">
          <Trans>Loading your medicines…</Trans>
        </p>
      ) : active.length === 0 ? (
        <EmptyState icon="mdi:pill">
          <Trans>You have no active medicines. Your hospital adds them when they prescribe one.</Trans>
        </EmptyState>
      ) : (
        <ul className="list">
          {active.map((m) => {
            const doses = takenToday(m.prescrNo);
            return (
              <li key={m._id}>
                <Icon icon="mdi:pill" className="list-icon" />
                <div className="list-main" id={`medicine-${m._id}`}>
                  <strong>{m.name}</strong> · <DoseText dose={m.dose} />
                  <div className="muted">
                    {doses.length > 0 ? (
                      <Trans>Taken today at {{ times: doses.map((d) => time.format(d.takenAt)).join(', ') }}</Trans>
                    ) : (
                      <Trans>Not marked as taken today</Trans>
                    )}
                  </div>
                </div>
                <button
                  type="button"
                  className="button button--small"
                  aria-describedby={`medicine-${m._id}`}
                  onClick={() => inBackground(markTaken(m), 'Recording the dose failed')}
                >
                  <Trans>Mark as taken</Trans>
                </button>
                {already?.medicine.prescrNo === m.prescrNo && (
                  <div className="already-taken" role="status" data-testid="already-taken">
                    <p>
                      <Trans>
                        Already recorded for {{ meal: mealName(already.slot) }} at {{ takenAt: time.format(already.intake.takenAt) }}.
                      </Trans>
                    </p>
                    <button
                      type="button"
                      className="button button--small button--secondary"
                      onClick={() => inBackground(undo(already), 'Undoing the dose failed')}
                    >
                      <Trans>Undo that dose</Trans>
                    </button>
                    <button
                      type="button"
                      className="button button--small button--secondary"
                      onClick={() => inBackground(markTaken(already.medicine, already.pendingId, { extra: true }), 'Recording the dose failed')}
                    >
                      <Trans>Record an extra dose</Trans>
                    </button>
                    <button type="button" className="button button--small button--secondary" onClick={() => setAlready(undefined)}>
                      <Trans>Keep it</Trans>
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
