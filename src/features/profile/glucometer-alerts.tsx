import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { log } from '../../../sync/log.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { AddGlucometerDay } from './add-glucometer-day.tsx';
import { addGlucometerDay, removeGlucometerDay } from './glucometer-day-edits.ts';
import { isPastDate, isWeekday, localIsoDate, sortDays } from './glucometer-days.ts';
import { useDayLabel } from './use-day-label.ts';
import type { ProfileDocument } from './use-profile.ts';

/** The days Eddy reminds the patient to check their glucose with the meter (docs/requirements.md §3, §9 glucometerAlert). */
export function GlucometerAlerts({ profile }: { profile: ProfileDocument }) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const dayLabel = useDayLabel();
  const [removing, setRemoving] = useState<string | undefined>();
  const today = localIsoDate(new Date());
  const days = sortDays(profile.glucometerAlerts);
  const removingLabel = removing !== undefined ? dayLabel(removing) : '';
  const saved = runtime.notifySaved;

  async function remove(day: string) {
    setRemoving(undefined);
    try {
      await removeGlucometerDay(profile, day);
    } catch (err) {
      log.error('could not remove a glucometer day', err);
      runtime.notify({ type: 'error', text: t`The day could not be removed on this device. Please try again.` });
      return;
    }
    runtime.notify({
      type: 'success',
      text: t`Glucometer alert removed successfully`,
      action: { label: t`Undo`, run: () => void addGlucometerDay(profile, day).catch((err: unknown) => log.error('could not restore a glucometer day', err)) },
    });
  }

  return (
    <section className="card" aria-labelledby="glucometer-title">
      <h2 id="glucometer-title">
        <Trans>Glucometer days</Trans>
      </h2>
      {days.length === 0 ? (
        <EmptyState icon="mdi:calendar-clock">
          <Trans>
            No glucometer days yet. On a glucometer day Eddy reminds you to check your blood glucose with your meter. Add a day of the week to be reminded every
            week, or a single date.
          </Trans>
        </EmptyState>
      ) : (
        <ul className="list" aria-label={t`Your glucometer days`}>
          {days.map((day) => {
            const label = dayLabel(day);
            return (
              <li key={day}>
                <Icon icon={isWeekday(day) ? 'mdi:calendar-clock' : 'mdi:calendar'} className="glucometer-day-icon" />
                <span className="list-main">
                  {label}
                  {isPastDate(day, today) && (
                    <span className="muted">
                      {' '}
                      <Trans>(this day has passed)</Trans>
                    </span>
                  )}
                </span>
                <span className="row-actions">
                  <button type="button" className="icon-button icon-button--danger" aria-label={t`Remove ${label}`} onClick={() => setRemoving(day)}>
                    <Icon icon="mdi:delete" />
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <AddGlucometerDay profile={profile} onSaved={saved} />
      <ConfirmDialog
        open={removing !== undefined}
        title={<Trans>Remove this glucometer day?</Trans>}
        confirmLabel={<Trans>Remove</Trans>}
        danger
        onConfirm={() => removing !== undefined && void remove(removing)}
        onCancel={() => setRemoving(undefined)}
      >
        <p>
          <Trans>Eddy will no longer remind you to check your glucose on this day: {removingLabel}.</Trans>
        </p>
      </ConfirmDialog>
    </section>
  );
}
