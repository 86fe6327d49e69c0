// The trend chart itself, loaded only when the dashboard shows it (docs/requirements.md §11: charts load after
// login). uPlot draws thousands of points on a canvas in a few milliseconds; the surrounding
// component gives screen readers a summary and a table instead.
import { useEffect, useRef } from 'react';
import { inBackground } from '../../../sync/background.ts';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type GlucoseUnit, shownGlucose, toUnit } from '../../../schemas/glucose-units.ts';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { CONSENSUS } from '../../../schemas/judgement.ts';
import { GLUCOSE_TYPES } from './units.ts';

export const TYPE_COLOURS = { Fasting: '#00695c', Postprandial: '#c2410c', Random: '#4338ca' } as const;

export interface TrendCanvasProps {
  readings: GlucoseReading[];
  from: number;
  to: number;
  unit: GlucoseUnit;
  locale: string;
  labels: Record<(typeof GLUCOSE_TYPES)[number], string>;
}

/** One x value per reading; each type's series has the value where the reading is of that type. */
function toData(readings: GlucoseReading[], unit: GlucoseUnit): uPlot.AlignedData {
  const sorted = [...readings].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
  const xs = sorted.map((r) => Date.parse(r.recordedAt) / 1000);
  const series = GLUCOSE_TYPES.map((type) => sorted.map((r) => (r.type === type ? shownGlucose(r, unit).value : null)));
  return [xs, ...series];
}

/** uPlot's own axis font family list. */
const AXIS_FAMILIES = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif';

/**
 * The axes' font. A canvas draws only with fonts it is given by name and that are loaded; the page's
 * :lang(hi) rule (styles.css) does not reach it, so Hindi month names came out as boxes on a device
 * without a Devanagari font of its own (issue 50): for Hindi the app's Noto Sans Devanagari comes first.
 */
export function axisFont(locale: string): string {
  return locale.split('-')[0] === 'hi' ? `12px "Noto Sans Devanagari", ${AXIS_FAMILIES}` : `12px ${AXIS_FAMILIES}`;
}

/** How long the chart waits for its font before it draws with what there is. */
const FONT_WAIT_MS = 1500;

/** Resolves once the axes' font can draw `sample` (or after FONT_WAIT_MS, or at once where nothing is to load). */
function fontReady(font: string, sample: string): Promise<unknown> {
  if (!/Devanagari/.test(font) || typeof document === 'undefined' || !('fonts' in document)) return Promise.resolve();
  return Promise.race([document.fonts.load(font, sample).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

export default function TrendCanvas({ readings, from, to, unit, locale, labels }: TrendCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const low = toUnit(CONSENSUS.low, unit);
    const high = toUnit(CONSENSUS.high, unit);
    const max = Math.max(toUnit(300, unit), ...readings.map((r) => shownGlucose(r, unit).value));
    const dateFmt = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
    const numFmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const font = axisFont(locale);
    const opts: uPlot.Options = {
      width: el.clientWidth || 320,
      height: 240,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true, range: [from / 1000, to / 1000] }, y: { range: [0, max * 1.05] } },
      axes: [
        { values: (_u, splits) => splits.map((s) => dateFmt.format(s * 1000)), stroke: '#5b6b70', grid: { stroke: '#eef2f1' }, font, labelFont: font },
        { values: (_u, splits) => splits.map((s) => numFmt.format(s)), stroke: '#5b6b70', grid: { stroke: '#eef2f1' }, size: 48, font, labelFont: font },
      ],
      series: [
        {},
        ...GLUCOSE_TYPES.map((type) => ({
          label: labels[type],
          stroke: TYPE_COLOURS[type],
          width: 1.5,
          spanGaps: true,
          points: { show: true, size: 6, fill: TYPE_COLOURS[type] },
        })),
      ],
      hooks: {
        // The target band (70–180 mg/dL) behind the readings.
        drawClear: [
          (u) => {
            const top = u.valToPos(high, 'y', true);
            const bottom = u.valToPos(low, 'y', true);
            u.ctx.save();
            u.ctx.fillStyle = 'rgba(0, 155, 126, 0.12)';
            u.ctx.fillRect(u.bbox.left, top, u.bbox.width, bottom - top);
            u.ctx.restore();
          },
        ],
      },
    };
    let plot: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let live = true;
    const draw = () => {
      if (!live) return;
      const drawn = new uPlot(opts, toData(readings, unit), el);
      resize = new ResizeObserver(() => drawn.setSize({ width: el.clientWidth, height: 240 }));
      resize.observe(el);
      plot = drawn;
    };
    // The month names of the period's two ends: the glyphs the axis will need.
    inBackground(fontReady(font, `${dateFmt.format(from)} ${dateFmt.format(to)}`).then(draw), 'Drawing the trend failed');
    return () => {
      live = false;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [readings, from, to, unit, locale, labels]);
  return <div ref={host} className="trend-canvas" data-axis-font={axisFont(locale)} aria-hidden />;
}
