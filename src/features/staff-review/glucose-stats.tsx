import { Trans } from '@lingui/react/macro';
import { GLUCOSE_TYPES } from '../../../schemas/glucose.ts';
import { PDF_LABELS, TYPE_LABELS } from '../../../report/labels.ts';
import type { GlucoseSummary, ReportModel } from '../../../report/types.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

/**
 * The review's statistics per meal tag and overall, read from the same report model as the summary
 * above it, the web report and the PDF (buildReport over the review's one period), so every figure
 * and name is theirs: "In range" is the consensus range's share, "In target" each reading against
 * its own tag's target, the overall row included.
 */
export function GlucoseStatsCard({ model, f, period }: { model: ReportModel; f: ReportFormat; period?: string | undefined }) {
  const rows: { key: string; label: string; s: GlucoseSummary }[] = [
    ...GLUCOSE_TYPES.map((type) => ({ key: type, label: f.t(TYPE_LABELS[type]), s: model.byType[type] })),
    { key: 'all', label: f.t(PDF_LABELS.overall), s: model.overall },
  ];
  const low = f.edge(f.edges.low);
  const high = f.edge(f.edges.high);
  const veryLow = f.edge(f.edges.veryLow);
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
                <Trans>Mean ({{ unit: f.unit }})</Trans>
              </th>
              <th scope="col">
                <Trans>
                  In range ({low}–{high})
                </Trans>
              </th>
              <th scope="col">{f.t(PDF_LABELS.inTarget)}</th>
              <th scope="col">
                <Trans>Below {low}</Trans>
              </th>
              <th scope="col">
                <Trans>Below {veryLow}</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ key, label, s }) => (
              <tr key={key} className={key === 'all' ? 'review-table-total' : undefined} data-type={key}>
                <th scope="row">{label}</th>
                <td>{f.whole(s.count)}</td>
                <td>{s.mean === null ? '–' : f.glucose(s.mean)}</td>
                <td>{f.share(s.bands.inRange.percent)}</td>
                <td>{f.share(s.inTarget.percent)}</td>
                <td>{f.whole(s.lows.below70)}</td>
                <td>{f.whole(s.lows.below54)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        {f.targetsDefinition()} <Trans>All readings: each against the target of its own tag.</Trans>
      </p>
    </section>
  );
}
