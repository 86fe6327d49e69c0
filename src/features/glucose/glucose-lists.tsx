import { Trans, useLingui } from '@lingui/react/macro';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { GLUCOSE_TYPES, type GlucoseType } from './units.ts';

/** The three lists by type (spec §3), newest first. */
export function GlucoseLists({ readings }: { readings: GlucoseReading[] | undefined }) {
  const { t, i18n } = useLingui();
  const heading: Record<GlucoseType, string> = { Fasting: t`Fasting`, Postprandial: t`Postprandial`, Random: t`Random` };
  const when = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 });
  if (!readings) {
    return (
      <p className="card" role="status">
        <Trans>Loading your readings…</Trans>
      </p>
    );
  }
  return (
    <div className="glucose-lists">
      {GLUCOSE_TYPES.map((type) => {
        const list = readings.filter((r) => r.type === type);
        return (
          <section key={type} className="card" aria-labelledby={`glucose-${type}`} data-testid={`glucose-list-${type}`}>
            <h2 id={`glucose-${type}`}>{heading[type]}</h2>
            {list.length === 0 ? (
              <p>
                <Trans>No readings yet.</Trans>
              </p>
            ) : (
              <ul className="reading-list">
                {list.map((r) => (
                  <li key={r._id}>
                    <strong>{number.format(r.value)}</strong> <Trans>mg/dL</Trans>
                    <span className="muted"> · {when.format(new Date(r.recordedAt))}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
