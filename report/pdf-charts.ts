// The report's charts as vector graphics: pdfmake canvas shapes, with axis labels as text nodes
// placed over them (relativePosition, so they take no room of their own). Canvas has no text and
// SVG text would need the font files on disk in Node, so shapes and words are kept apart.
// Meal tags differ by shape as well as colour, so the charts read in black and white too.
import type { CanvasElement, Content, ContentCanvas } from './pdf-doc.ts';
import { formatGlucose, type GlucoseUnit, plottedMgDl } from '../schemas/glucose-units.ts';
import type { GlucoseType } from '../schemas/glucose.ts';
import { leftToRightGeometry } from './pdf-localize.ts';
import { BANDS, CONSENSUS, type Band } from '../schemas/judgement.ts';
import { timeOfDayProfile } from './statistics.ts';
import type { ReportModel, ReportReading } from './types.ts';

export const BAND_COLORS = {
  veryLow: '#8e1b1b',
  low: '#e53935',
  inRange: '#43a047',
  high: '#f9c22e',
  veryHigh: '#ef6c00',
} as const satisfies Record<Band, string>;

/** Band colours for text on white (the bar's amber is too light to read as text). */
export const BAND_TEXT_COLORS = { ...BAND_COLORS, inRange: '#222222', high: '#a86400' } as const satisfies Record<Band, string>;

export const TYPE_COLORS = { Fasting: '#1e63b5', Postprandial: '#8e24aa', Random: '#4d4d4d' } as const satisfies Record<GlucoseType, string>;
const TARGET_FILL = '#e3f2e5';
const GRID = '#c9c9c9';
const LABEL_SIZE = 6.5;
const Y_LABEL_W = 26;

export interface ChartOptions {
  unit: GlucoseUnit;
  locale: string;
  width: number;
  height: number;
}

/** A word placed at (x, y) of the chart, in a box of width `w` aligned as asked. */
function label(text: string, x: number, y: number, w: number, alignment: 'left' | 'center' | 'right'): Content {
  return { relativePosition: { x, y }, columns: [{ width: w, text, alignment, fontSize: LABEL_SIZE, color: '#555555' }] };
}

/** The marker of a reading: circle (fasting), triangle (after a meal), square (random). */
export function marker(type: GlucoseType, x: number, y: number, size = 2): CanvasElement {
  const color = TYPE_COLORS[type];
  if (type === 'Fasting') return { type: 'ellipse', x, y, r1: size, r2: size, color, lineColor: color, lineWidth: 0.3 };
  if (type === 'Postprandial') {
    const s = size * 1.25;
    return {
      type: 'polyline',
      points: [
        { x, y: y - s },
        { x: x + s, y: y + s * 0.8 },
        { x: x - s, y: y + s * 0.8 },
      ],
      closePath: true,
      color,
      lineColor: color,
      lineWidth: 0.3,
    };
  }
  return { type: 'rect', x: x - size * 0.9, y: y - size * 0.9, w: size * 1.8, h: size * 1.8, color, lineColor: color, lineWidth: 0.3 };
}

/** Upper end of the glucose axis in mg/dL: 300, or the highest reading rounded up to 50 (at most 600). */
export function yMaxMgDl(readings: readonly Pick<ReportReading, 'value'>[]): number {
  const max = readings.reduce((m, r) => Math.max(m, r.value), 0);
  return Math.min(600, Math.max(300, Math.ceil(max / 50) * 50));
}

interface Plot {
  x0: number;
  y0: number;
  w: number;
  h: number;
  yMax: number;
  y: (mgdl: number) => number;
}

function plotArea(o: ChartOptions, yMax: number): Plot {
  const x0 = Y_LABEL_W + 4;
  const y0 = 4;
  const w = o.width - x0 - 4;
  const h = o.height - y0 - 14;
  return { x0, y0, w, h, yMax, y: (v) => y0 + h - (Math.min(v, yMax) / yMax) * h };
}

/** Target band, threshold lines, frame and glucose axis labels shared by both glucose charts. */
function glucoseFrame(p: Plot, o: ChartOptions): { shapes: CanvasElement[]; labels: Content[] } {
  const shapes: CanvasElement[] = [
    // Invisible, the chart's full size: the axis labels under the plot are inside the canvas's height.
    { type: 'rect', x: 0, y: 0, w: o.width, h: o.height, color: '#ffffff', fillOpacity: 0 },
    { type: 'rect', x: p.x0, y: p.y(CONSENSUS.high), w: p.w, h: p.y(CONSENSUS.low) - p.y(CONSENSUS.high), color: TARGET_FILL },
  ];
  const labels: Content[] = [];
  for (const v of [CONSENSUS.veryLow, CONSENSUS.low, CONSENSUS.high, CONSENSUS.veryHigh, p.yMax]) {
    const dashed = v === CONSENSUS.veryLow || v === CONSENSUS.veryHigh;
    const color = dashed ? (v === CONSENSUS.veryLow ? BAND_COLORS.veryLow : BAND_COLORS.veryHigh) : GRID;
    shapes.push({
      type: 'line',
      x1: p.x0,
      y1: p.y(v),
      x2: p.x0 + p.w,
      y2: p.y(v),
      lineWidth: 0.5,
      lineColor: color,
      ...(dashed ? { dash: { length: 2, space: 2 } } : {}),
    });
    // 54 sits just under 70: its label goes below the line so the two never overlap.
    const dy = v === CONSENSUS.veryLow ? 0.5 : -LABEL_SIZE / 2 - 1;
    labels.push(label(formatGlucose(v, o.unit, o.locale), 0, p.y(v) + dy, Y_LABEL_W, 'right'));
  }
  shapes.push({ type: 'rect', x: p.x0, y: p.y0, w: p.w, h: p.h, lineWidth: 0.6, lineColor: '#888888' });
  return { shapes, labels };
}

