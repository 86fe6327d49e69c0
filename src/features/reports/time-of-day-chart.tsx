import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState } from 'react';
import { shownGlucose, toUnit } from '../../../schemas/glucose-units.ts';
import { GLUCOSE_TYPES, type GlucoseType } from '../../../schemas/glucose.ts';
import type { ReportModel } from '../../../report/types.ts';
import { TYPE_COLOURS } from './bands.ts';
import { MIN_PROFILE_READINGS, PROFILE_BAND_HOURS, timeOfDayProfile } from '../../../report/statistics.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

const HEIGHT = 240;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };
/** The consensus range ("in range"), mg/dL, shaded behind the readings. */
const TARGET = { low: 70, high: 180 } as const;

/** The element's width, kept current, so the SVG is drawn at real pixels (text stays readable). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Every reading of the period placed by its clock time, over the target band, and a table by 3-hour block. */
export function TimeOfDayChart({ model, f, labels }: { model: ReportModel; f: ReportFormat; labels: Record<GlucoseType, string> }) {
  const { t } = useLingui();
  const points = model.readings;
  // The daily profile of the statistics module, the same as the PDF's (issue 16).
  const blocks = useMemo(() => timeOfDayProfile(points), [points]);
  const { ref, width } = useWidth();
  const hourFmt = useMemo(() => new Intl.DateTimeFormat(f.locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }), [f.locale]);
  const clock = (hour: number) => hourFmt.format(Date.UTC(2000, 0, 1, hour));

  const yMax = Math.max(toUnit(300, f.unit), ...points.map((p) => shownGlucose(p, f.unit).value)) * 1.05;
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (hour: number) => PAD.left + (hour / 24) * plotW;
  const y = (display: number) => PAD.top + plotH - (display / yMax) * plotH;
  const step = f.unit === 'mmol/L' ? 5 : 100;
  const yTicks = Array.from({ length: Math.floor(yMax / step) + 1 }, (_, i) => i * step);
  const busiest = blocks.reduce(
    (a, b) => (b.count > a.count ? b : a),
    blocks[0] ?? { start: 0, end: PROFILE_BAND_HOURS, count: 0, median: null, q1: null, q3: null, min: null, max: null },
  );
  const summary =
    points.length === 0
      ? t`No readings in this period.`
      : t`${{ count: points.length }} readings by time of day; most between ${{ from: clock(busiest.start) }} and ${{ to: clock((busiest.start + PROFILE_BAND_HOURS) % 24) }}.`;

  return (
    <section className="card report-chart" aria-labelledby="report-tod-title">
      <h2 id="report-tod-title">
        <Trans>Readings by time of day</Trans>
      </h2>
      <p className="trend-summary">{summary}</p>
      {points.length > 0 && (
        <>
          <div ref={ref} className="report-svg-host">
            {width > 0 && (
              <svg width={width} height={HEIGHT} role="img" aria-label={summary} className="report-svg">
                <rect
                  x={PAD.left}
                  width={plotW}
                  y={y(toUnit(TARGET.high, f.unit))}
                  height={y(toUnit(TARGET.low, f.unit)) - y(toUnit(TARGET.high, f.unit))}
                  fill="rgba(0, 155, 126, 0.12)"
                />
                {yTicks.map((v) => (
                  <g key={v}>
                    <line x1={PAD.left} x2={PAD.left + plotW} y1={y(v)} y2={y(v)} stroke="#eef2f1" />
                    <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="report-axis">
                      {f.decimal(v)}
                    </text>
                  </g>
                ))}
                {Array.from({ length: 24 / PROFILE_BAND_HOURS + 1 }, (_, i) => i * PROFILE_BAND_HOURS).map((h) => (
                  <g key={h}>
                    <line x1={x(h)} x2={x(h)} y1={PAD.top} y2={PAD.top + plotH} stroke="#eef2f1" />
                    {(h % 6 === 0 || plotW > 420) && (
                      <text x={x(h)} y={HEIGHT - 8} textAnchor={h === 0 ? 'start' : h === 24 ? 'end' : 'middle'} className="report-axis">
                        {clock(h % 24)}
                      </text>
                    )}
                  </g>
                ))}
                {points.map((p) => (
                  <circle key={p.id} cx={x(p.minutes / 60)} cy={y(shownGlucose(p, f.unit).value)} r={3.5} fill={TYPE_COLOURS[p.type]} fillOpacity={0.75} />
                ))}
                {blocks.map((b) =>
                  b.median === null || b.q1 === null || b.q3 === null ? (
                    b.count > 0 && (
                      <text
                        key={b.start}
                        x={(x(b.start) + x(b.end)) / 2}
                        y={PAD.top + 12}
                        textAnchor="middle"
                        className="report-axis"
                        data-testid="profile-too-few"
                      >
                        n {b.count}
                      </text>
                    )
                  ) : (
                    <g key={b.start} data-testid="profile-band">
                      <rect
                        x={x(b.start) + 3}
                        width={Math.max(0, x(b.end) - x(b.start) - 6)}
                        y={y(toUnit(b.q3, f.unit))}
                        height={Math.max(1, y(toUnit(b.q1, f.unit)) - y(toUnit(b.q3, f.unit)))}
                        fill="rgba(30, 42, 47, 0.16)"
                      />
                      <line
                        x1={x(b.start) + 3}
                        x2={x(b.end) - 3}
                        y1={y(toUnit(b.median, f.unit))}
                        y2={y(toUnit(b.median, f.unit))}
                        stroke="#1d2a2f"
                        strokeWidth={3}
                        strokeLinecap="round"
                      />
                    </g>
                  ),
                )}
              </svg>
            )}
          </div>
          <ul className="report-legend" aria-hidden>
            {GLUCOSE_TYPES.map((type) => (
              <li key={type}>
                <span className="report-swatch report-swatch--round" style={{ background: TYPE_COLOURS[type] }} /> {labels[type]}
              </li>
            ))}
            <li>
              <span className="report-swatch report-swatch--band" />{' '}
              <Trans>
                In range {{ low: f.edge(f.edges.low) }}–{{ high: f.edge(f.edges.high) }} {{ unit: f.unit }}
              </Trans>
            </li>
          </ul>
          <p className="field-hint">
            <Trans>
              Daily profile: for each 3-hour band with at least {MIN_PROFILE_READINGS} readings, the grey box holds the middle half of them (25th to 75th
              percentile) and the bar is their median; “n 2” marks a band with too few readings to say. Fingerstick readings show the times you measured, not
              your glucose in between.
            </Trans>
          </p>
          <details className="report-details">
            <summary>
              <Trans>Show as table</Trans>
            </summary>
            <div className="table-scroll" tabIndex={0} role="region" aria-label={t`Readings by time of day`}>
              <table className="report-table">
                <caption className="visually-hidden">
                  <Trans>Readings by time of day ({{ unit: f.unit }})</Trans>
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Time</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Readings</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Median</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Middle half</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Lowest</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Highest</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {blocks.map((b) => (
                    <tr key={b.start}>
                      <th scope="row">
                        {clock(b.start)}–{clock((b.start + PROFILE_BAND_HOURS) % 24)}
                      </th>
                      <td>{f.whole(b.count)}</td>
                      {b.median === null || b.q1 === null || b.q3 === null ? (
                        <td colSpan={2}>{b.count > 0 ? <Trans>too few readings</Trans> : '–'}</td>
                      ) : (
                        <>
                          <td>{f.glucose(b.median)}</td>
                          <td>
                            {f.glucose(b.q1)}–{f.glucose(b.q3)}
                          </td>
                        </>
                      )}
                      <td>{b.min === null ? '–' : f.glucose(b.min)}</td>
                      <td>{b.max === null ? '–' : f.glucose(b.max)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
