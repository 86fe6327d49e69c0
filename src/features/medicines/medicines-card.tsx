import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { Medicine, MedicineIntake } from '../../../schemas/medicine.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { PENDING_MEDICINE_LIMITS, type PendingMedicine } from '../../lib/db/collections.ts';
import type { EddyDatabase } from '../../lib/db/database.ts';
import { useLiveDocs } from '../../lib/db/use-live.ts';
import { formatClockTime } from '../../lib/dates.ts';
import type { ToastOptions } from '../../lib/ui/toast-store.ts';
import { localDateKey } from '../../lib/dates.ts';
import { isActive } from './active.ts';

function useMinute(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

interface Props {
  db: EddyDatabase | undefined;
  notify: (o: ToastOptions) => void;
}

/**
 * Active medicines with "Mark as taken", and the reminders still waiting for an answer (spec §3,
 * §4). A dose is a record of its own, saved on the device and sent when the server can be reached.
 */
export function MedicinesCard({ db, notify }: Props) {
  const { t, i18n } = useLingui();
  const medicines = useLiveDocs<Medicine>(db, (d) => d.medicines.find(), []);
  const today = localDateKey(new Date());
  const intakes = useLiveDocs<MedicineIntake>(db, (d) => d.medicineIntakes.find({ selector: { takenAt: { $gte: new Date(`${today}T00:00:00`).toISOString() } }, sort: [{ takenAt: 'desc' }] }), [today]);
  // Reminders expire 2 hours after they arrived (spec §9): the query is renewed every minute so an
  // expired one leaves the screen without a reload.
  const minute = useMinute();
  const pending = useLiveDocs<PendingMedicine>(db, (d) => d.pendingMedicines.find({ selector: { expiry: { $gt: minute } }, sort: [{ expiry: 'asc' }] }), [minute]);
  const time = new Intl.DateTimeFormat(i18n.locale, { timeStyle: 'short' });
  const active = (medicines ?? []).filter((m) => isActive(m)).sort((a, b) => a.name.localeCompare(b.name));

  async function markTaken(m: { prescrNo: string; name: string; dose: string }, pendingId?: string) {
    if (!db) return;
    await db.medicineIntakes.insert({ _id: uuidv7(), prescrNo: m.prescrNo, medicineName: m.name, dose: m.dose, takenAt: new Date().toISOString() });
    // A medicine marked taken is removed from the pending list (spec §4).
    if (pendingId) await db.pendingMedicines.findOne(pendingId).remove();
    // Pending entries hold the prescription number cut to its limit (spec §5).
    else await db.pendingMedicines.find({ selector: { prescrNo: m.prescrNo.slice(0, PENDING_MEDICINE_LIMITS.prescrNo) } }).remove();
    notify({ type: 'success', text: t`Medicine recorded successfully` });
  }

  const takenToday = (prescrNo: string) => (intakes ?? []).filter((i) => i.prescrNo === prescrNo);

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
                  <strong>{p.name}</strong> · {p.dose}
                  <div className="muted">
                    <Trans>
                      Due {formatClockTime(p.time, i18n.locale)} · prescription {p.prescrNo}
                    </Trans>
                  </div>
                </div>
                <button type="button" className="button button--small" aria-describedby={`pending-${p._id}`} onClick={() => void markTaken(p, p._id)}>
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
                  <strong>{m.name}</strong> · {m.dose}
                  <div className="muted">
                    {doses.length > 0 ? (
                      <Trans>Taken today at {doses.map((d) => time.format(new Date(d.takenAt))).join(', ')}</Trans>
                    ) : (
                      <Trans>Not marked as taken today</Trans>
                    )}
                  </div>
                </div>
                <button type="button" className="button button--small" aria-describedby={`medicine-${m._id}`} onClick={() => void markTaken(m)}>
                  <Trans>Mark as taken</Trans>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
