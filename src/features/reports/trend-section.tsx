import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { GlucoseUnit } from '../../../schemas/glucose-units.ts';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import type { LoggedValue, ReportModel } from '../../../report/types.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

/** What a trend chart needs: the period's readings and its first and last instant (ms). */
export interface TrendProps {
  readings: ReportModel['input']['readings'];
  from: number;
  to: number;
  unit: GlucoseUnit;
  locale: string;
  labels: Record<GlucoseType, string>;
}

/**
 * The period's readings over time against the target band. The chart itself comes from the route
 * (the dashboard's trend canvas; features do not import each other); the logbook table below says
 * the same day by day.
 */
export function TrendSection({
  model,
  readings,
  f,
  labels,
  renderTrend,
}: {
  model: ReportModel;
  readings: ReportModel['input']['readings'];
  f: ReportFormat;
  labels: Record<GlucoseType, string>;
  renderTrend: ((props: TrendProps) => ReactNode) | undefined;
}) {
  const { t } = useLingui();
  const { from, to } = model.input.range;
  const o = model.overall;
  const low = f.edge(f.edges.low);
  const high = f.edge(f.edges.high);
  const percent = f.share(o.bands.inRange.percent);
  const summary =
    o.count === 0
      ? t`No readings in this period.`
      : t`${{ count: o.count }} readings from ${{ from: f.day(from) }} to ${{ to: f.day(to) }}; ${percent} in range (${low}–${high} ${{ unit: f.unit }}).`;
  const days = model.logbook.filter((d) => d.fasting.length + d.postprandial.length + d.random.length > 0);
  const list = (values: LoggedValue[]) => values.map((v) => f.glucose(v)).join(', ');
  return (
    <section className="card report-chart" aria-labelledby="report-trend-title">
      <h2 id="report-trend-title">
        <Trans>Trend</Trans>
      </h2>
      <p className="trend-summary">{summary}</p>
      {o.count > 0 && renderTrend && (
        <>
          {renderTrend({
            readings,
            // The chart's axis runs over the whole period, midnight to midnight on this device.
            from: new Date(`${from}T00:00:00`).getTime(),
            to: new Date(`${to}T23:59:59`).getTime(),
            unit: f.unit,
            locale: f.locale,
            labels,
          })}
          <p className="field-hint">
            <Trans>
              The shaded band is the range, {low}–{high} {{ unit: f.unit }}.
            </Trans>
          </p>
        </>
      )}
      {days.length > 0 && (
        <details className="report-details">
          <summary>
            <Trans>Show as table (logbook)</Trans>
          </summary>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t`Logbook`}>
            <table className="report-table">
              <caption className="visually-hidden">
                <Trans>Readings by day ({{ unit: f.unit }})</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Day</Trans>
                  </th>
                  <th scope="col">{labels.Fasting}</th>
                  <th scope="col">{labels.Postprandial}</th>
                  <th scope="col">{labels.Random}</th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{f.day(d.date)}</th>
                    <td>{list(d.fasting)}</td>
                    <td>{list(d.postprandial)}</td>
                    <td>{list(d.random)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}
