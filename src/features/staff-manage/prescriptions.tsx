// A patient's prescriptions as staff manage them: the list, adding one, ending one.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { DoseText } from '../../components/dose-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { localDateKey } from '../../lib/dates.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { staffReads, useStaffWrites } from '../../lib/staff-api.ts';
import { useStaffQuery } from '../../lib/use-staff-query.ts';
import { PrescriptionAdd } from './prescription-add.tsx';
import { failureText, type AdminPrescription } from './staff-api.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

/** A prescription as the list shows it: from its own GET, or from the patient's review. */
export type ListedPrescription = Pick<AdminPrescription, '_id' | 'prescrNo' | 'name' | 'dose' | 'active'> & {
  startDate?: string | null;
  endDate?: string | null;
};

/**
 * `kept`: the list the patient's review already holds (issue 46: the review is one read); a change
 * asks the review for what changed instead of reading the list again. Without it the list is read here.
 */
export function Prescriptions({
  hospNo,
  kept,
}: {
  hospNo: string;
  kept?: { prescriptions: readonly ListedPrescription[]; onChanged: () => void } | undefined;
}) {
  const { t, i18n } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const [attempt, setAttempt] = useState(0);
  const result = useStaffQuery(kept ? undefined : staffReads.prescriptions(hospNo), undefined, attempt);
  const [ending, setEnding] = useState<ListedPrescription | undefined>();
  const [endDate, setEndDate] = useState(() => localDateKey(new Date()));
  const [endError, setEndError] = useState<string | undefined>();
  const reload = () => (kept ? kept.onChanged() : setAttempt((n) => n + 1));
  // The list stays while it reloads, and while a reload fails.
  const list = kept ? kept.prescriptions : result.status === 'ready' ? result.data.prescriptions : result.last?.prescriptions;
  const loadError = !kept && result.status === 'error' ? failureText(result.error, t`The prescriptions could not be loaded. Please try again.`) : undefined;

  const today = localDateKey(new Date());
  const day = (d: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));

  async function end() {
    if (!ending) return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(endDate)) {
      setEndError(t`Enter the last day of the prescription.`);
      return;
    }
    if (ending.startDate && endDate < ending.startDate) {
      setEndError(t`The last day cannot be before the start date.`);
      return;
    }
    try {
      await staffWrites.endPrescription(hospNo, ending._id, endDate);
      toast({ type: 'success', text: t`Prescription ended` });
      setEnding(undefined);
      reload();
    } catch (err) {
      setEndError(failureText(err, t`The prescription could not be ended. Please try again.`));
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        <Trans>Prescriptions</Trans>
      </h3>
      {loadError && (
        <p className="error-text" role="alert">
          {loadError}{' '}
          <button type="button" className="button button--secondary button--small" onClick={reload}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      {list && list.length === 0 && (
        <p className="empty-state">
          <Trans>No prescriptions yet. Add the patient's first medicine below.</Trans>
        </p>
      )}
      {list && list.length > 0 && (
        <ul className="list sm-list">
          {list.map((p) => (
            <li key={p._id}>
              <div className="list-main">
                <strong>
                  {p.name} · <DoseText dose={p.dose} />
                </strong>
                <span className="muted">
                  <Trans>No. {{ prescriptionNo: p.prescrNo }}</Trans>
                  {p.startDate && <> · {t`from ${{ startDate: day(p.startDate) }}`}</>}
                  {p.endDate && <> · {t`until ${{ endDate: day(p.endDate) }}`}</>}
                  {' · '}
                  {!p.active ? t`Ended` : p.endDate === today ? t`Last day today` : t`Active`}
                </span>
              </div>
              {p.active && (!p.endDate || p.endDate > today) && (
                <div className="row-actions">
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={t`End ${{ medicine: p.name }}`}
                    onClick={() => {
                      setEndDate(localDateKey(new Date()));
                      setEndError(undefined);
                      setEnding(p);
                    }}
                  >
                    <Trans>End</Trans>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <PrescriptionAdd hospNo={hospNo} onAdded={reload} />
      <ConfirmDialog
        open={ending !== undefined}
        title={t`End ${{ medicine: ending?.name ?? '' }}?`}
        confirmLabel={t`End prescription`}
        danger
        onConfirm={() => inBackground(end(), 'Ending the prescription failed')}
        onCancel={() => setEnding(undefined)}
      >
        <div className={endError ? 'field field--error' : 'field'}>
          <DateTimeField
            kind="date"
            label={<Trans>Last day</Trans>}
            value={endDate}
            invalid={Boolean(endError)}
            describedBy={endError ? `${id}-end-error` : undefined}
            onChange={setEndDate}
          />
          {endError && (
            <p id={`${id}-end-error`} className="error-text" role="alert">
              {endError}
            </p>
          )}
        </div>
      </ConfirmDialog>
    </section>
  );
}
