// The patient's reports by day, newest first, each with its time and a way to remove it.
import { Trans, useLingui } from '@lingui/react/macro';
import type { Symptom } from '../../../schemas/symptom.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { useClock } from '../../lib/clock.tsx';
import { groupByDay, localDayKey } from './symptom-rules.ts';
import './symptoms.css';

function useDayHeading(): (date: Date) => string {
  const { t, i18n } = useLingui();
  const now = new Date();
  const today = localDayKey(now);
  const yesterday = localDayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const thisYear = new Intl.DateTimeFormat(i18n.locale, { weekday: 'long', day: 'numeric', month: 'long' });
  const otherYear = new Intl.DateTimeFormat(i18n.locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  return (date) => {
    const day = localDayKey(date);
    if (day === today) return t`Today`;
    if (day === yesterday) return t`Yesterday`;
    return (date.getFullYear() === now.getFullYear() ? thisYear : otherYear).format(date);
  };
}

export function SymptomHistory({ reports, onRemove }: { reports: Symptom[] | undefined; onRemove: (report: Symptom) => void }) {
  const { t } = useLingui();
  const heading = useDayHeading();
  const time = useClock().time;
  return (
    <section className="card symptom-history" aria-labelledby="symptom-history-title" data-testid="symptom-history">
      <h2 id="symptom-history-title">
        <Trans>Your reports</Trans>
      </h2>
      {!reports ? (
        <p role="status">
          <Trans>Loading your reports…</Trans>
        </p>
      ) : reports.length === 0 ? (
        <EmptyState icon="mdi:emoticon-sick-outline">
          <Trans>No symptoms reported yet. When you feel unwell, report what you notice here so your care team can see it.</Trans>
        </EmptyState>
      ) : (
        groupByDay(reports).map((group) => {
          const title = heading(group.date);
          return (
            <section key={group.day} className="symptom-day" aria-label={title} data-testid={`symptom-day-${group.day}`}>
              <h3 className="symptom-day-title">{title}</h3>
              <ul className="list">
                {group.reports.map((r) => {
                  const at = time.format(r.recordedAt);
                  const symptom = r.symptom;
                  return (
                    <li key={r._id}>
                      <span className="list-main symptom-name">{symptom}</span>
                      <time className="muted symptom-time" dateTime={r.recordedAt}>
                        {at}
                      </time>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="icon-button icon-button--danger"
                          aria-label={t`Remove ${symptom} at ${at}`}
                          onClick={() => onRemove(r)}
                        >
                          <Icon icon="mdi:delete" />
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })
      )}
    </section>
  );
}
