import { Trans } from '@lingui/react/macro';
import { withLabUnit } from '../../../schemas/lab-unit-text.ts';
import { labSeriesDecimals, labValue } from '../../../report/statistics.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { useFormat } from './format.ts';
import { NewTag } from './new-since-open.tsx';
import { labSeries } from './summaries.ts';
import type { ReviewLabTest } from './types.ts';

export function LabsCard({ tests }: { tests: ReviewLabTest[] }) {
  const f = useFormat();
  const series = labSeries(tests, f.locale);
  // Latest and previous with the same decimals, as given, up to 3 (labSeriesDecimals): "7.0 %"
  // beside "7.1 %", and a creatinine of 0.745 not cut to 0.75.
  const result = (r: ReviewLabTest, digits: number) =>
    withLabUnit(new Intl.NumberFormat(f.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(labValue(r.value)), r.unit);
  return (
    <section className="card" aria-labelledby="review-labs">
      <h2 id="review-labs">
        <Trans>Lab tests</Trans>
      </h2>
      {series.length === 0 ? (
        <EmptyState icon="mdi:file-chart">
          <Trans>No lab results. The patient adds them in the app under Lab tests.</Trans>
        </EmptyState>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="review-labs">
          <table className="review-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Test</Trans>
                </th>
                <th scope="col">
                  <Trans>Latest (any date)</Trans>
                </th>
                <th scope="col">
                  <Trans>Previous</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {series.map(({ name, latest, previous }) => (
                <tr key={name}>
                  <th scope="row">
                    {name} <NewTag ids={[latest._id, ...(previous ? [previous._id] : [])]} />
                  </th>
                  <td>
                    {result(latest, labSeriesDecimals([latest.value, previous?.value]))} <span className="muted">({f.date(latest.recordedAt)})</span>
                  </td>
                  <td>
                    {previous ? (
                      <>
                        {result(previous, labSeriesDecimals([latest.value, previous.value]))} <span className="muted">({f.date(previous.recordedAt)})</span>
                      </>
                    ) : (
                      '–'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
