// One test: its latest value first, the trend of all its values, then every result to change or delete.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { shownLabUnit, withLabUnit } from '../../../schemas/lab-unit-text.ts';
import { labSeriesDecimals, labValue } from '../../../report/statistics.ts';
import { Icon } from '../../components/icon.tsx';
import { trendSpan, type TestGroup } from './lab-rules.ts';
import { LabSparkline } from './lab-sparkline.tsx';

export interface LabTestActions {
  onEdit: (test: LabTest) => void;
  onDelete: (test: LabTest) => void;
}

export function LabTestCard({ group, onEdit, onDelete }: { group: TestGroup } & LabTestActions) {
  const { t, i18n } = useLingui();
  const id = useId();
  const { name, results } = group;
  // Every result of the test with the same decimals, as given, up to 3: "7.0 %" beside "7.1 %".
  const digits = labSeriesDecimals(results.map((r) => r.value));
  const numberFormat = new Intl.NumberFormat(i18n.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const shown = (v: number) => numberFormat.format(labValue(v));
  const dateFormat = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium' });
  const withUnit = (r: LabTest) => withLabUnit(shown(r.value), r.unit);
  const latest = results[0];
  const oldest = results.at(-1);
  if (!latest || !oldest) return null;
  const latestDate = dateFormat.format(new Date(latest.recordedAt));

  let summary: string | undefined;
  if (results.length > 1) {
    const first = withUnit(oldest);
    const last = withUnit(latest);
    const s = trendSpan(new Date(oldest.recordedAt), new Date(latest.recordedAt));
    const span = new Intl.NumberFormat(i18n.locale, { style: 'unit', unit: s.unit, unitDisplay: 'long' }).format(s.count);
    summary = t`${name}: ${first} → ${last} over ${span}`;
  }

  return (
    <article className="card lab-card" aria-labelledby={`${id}-name`}>
      <h3 id={`${id}-name`} className="lab-card-title">
        {name}
      </h3>
      <div className="lab-card-head">
        <p className="lab-latest">
          <span className="lab-latest-label">
            <Trans>Latest</Trans>
          </span>
          <span className="lab-latest-value">
            <strong>{shown(latest.value)}</strong>
            {latest.unit && <span className="lab-latest-unit"> {shownLabUnit(latest.unit)}</span>}
          </span>
          <time className="muted" dateTime={latest.recordedAt}>
            {latestDate}
          </time>
        </p>
        {summary && <LabSparkline results={results} labelledBy={`${id}-trend`} />}
      </div>
      {summary ? (
        <p id={`${id}-trend`} className="lab-trend muted">
          {summary}
        </p>
      ) : (
        <p className="lab-trend muted">
          <Trans>Add your next result of this test to see its trend.</Trans>
        </p>
      )}
      <ul className="list lab-results">
        {results.map((r) => {
          const value = withUnit(r);
          const date = dateFormat.format(new Date(r.recordedAt));
          return (
            <li key={r._id}>
              <span className="list-main">
                <span className="lab-result-value">{value}</span>
                <time className="muted" dateTime={r.recordedAt}>
                  {date}
                </time>
              </span>
              <div className="row-actions">
                <button type="button" className="icon-button" aria-label={t`Change ${name} result of ${date}`} onClick={() => onEdit(r)}>
                  <Icon icon="mdi:pencil" />
                </button>
                <button type="button" className="icon-button icon-button--danger" aria-label={t`Delete ${name} result of ${date}`} onClick={() => onDelete(r)}>
                  <Icon icon="mdi:delete" />
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </article>
  );
}
