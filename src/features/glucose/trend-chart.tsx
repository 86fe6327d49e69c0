import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, useState } from 'react';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { useClock } from '../../lib/clock.tsx';
import { localDateKey } from '../../lib/dates.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { bandOf, CONSENSUS } from '../../../schemas/judgement.ts';
import { shareText } from '../../../report/format.ts';
import { loadTrendCanvas, TrendCanvasLoader } from './trend-canvas-loader.tsx';
import { GLUCOSE_TYPES, type GlucoseType } from './units.ts';
import { useNow } from '../../lib/use-now.ts';

// The chart's code (uPlot) is fetched as soon as a page that shows the trend loads, beside the
// readings it draws, not once they have arrived and rendered (bench: dashboard10kListsMs).
void loadTrendCanvas().catch(() => undefined);

export const TREND_PERIODS = [7, 14, 30, 90] as const;
/** The period the dashboard's trend opens on; the dashboard reads these days first. */
export const DEFAULT_TREND_DAYS = 14;
const DAY = 86_400_000;

/** A period given by the page instead of the chart's own choice (the staff review's one period). */
export interface TrendPeriod {
  from: number;
  to: number;
  /** How the period reads: "Oct 30 – Nov 28, 2026". */
  label: string;
}

/**
 * Readings over the last 7/14/30/90 days against the target band, as a chart or as a table; or over
 * `period` when the page sets it (then the chart offers no choice of its own, issue 16).
 * `completeFrom`: `readings` hold every reading from this instant on and may lack older ones (the
 * dashboard reads its first days first); a period that starts earlier waits for them rather than
 * count and draw part of it.
 */
export function TrendChart({
  readings,
  period,
  completeFrom,
}: {
  readings: GlucoseReading[];
  period?: TrendPeriod | undefined;
  completeFrom?: number | undefined;
}) {
  const { t, i18n } = useLingui();
  const unit = useGlucoseUnit();
  const [days, setDays] = useState<(typeof TREND_PERIODS)[number]>(DEFAULT_TREND_DAYS);
  const [asTable, setAsTable] = useState(false);
  const groupName = useId();
  const labels: Record<GlucoseType, string> = useMemo(() => ({ Fasting: t`Fasting`, Postprandial: t`Postprandial`, Random: t`Random` }), [t]);
  const now = useNow();
  const to = period?.to ?? now;
  const from = period?.from ?? to - days * DAY;
  // The dashboard's own periods run up to now with no upper bound (a device clock behind the
  // reading's must not hide it); a period the page sets ends where it says.
  const end = period?.to;
  const loading = completeFrom !== undefined && from < completeFrom;
  const inPeriod = useMemo(
    () => readings.filter((r) => Date.parse(r.recordedAt) >= from && (end === undefined || Date.parse(r.recordedAt) <= end)),
    [readings, from, end],
  );
  const inRange = inPeriod.filter((r) => bandOf(r, unit) === 'inRange').length;
  // The share as every report prints it (never "0 %" for some, never "100 %" for not all).
  const percent = shareText(inPeriod.length ? (inRange / inPeriod.length) * 100 : null, i18n.locale, (d, values) =>
    i18n._({ ...d, ...(values ? { values } : {}) }),
  );
  const low = formatGlucose(CONSENSUS.low, unit, i18n.locale);
  const high = formatGlucose(CONSENSUS.high, unit, i18n.locale);
  // Numbers in the locale's own way (grouping, digits); the message keeps its placeholders' names.
  const count = new Intl.NumberFormat(i18n.locale).format(inPeriod.length);
  const label = period?.label;
  const summary = loading
    ? t`Loading your readings…`
    : label
      ? inPeriod.length
        ? t`${count} readings, ${label}; ${percent} in range (${low}–${high} ${unit}).`
        : t`No readings, ${label}.`
      : inPeriod.length
        ? t`${count} readings in the last ${days} days; ${percent} in range (${low}–${high} ${unit}).`
        : t`No readings in the last ${days} days.`;

  return (
    <section className="card trend" aria-labelledby="trend-title">
      <div className="section-head">
        <h2 id="trend-title">
          <Trans>Trend</Trans>
        </h2>
        {!period && (
          <fieldset className="segmented">
            <legend className="visually-hidden">
              <Trans>Period</Trans>
            </legend>
            {TREND_PERIODS.map((d) => (
              <label key={d}>
                <input type="radio" name={groupName} checked={days === d} onChange={() => setDays(d)} />
                <span>
                  <Trans>{d} days</Trans>
                </span>
              </label>
            ))}
          </fieldset>
        )}
      </div>
      <p className="trend-summary" role={loading ? 'status' : undefined}>
        {summary}
      </p>
      {!loading && inPeriod.length > 0 && !asTable && (
        <>
          <TrendCanvasLoader readings={inPeriod} from={from} to={to} unit={unit} locale={i18n.locale} labels={labels} />
          <p className="field-hint">
            <Trans>
              The shaded band is the range, {low}–{high} {unit}.
            </Trans>
          </p>
        </>
      )}
      {!loading && inPeriod.length > 0 && asTable && <TrendTable readings={inPeriod} labels={labels} />}
      {!loading && inPeriod.length > 0 && (
        <button type="button" className="button button--secondary button--small" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? <Trans>Show as chart</Trans> : <Trans>Show as table</Trans>}
        </button>
      )}
    </section>
  );
}

function TrendTable({ readings, labels }: { readings: GlucoseReading[]; labels: Record<GlucoseType, string> }) {
  const { t, i18n } = useLingui();
  const unit = useGlucoseUnit();
  const byDay = new Map<string, GlucoseReading[]>();
  for (const r of [...readings].sort((a, b) => b.recordedAt.localeCompare(a.recordedAt))) {
    const key = localDateKey(new Date(r.recordedAt));
    byDay.set(key, [...(byDay.get(key) ?? []), r]);
  }
  const dayFmt = new Intl.DateTimeFormat(i18n.locale, { weekday: 'short', day: 'numeric', month: 'short' });
  const timeFmt = useClock().time;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t`Readings by day`}>
      <table className="trend-table">
        <caption className="visually-hidden">
          <Trans>Readings by day ({unit})</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Day</Trans>
            </th>
            {GLUCOSE_TYPES.map((type) => (
              <th key={type} scope="col">
                {labels[type]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...byDay].map(([day, list]) => (
            <tr key={day}>
              <th scope="row">{dayFmt.format(new Date(`${day}T12:00:00`))}</th>
              {GLUCOSE_TYPES.map((type) => (
                <td key={type}>
                  {list
                    .filter((r) => r.type === type)
                    .map((r) => `${formatGlucose(r, unit, i18n.locale)} (${timeFmt.format(r.recordedAt, r.utcOffsetMinutes)})`)
                    .join(', ')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
