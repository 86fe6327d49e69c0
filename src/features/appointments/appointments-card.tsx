import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Appointment } from '../../../schemas/appointment.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { inBackground } from '../../../sync/background.ts';
import { copyForUndo } from '../../../sync/storage/copy.ts';
import { ConfirmDialog, Modal } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { useClock } from '../../lib/clock.tsx';
import type { TimeFormat } from '../../lib/dates.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';
import { useLiveDocs } from '../../lib/use-live.ts';
import type { SavedNotifier } from '../../lib/ui/saved-notice.ts';
import type { ToastOptions } from '../../lib/ui/toast-store.ts';
import { AppointmentForm } from './appointment-form.tsx';
import { removeRecord } from '../../../sync/storage/remove.ts';

/**
 * Upcoming appointments (from the start of today), with add, edit and delete; the past ones stay
 * below as history (issue 16: an appointment entered with a past date was confirmed and then never
 * shown again), newest first.
 */
export function AppointmentsCard({ db, notify, notifySaved }: { db: EddyDatabase | undefined; notify: (o: ToastOptions) => void; notifySaved: SavedNotifier }) {
  const { t } = useLingui();
  const [startOfToday] = useState(() => new Date(new Date().toDateString()).toISOString());
  const upcoming = useLiveDocs<Appointment>(db, (d) => d.appointments.find({ selector: { date: { $gte: startOfToday } }, sort: [{ date: 'asc' }] }), [
    startOfToday,
  ]);
  const past = useLiveDocs<Appointment>(db, (d) => d.appointments.find({ selector: { date: { $lt: startOfToday } }, sort: [{ date: 'desc' }] }), [
    startOfToday,
  ]);
  const [editing, setEditing] = useState<Appointment | 'new' | undefined>();
  const [deleting, setDeleting] = useState<Appointment | undefined>();
  const when = useClock().fullDateTime;

  async function remove(a: Appointment) {
    setDeleting(undefined);
    if (db) await removeRecord(db.appointments, a._id);
    notify({
      type: 'success',
      text: t`Appointment removed successfully`,
      duration: 8000,
      action: { label: t`Undo`, run: () => inBackground(db?.appointments.insert(copyForUndo(a)), 'Restoring the removed appointment failed') },
    });
  }

  return (
    <section className="card" aria-labelledby="appointments-title" data-testid="appointments">
      <div className="section-head">
        <h2 id="appointments-title">
          <Trans>Upcoming appointments</Trans>
        </h2>
        <button type="button" className="button button--small" disabled={!db} onClick={() => setEditing('new')}>
          <Icon icon="mdi:plus" /> <Trans>Add appointment</Trans>
        </button>
      </div>
      {!upcoming ? (
        <p role="status">
          <Trans>Loading your appointments…</Trans>
        </p>
      ) : upcoming.length === 0 ? (
        <EmptyState icon="mdi:calendar">
          <Trans>No upcoming appointments. Add your next visit so you do not miss it.</Trans>
        </EmptyState>
      ) : (
        <AppointmentList appointments={upcoming} when={when} onEdit={setEditing} onDelete={setDeleting} />
      )}
      {past && past.length > 0 && (
        <details className="appointments-past" data-testid="past-appointments">
          <summary>
            <Trans>Past appointments ({{ count: past.length }})</Trans>
          </summary>
          <AppointmentList appointments={past} when={when} onEdit={setEditing} onDelete={setDeleting} />
        </details>
      )}
      <Modal open={editing !== undefined} title={editing === 'new' ? t`Add appointment` : t`Edit appointment`} onClose={() => setEditing(undefined)}>
        {editing !== undefined && (
          <AppointmentForm
            {...(editing === 'new' ? {} : { initial: { doctor: editing.doctor, date: new Date(editing.date), notes: editing.notes ?? '' } })}
            submitLabel={editing === 'new' ? t`Add appointment` : t`Save changes`}
            onCancel={() => setEditing(undefined)}
            onSubmit={async ({ doctor, date, notes }) => {
              if (!db) return;
              if (editing === 'new') {
                await db.appointments.insert({ _id: uuidv7(), doctor, date: date.toISOString(), notes });
                // A date before today goes to the history below, which says so.
                notifySaved(date.toISOString() < startOfToday ? t`Appointment added to your past appointments` : t`Appointment added successfully`);
              } else {
                await db.appointments.findOne(editing._id).incrementalPatch({ doctor, date: date.toISOString(), notes });
                notifySaved(t`Appointment updated successfully`);
              }
              setEditing(undefined);
            }}
          />
        )}
      </Modal>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t`Delete this appointment?`}
        confirmLabel={t`Delete`}
        danger
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting && (
          <p>
            <strong>{deleting.doctor}</strong> · {when.format(deleting.date)}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

function AppointmentList({
  appointments,
  when,
  onEdit,
  onDelete,
}: {
  appointments: Appointment[];
  when: TimeFormat;
  onEdit: (a: Appointment) => void;
  onDelete: (a: Appointment) => void;
}) {
  const { t } = useLingui();
  return (
    <ul className="list">
      {appointments.map((a) => {
        const at = when.format(a.date);
        return (
          <li key={a._id}>
            <Icon icon="mdi:calendar-clock" className="list-icon" />
            <div className="list-main">
              <strong dir="auto">{a.doctor}</strong>
              <div>{at}</div>
              {a.notes && (
                // Written by the patient, in whatever language: it keeps its own direction.
                <div className="muted" dir="auto">
                  {a.notes}
                </div>
              )}
            </div>
            <div className="row-actions">
              <button type="button" className="icon-button" aria-label={t`Edit appointment with ${{ doctor: a.doctor }} on ${at}`} onClick={() => onEdit(a)}>
                <Icon icon="mdi:pencil" />
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                aria-label={t`Delete appointment with ${{ doctor: a.doctor }} on ${at}`}
                onClick={() => onDelete(a)}
              >
                <Icon icon="mdi:delete" />
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
