import { Trans, useLingui } from '@lingui/react/macro';
import type { GlucoseSummary } from '../../../report/types.ts';
import { BAND_COLOURS, BAND_ORDER, bandEdges, type BandKey } from './bands.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

/**
 * Share of readings in each consensus band: one stacked bar (the picture clinicians know from
 * glucose profile reports) above a table that says the same in words, so the colours are never
 * the only way to read it.
 */
export function DistributionChart({ summary, f }: { summary: GlucoseSummary; f: ReportFormat }) {
  const { t } = useLingui();
  const names: Record<BandKey, string> = {
    veryLow: t`Very low`,
    low: t`Low`,
    inRange: t`In range`,
    high: t`High`,
    veryHigh: t`Very high`,
  };
  const top = [...BAND_ORDER].reverse();
  return (
    <section className="card report-chart" aria-labelledby="report-distribution-title">
      <h2 id="report-distribution-title">
        <Trans>Readings in ranges</Trans>
      </h2>
      <p className="field-hint">
        <Trans>
          Shares of your fingerstick readings, not of the time: the consensus' time in range is measured by continuous monitors, and readings cluster around
          meals.
        </Trans>
      </p>
      {summary.count === 0 ? (
        <p className="muted">
          <Trans>No readings in this period.</Trans>
        </p>
      ) : (
        <>
          {/* Lowest on the start side, as in the PDF; the table lists the highest first, as the consensus charts do. */}
          <div className="report-stack" aria-hidden>
            {BAND_ORDER.map((band) => {
              const share = summary.bands[band].percent ?? 0;
              return share > 0 ? <span key={band} style={{ flexGrow: share, background: BAND_COLOURS[band] }} /> : null;
            })}
          </div>
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="report-distribution-title">
            <table className="report-table report-bands">
              <caption className="visually-hidden">
                <Trans>Readings in each glucose range ({{ unit: f.unit }})</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Range</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Share</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Readings</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {top.map((band) => {
                  const { count, percent } = summary.bands[band];
                  return (
                    <tr key={band} data-band={band}>
                      <th scope="row">
                        <span className="report-swatch" style={{ background: BAND_COLOURS[band] }} aria-hidden /> {names[band]}
                        <span className="report-when">
                          {/* A comparison like "< 54" reads left to right in every language. */}
                          <span dir="ltr">{bandEdges(band, f.unit, f.locale)}</span> {f.unit}
                        </span>
                      </th>
                      <td>
                        <span className="report-bar" aria-hidden>
                          <span style={{ inlineSize: `${percent ?? 0}%`, background: BAND_COLOURS[band] }} />
                        </span>
                        {f.share(percent)}
                      </td>
                      <td>{f.whole(count)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className="field-hint">
            <Trans>
              Consensus goals: more than 70% in range; less than 4% below {{ low: f.edge(f.edges.low) }} and less than 1% below{' '}
              {{ veryLow: f.edge(f.edges.veryLow) }}; less than 25% above {{ high: f.edge(f.edges.high) }} and less than 5% above{' '}
              {{ veryHigh: f.edge(f.edges.veryHigh) }}.
            </Trans>
          </p>
        </>
      )}
    </section>
  );
}