const dayIndex = (from: string, date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Glucose over the range: every reading at its local date and time, over the 70–180 band. */
export function trendChart(model: ReportModel, o: ChartOptions): Content {
  const p = plotArea(o, yMaxMgDl(model.readings));
  const { shapes, labels } = glucoseFrame(p, o);
  const days = Math.max(1, model.days);
  const dw = p.w / days;
  const step = [1, 2, 7, 14, 30, 61].find((s) => days / s <= 10) ?? 92;
  const dateFmt = new Intl.DateTimeFormat(o.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  for (let d = 0; d <= days; d++) {
    if (d > 0 && d < days)
      shapes.push({
        type: 'line',
        x1: p.x0 + d * dw,
        y1: p.y0 + p.h,
        x2: p.x0 + d * dw,
        y2: p.y0 + p.h + (d % step === 0 ? 3 : 1.5),
        lineWidth: 0.4,
        lineColor: '#888888',
      });
    if (d % step === 0 && d < days) {
      const date = new Date(Date.parse(`${model.input.range.from}T00:00:00Z`) + d * 86_400_000);
      // Centred under the day's middle when days are wide, else under its start.
      const cx = p.x0 + d * dw + (step === 1 ? dw / 2 : 0);
      labels.push(label(dateFmt.format(date), cx - 30, p.y0 + p.h + 3.5, 60, 'center'));
    }
  }
  for (const r of model.readings) {
    const x = p.x0 + (dayIndex(model.input.range.from, r.date) + r.minutes / 1440) * dw;
    shapes.push(marker(r.type, x, p.y(plottedMgDl(r, model.unit)), days > 120 ? 1.3 : 1.8));
  }
  // Time runs left to right in every language; a right-to-left report mirrors everything else.
  return leftToRightGeometry({ stack: [...labels, { canvas: shapes }], unbreakable: true });
}

/**
 * All readings laid over one day (local time), with the daily profile of the statistics module: per
 * 3-hour band with enough readings, the middle half as a grey box and the median as a bar; a band
 * with too few readings shows its count ("n 2") instead, never an interpolated line.
 */
export function timeOfDayChart(model: ReportModel, o: ChartOptions): Content {
  const p = plotArea(o, yMaxMgDl(model.readings));
  const { shapes, labels } = glucoseFrame(p, o);
  const hw = p.w / 24;
  const timeFmt = new Intl.DateTimeFormat(o.locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
  for (let h = 0; h <= 24; h += 3) {
    if (h > 0 && h < 24) shapes.push({ type: 'line', x1: p.x0 + h * hw, y1: p.y0, x2: p.x0 + h * hw, y2: p.y0 + p.h, lineWidth: 0.3, lineColor: '#e0e0e0' });
    if (h < 24) labels.push(label(timeFmt.format(Date.UTC(2000, 0, 1, h)), p.x0 + h * hw - 20, p.y0 + p.h + 3.5, 40, 'center'));
  }
  for (const r of model.readings) shapes.push(marker(r.type, p.x0 + (r.minutes / 1440) * p.w, p.y(plottedMgDl(r, model.unit)), 1.6));
  for (const b of timeOfDayProfile(model.readings)) {
    const x1 = p.x0 + b.start * hw + 3;
    const x2 = p.x0 + b.end * hw - 3;
    if (b.median === null || b.q1 === null || b.q3 === null) {
      if (b.count > 0) labels.push(label(`n ${b.count}`, x1, p.y0 + 1, x2 - x1, 'center'));
      continue;
    }
    shapes.push({ type: 'rect', x: x1, y: p.y(b.q3), w: x2 - x1, h: Math.max(0.8, p.y(b.q1) - p.y(b.q3)), color: '#555555', fillOpacity: 0.18 });
    shapes.push({ type: 'line', x1, y1: p.y(b.median), x2, y2: p.y(b.median), lineWidth: 2, lineColor: '#222222', lineCap: 'round' });
  }
  return leftToRightGeometry({ stack: [...labels, { canvas: shapes }], unbreakable: true });
}

/** One horizontal bar split by band percentages (left: very low … right: very high). */
export function bandBar(summary: ReportModel['overall'], width: number, height = 12): ContentCanvas {
  const shapes: CanvasElement[] = [];
  let x = 0;
  if (summary.count === 0) shapes.push({ type: 'rect', x: 0, y: 0, w: width, h: height, color: '#eeeeee' });
  for (const b of BANDS) {
    const w = ((summary.bands[b].percent ?? 0) / 100) * width;
    if (w > 0) shapes.push({ type: 'rect', x, y: 0, w, h: height, color: BAND_COLORS[b] });
    x += w;
  }
  shapes.push({ type: 'rect', x: 0, y: 0, w: width, h: height, lineWidth: 0.5, lineColor: '#666666' });
  return { canvas: shapes };
}

/** A small coloured square (legend swatch). */
export const swatch = (color: string, size = 7): ContentCanvas => ({ canvas: [{ type: 'rect', x: 0, y: 1, w: size, h: size, color }] });

/** A legend marker for a meal tag. */
export const typeSwatch = (type: GlucoseType): ContentCanvas => ({ canvas: [marker(type, 4, 5, 2.6)] });
