import { Trans, useLingui } from '@lingui/react/macro';
import { formatGlucose, useGlucoseUnit } from '../../lib/units.ts';
import { useFormat } from './format.ts';
import { glucoseStats, REVIEW_TARGETS } from './stats.ts';
import type { ReviewGlucose } from './types.ts';

/** Count, mean, time in target and lows per reading type and overall. */
export function GlucoseStatsCard({ glucose }: { glucose: ReviewGlucose }) {
  const { t } = useLingui();
  const f = useFormat();
  const unit = useGlucoseUnit();
  const g = (mgdl: number) => formatGlucose(mgdl, unit, f.locale);
  const rows = [
    { key: 'Fasting', label: t`Fasting`, stats: glucoseStats(glucose.fasting) },
    { key: 'Postprandial', label: t`Postprandial`, stats: glucoseStats(glucose.postprandial) },
    { key: 'Random', label: t`Random`, stats: glucoseStats(glucose.random) },
    { key: 'all', label: t`All readings`, stats: glucoseStats([...glucose.fasting, ...glucose.postprandial, ...glucose.random]) },
  ];
  const fastingLow = g(REVIEW_TARGETS.Fasting.low);
  const fastingHigh = g(REVIEW_TARGETS.Fasting.high);
  const low = g(REVIEW_TARGETS.Random.low);
  const high = g(REVIEW_TARGETS.Random.high);
  const low54 = g(54);
  return (
    <section className="card" aria-labelledby="review-stats">
      <h2 id="review-stats">
        <Trans>Glucose statistics</Trans>
      </h2>
      <div className="table-scroll">
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
          Target: fasting {fastingLow}–{fastingHigh} {unit}; after a meal and random {low}–{high} {unit}.
        </Trans>
      </p>
    </section>
  );
}
