import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { useFormat } from './format.ts';
import { NewTag } from './new-since-open.tsx';
import type { ReviewGlucose } from './types.ts';

const PAGE = 20;

function ReadingTable({ id, title, readings }: { id: string; title: string; readings: GlucoseReading[] }) {
  const f = useFormat();
  const unit = useGlucoseUnit();
  const [shown, setShown] = useState(PAGE);
  const sorted = [...readings].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
  const total = sorted.length;
  const visible = Math.min(shown, total);
  return (
    <div className="review-readings">
      <h3 id={id}>{title}</h3>
      {total === 0 ? (
        <EmptyState icon="mdi:chart-line">
          <Trans>No readings of this type. Ask the patient to record them in the app.</Trans>
        </EmptyState>
      ) : (
        <>
          <table className="review-table" aria-labelledby={id}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Time</Trans>
                </th>
                <th scope="col">
                  <Trans>Value ({unit})</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.slice(0, visible).map((r) => (
                <tr key={r._id}>
                  <td>{f.dateTime(r.recordedAt)}</td>
                  <td>
                    {formatGlucose(r, unit, f.locale)} <NewTag ids={[r._id]} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">
            <Trans>
              Showing {visible} of {total}
            </Trans>
          </p>
          {visible < total && (
            <button type="button" className="button button--secondary button--small" onClick={() => setShown((n) => n + PAGE)}>
              <Trans>Show more</Trans>
            </button>
          )}
        </>
      )}
    </div>
  );
}

/** The three lists, newest first, 20 at a time. */
export function GlucoseTables({ glucose, period }: { glucose: ReviewGlucose; period?: string | undefined }) {
  const { t } = useLingui();
  return (
    <section className="card" aria-labelledby="review-readings">
      <h2 id="review-readings">{period ? <Trans>Readings, {period}</Trans> : <Trans>Readings</Trans>}</h2>
      <div className="review-columns">
        <ReadingTable id="review-fasting" title={t`Fasting`} readings={glucose.fasting} />
        <ReadingTable id="review-postprandial" title={t`Postprandial`} readings={glucose.postprandial} />
        <ReadingTable id="review-random" title={t`Random`} readings={glucose.random} />
      </div>
    </section>
  );
}
