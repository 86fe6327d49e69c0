import { Trans } from '@lingui/react/macro';
import type { GlucoseValue } from '../../../schemas/glucose-units.ts';
import { GLUCOSE_TYPES, type GlucoseType } from '../../../schemas/glucose.ts';
import type { GlucoseSummary, ReportModel } from '../../../report/types.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

/** Every statistic per meal tag and overall; '–' where there is nothing to compute from. */
export function ByTypeTable({ model, f, labels }: { model: ReportModel; f: ReportFormat; labels: Record<GlucoseType | 'overall', string> }) {
  const g = (v: GlucoseValue | number | null) => (v === null ? '–' : f.glucose(v));
  const rows: { key: string; label: string; s: GlucoseSummary }[] = [
    ...GLUCOSE_TYPES.map((type) => ({ key: type, label: labels[type], s: model.byType[type] })),
    { key: 'overall', label: labels.overall, s: model.overall },
  ];
  const low = f.edge(f.edges.low);
  return (
    <section className="card" aria-labelledby="report-bytype-title">
      <h2 id="report-bytype-title">
        <Trans>Statistics by meal tag</Trans>
      </h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="report-bytype-title">
        <table className="report-table report-table--numbers" data-testid="report-by-type">
          <caption className="visually-hidden">
            <Trans>Glucose statistics by meal tag ({{ unit: f.unit }})</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Tag</Trans>
              </th>
              <th scope="col">
                <Trans>Readings</Trans>
              </th>
              <th scope="col">
                <Trans>Mean</Trans>
              </th>
              <th scope="col">
                <Trans>Median</Trans>
              </th>
              <th scope="col">
                <Trans>SD</Trans>
              </th>
              <th scope="col">
                <Trans>CV</Trans>
              </th>
              <th scope="col">
                <Trans>Min</Trans>
              </th>
              <th scope="col">
                <Trans>Max</Trans>
              </th>
              <th scope="col">
                <Trans>In target</Trans>
              </th>
              <th scope="col">
                <Trans>Below {low}</Trans>
              </th>
              <th scope="col">
                <Trans>Below {{ veryLow: f.edge(f.edges.veryLow) }}</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ key, label, s }) => (
              <tr key={key} data-type={key} className={key === 'overall' ? 'report-total' : undefined}>
                <th scope="row">{label}</th>
                <td>{f.whole(s.count)}</td>
                <td>{g(s.mean)}</td>
                <td>{g(s.median)}</td>
                <td>{f.sd(s.sd)}</td>
                <td>{f.cv(s.cv)}</td>
                <td>{g(s.min)}</td>
                <td>{g(s.max)}</td>
                <td>{f.share(s.inTarget.percent)}</td>
                <td>{f.whole(s.lows.below70)}</td>
                <td>{f.whole(s.lows.below54)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="field-hint">
        {f.targetsDefinition()} <Trans>All readings: each against the target of its own tag. SD and CV need at least 30 readings.</Trans>
      </p>
    </section>
  );
}
