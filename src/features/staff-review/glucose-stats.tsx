import { Trans, useLingui } from '@lingui/react/macro';
import { formatGlucose, useGlucoseUnit } from '../../lib/units.ts';
import { ADA_TARGETS, CONSENSUS, glucoseSummary, type SummaryReading } from '../../../schemas/report/statistics.ts';
import { useFormat } from './format.ts';
import type { ReviewGlucose } from './types.ts';

/**
 * The core's statistics (schemas/report/statistics.ts, the same as the report's). Each reading is
 * judged by its own type's ADA target, so "All readings" is the share on target whatever the tag.
 * The page gives the readings of the review's one period and names it (issue 16); readings a day
 * are not shown.
 */
const stats = (readings: readonly SummaryReading[]) => {
  const s = glucoseSummary(readings, 1);
  return { count: s.count, mean: s.mean, inTargetPercent: s.inOwnTarget.percent, below70: s.lows.below70, below54: s.lows.below54 };
};

/** Count, mean, time in target and lows per reading type and overall. */
export function GlucoseStatsCard({ glucose, period }: { glucose: ReviewGlucose; period?: string | undefined }) {
  const { t } = useLingui();
  const f = useFormat();
  const unit = useGlucoseUnit();
  const g = (mgdl: number) => formatGlucose(mgdl, unit, f.locale);
  const rows = [
    { key: 'Fasting', label: t`Fasting`, stats: stats(glucose.fasting) },
    { key: 'Postprandial', label: t`Postprandial`, stats: stats(glucose.postprandial) },
    { key: 'Random', label: t`Random`, stats: stats(glucose.random) },
    { key: 'all', label: t`All readings`, stats: stats([...glucose.fasting, ...glucose.postprandial, ...glucose.random]) },
  ];
  const fastingLow = g(ADA_TARGETS.Fasting.min);
  const fastingHigh = g(ADA_TARGETS.Fasting.max);
  const low = g(ADA_TARGETS.Random.min);
  const high = g(ADA_TARGETS.Random.max);
  const low54 = g(CONSENSUS.veryLow);
  return (
    <section className="card" aria-labelledby="review-stats">
      <h2 id="review-stats">{period ? <Trans>Glucose statistics, {period}</Trans> : <Trans>Glucose statistics</Trans>}</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="review-stats">
        <table className="review-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Type</Trans>
              </th>
              <th scope="col">
                <Trans>Readings</Trans>
              </th>
              <th scope="col">
                <Trans>Mean ({unit})</Trans>
              </th>
              <th scope="col">
                <Trans>In target</Trans>
              </th>
              <th scope="col">
                <Trans>Below {low}</Trans>
              </th>
              <th scope="col">
                <Trans>Below {low54}</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ key, label, stats }) => (
              <tr key={key} className={key === 'all' ? 'review-table-total' : undefined}>
                <th scope="row">{label}</th>
                <td>{f.number(stats.count)}</td>
                <td>{stats.mean === null ? '–' : g(stats.mean)}</td>
                <td>{stats.inTargetPercent === null ? '–' : f.percent(stats.inTargetPercent)}</td>
                <td>{f.number(stats.below70)}</td>
                <td>{f.number(stats.below54)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        <Trans>
          Target: fasting {fastingLow}–{fastingHigh} {unit}; after a meal {low} to below {high} {unit}; random {low}–{high} {unit}.
        </Trans>
      </p>
    </section>
  );
}
