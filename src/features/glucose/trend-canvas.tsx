// The trend chart itself, loaded only when the dashboard shows it (docs/requirements.md §11: charts load after
// login). uPlot draws thousands of points on a canvas in a few milliseconds; the surrounding
// component gives screen readers a summary and a table instead.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { toDisplay, type GlucoseUnit } from '../../lib/units.ts';
import { CONSENSUS, shownGlucose } from '../../../schemas/report/judgement.ts';
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

export default function TrendCanvas({ readings, from, to, unit, locale, labels }: TrendCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const low = toDisplay(CONSENSUS.low, unit);
    const high = toDisplay(CONSENSUS.high, unit);
    const max = Math.max(toDisplay(300, unit), ...readings.map((r) => shownGlucose(r, unit).value));
    const dateFmt = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
    const numFmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const opts: uPlot.Options = {
      width: el.clientWidth || 320,
      height: 240,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true, range: [from / 1000, to / 1000] }, y: { range: [0, max * 1.05] } },
      axes: [
        { values: (_u, splits) => splits.map((s) => dateFmt.format(s * 1000)), stroke: '#5b6b70', grid: { stroke: '#eef2f1' } },
        { values: (_u, splits) => splits.map((s) => numFmt.format(s)), stroke: '#5b6b70', grid: { stroke: '#eef2f1' }, size: 48 },
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
    const plot = new uPlot(opts, toData(readings, unit), el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [readings, from, to, unit, locale, labels]);
  return <div ref={host} className="trend-canvas" aria-hidden />;
}
