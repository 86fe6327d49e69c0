// The PDF's first page: key numbers, time in ranges against the previous period, the statistics per
// meal tag, and the A1c estimates beside the latest lab HbA1c.
import type { Content, TableCell } from './pdf-doc.ts';
import { GLUCOSE_TYPES } from '../glucose.ts';
import { MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE, type Estimate } from './a1c.ts';
import { BAND_LABELS, BAND_RANGE_LABELS, PDF_LABELS, TYPE_LABELS } from './labels.ts';
import { BAND_COLORS, bandBar, swatch } from './pdf-charts.ts';
import type { Fmt } from './pdf-format.ts';
import { ADA_TARGETS, BANDS, bandEdgesIn, CONSENSUS, ENTRY_DECIMALS, MIN_READINGS_FOR_VARIABILITY, roundPercents, type Band } from './statistics.ts';
import type { GlucoseSummary, ReportModel } from './types.ts';
import { mgDlToMmolL } from './units.ts';

const L = PDF_LABELS;
/** A section title; headlineLevel lets the document move it to the next page rather than leave it orphaned. */
export const heading = (text: string): Content => ({ text, style: 'h2', headlineLevel: 1 });
const small = (text: string): Content => ({ text, style: 'small' });
/** Header cells: the first column is a label, the others hold numbers and are right-aligned. */
const headerRow = (cells: string[]): TableCell[] => cells.map((text, i) => ({ text, style: 'th', alignment: i === 0 ? 'left' : 'right' }));

function reasonText(e: Estimate, model: ReportModel, f: Fmt): string {
  if (e.reason === 'too-few-days') return f.t(L.reasonTooFewDays, { min: MIN_DAYS_FOR_ESTIMATE, days: model.daysWithReadings });
  return f.t(L.reasonTooFewReadings, { min: MIN_READINGS_FOR_ESTIMATE, count: model.overall.count });
}

/** A key number; `quiet` for words in place of a number ("not shown"), which must not shout. */
const tile = (label: string, value: string, detail: string, quiet = false): TableCell => ({
  stack: [small(label), quiet ? { text: value, bold: true, fontSize: 10, margin: [0, 3, 0, 2] } : { text: value, style: 'big' }, small(detail)],
  margin: [2, 2, 2, 2],
});

export function keyNumbers(model: ReportModel, f: Fmt): Content {
  const o = model.overall;
  const gmi = model.gmi.value === null ? f.t(L.notShown) : f.pct(model.gmi.value, 1);
  const gmiDetail = model.gmi.value === null ? reasonText(model.gmi, model, f) : `${f.t(L.eA1cLine)}: ${f.pct(model.eA1c.value, 1)}`;
  const inRangeDetail = `${f.num(o.bands.inRange.count)} / ${f.num(o.count)}`;
  return {
    table: {
      widths: ['*', '*', '*', '*', '*'],
      body: [
        [
          tile(f.t(L.average), o.mean === null ? f.t(L.dash) : `${f.glu(o.mean)} ${f.unitName}`, `${f.t(L.median, { unit: f.unitName })}: ${f.glu(o.median)}`),
          tile(f.t(L.timeInRange, { low: f.glu(CONSENSUS.low), high: f.glu(CONSENSUS.high) }), f.pct(o.bands.inRange.percent), inRangeDetail),
          tile(f.t(L.gmi), gmi, gmiDetail, model.gmi.value === null),
          tile(f.t(L.readings), f.num(o.count), f.t(L.readingsPerDay, { perDay: f.num(o.readingsPerDay, 1) })),
          tile(
            f.t(L.lows, { low: f.glu(CONSENSUS.low) }),
            f.num(o.lows.below70),
            f.t(L.lowsDetail, { count: f.num(o.lows.below54), veryLow: f.glu(CONSENSUS.veryLow) }),
          ),
        ],
      ],
    },
    layout: { hLineColor: () => '#bbbbbb', vLineColor: () => '#bbbbbb', hLineWidth: () => 0.6, vLineWidth: () => 0.6 },
    margin: [0, 4, 0, 6],
  };
}

/** A band's edges in the report's unit, as the consensus publishes them: "54–69", "below 3,0". */
export function bandRange(b: Band, f: Fmt): string {
  // The edges as published in the report's unit (54–69, 181–250; 3.0–3.8, 10.1–13.9), the same as
  // the web report's; never converted from mg/dL, which would print 3.0–3.9 beside 3.9–10.0.
  const [lowest, highest] = bandEdgesIn(b, f.unit);
  const n = (v: number) => f.num(v, ENTRY_DECIMALS[f.unit]);
  const a = lowest === null ? n(highest) : n(lowest);
  return f.t(BAND_RANGE_LABELS[b], { a, b: lowest === null ? '' : n(highest) });
}

export function distribution(model: ReportModel, f: Fmt, width: number): Content {
  const labelW = 92;
  const barW = width - labelW - 8;
  const row = (label: string, s: GlucoseSummary): Content => ({
    columns: [
      { width: labelW, text: label, fontSize: 8 },
      { width: barW, ...bandBar(s, barW) },
    ],
    columnGap: 8,
    margin: [0, 0, 0, 3],
  });
  const pctOf = (s: GlucoseSummary) => roundPercents(Object.fromEntries(BANDS.map((b) => [b, s.bands[b].percent])) as Record<Band, number | null>);
  const now = pctOf(model.overall);
  const before = pctOf(model.previous.overall);
  const body: TableCell[][] = [
    headerRow(['', '', f.unitName, f.t(L.thisPeriod), f.t(L.previousPeriod)]),
    ...[...BANDS]
      .reverse()
      .map((b): TableCell[] => [
        { ...swatch(BAND_COLORS[b]), width: 8 },
        f.t(BAND_LABELS[b]),
        bandRange(b, f),
        { text: `${f.pct(now[b])} (${f.num(model.overall.bands[b].count)})`, alignment: 'right' },
        { text: f.pct(before[b]), alignment: 'right' },
      ]),
  ];
  return {
    stack: [
      heading(f.t(L.distribution)),
      row(f.t(L.thisPeriod), model.overall),
      row(f.t(L.previousPeriod), model.previous.overall),
      { table: { widths: [10, 70, 80, 80, 80], body }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 0], fontSize: 8 },
    ],
    unbreakable: true,
  };
}

export function comparison(model: ReportModel, f: Fmt): Content {
  const o = model.overall;
  const p = model.previous.overall;
  const delta = (a: number | null, b: number | null, fmt: (v: number) => string) =>
    a === null || b === null ? f.t(L.dash) : `${a - b > 0 ? '+' : ''}${fmt(a - b)}`;
  const rows: [string, string, string, string][] = [
    [f.t(L.readings), f.num(o.count), f.num(p.count), delta(o.count, p.count, (v) => f.num(v))],
    [f.t(L.mean, { unit: f.unitName }), f.glu(o.mean), f.glu(p.mean), delta(o.mean, p.mean, (v) => (v < 0 ? '-' : '') + f.glu(Math.abs(v)))],
    [
      f.t(L.timeInRange, { low: f.glu(CONSENSUS.low), high: f.glu(CONSENSUS.high) }),
      f.pct(o.bands.inRange.percent),
      f.pct(p.bands.inRange.percent),
      delta(o.bands.inRange.percent, p.bands.inRange.percent, (v) => f.t(L.percentPoints, { value: f.num(v) })),
    ],
    [f.t(L.lows, { low: f.glu(CONSENSUS.low) }), f.num(o.lows.below70), f.num(p.lows.below70), delta(o.lows.below70, p.lows.below70, (v) => f.num(v))],
  ];
  const { from, to } = model.previous.range;
  return {
    stack: [
      heading(f.t(L.comparison, { days: model.days, from: f.date(from), to: f.date(to) })),
      {
        table: {
          headerRows: 1,
          widths: ['*', 80, 80, 80],
          body: [
            headerRow([f.t(L.measure), f.t(L.thisPeriod), f.t(L.previousPeriod), f.t(L.change)]),
            ...rows.map((r) => r.map((c, i) => ({ text: c, alignment: i === 0 ? 'left' : 'right' }) satisfies TableCell)),
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
    unbreakable: true,
  };
}

export function statisticsTable(model: ReportModel, f: Fmt): Content {
  const cols: GlucoseSummary[] = [model.overall, ...GLUCOSE_TYPES.map((t) => model.byType[t])];
  const target = (i: number): string => {
    if (i === 1) return f.t(L.targetFasting, { low: f.glu(ADA_TARGETS.Fasting.min), high: f.glu(ADA_TARGETS.Fasting.max) });
    if (i === 2) return f.t(L.targetPostprandial, { high: f.glu(ADA_TARGETS.Postprandial.max) });
    return f.t(L.targetOverall, { low: f.glu(ADA_TARGETS.overall.min), high: f.glu(ADA_TARGETS.overall.max) });
  };
  const line = (label: string, cell: (s: GlucoseSummary, i: number) => string | TableCell): TableCell[] => [
    label,
    ...cols.map((s, i) => {
      const c = cell(s, i);
      return typeof c === 'string' ? { text: c, alignment: 'right' as const } : c;
    }),
  ];
  const u = { unit: f.unitName };
  const body: TableCell[][] = [
    headerRow([f.t(L.measure), f.t(L.overall), ...GLUCOSE_TYPES.map((t) => f.t(TYPE_LABELS[t]))]),
    line(f.t(L.readings), (s) => f.num(s.count)),
    line(f.t(L.perDayShort), (s) => f.num(s.readingsPerDay, 1)),
    line(f.t(L.mean, u), (s) => f.glu(s.mean)),
    line(f.t(L.median, u), (s) => f.glu(s.median)),
    line(f.t(L.sd, u), (s) => (s.sd === null ? f.t(L.dash) : f.num(f.unit === 'mmol/L' ? mgDlToMmolL(s.sd) : s.sd, 1))),
    line(f.t(L.cv), (s) => f.num(s.cv, 1)),
    line(f.t(L.minMax, u), (s) => (s.min === null ? f.t(L.dash) : `${f.glu(s.min)} – ${f.glu(s.max)}`)),
    line(f.t(L.inTarget), (s, i) => ({ stack: [{ text: f.pct(s.inTarget.percent) }, { text: target(i), style: 'small' }], alignment: 'right' })),
    line(f.t(L.below70, { value: f.glu(CONSENSUS.low) }), (s) => f.num(s.lows.below70)),
    line(f.t(L.below54, { value: f.glu(CONSENSUS.veryLow) }), (s) => f.num(s.lows.below54)),
  ];
  return {
    stack: [
      heading(f.t(L.statistics)),
      { table: { headerRows: 1, widths: ['*', 82, 82, 82, 82], body }, layout: 'lightHorizontalLines' },
      { text: f.t(L.variabilityNote, { min: MIN_READINGS_FOR_VARIABILITY }), style: 'note' },
    ],
    unbreakable: true,
  };
}

export function a1cBlock(model: ReportModel, f: Fmt): Content {
  const est = (e: Estimate): TableCell =>
    e.value === null
      ? {
          stack: [
            { text: f.t(L.notShown), bold: true },
            { text: reasonText(e, model, f), style: 'small' },
          ],
        }
      : { text: f.pct(e.value, 1), bold: true };
  const lab = model.latestHbA1c;
  const labCell: TableCell = lab
    ? {
        stack: [
          { text: lab.unit && !/%/.test(lab.unit) ? `${f.num(lab.value, 0)} ${lab.unit} (${f.pct(lab.percent, 1)})` : f.pct(lab.percent, 1), bold: true },
          { text: f.instantDate(lab.recordedAt), style: 'small' },
        ],
      }
    : { text: f.t(L.noHbA1c), style: 'small' };
  return {
    stack: [
      heading(f.t(L.a1c)),
      {
        table: {
          widths: ['*', '*', '*'],
          body: [
            [f.t(L.gmiLine), f.t(L.eA1cLine), f.t(L.labHbA1c, { end: f.date(model.input.range.to) })].map((text): TableCell => ({ text, style: 'th' })),
            [est(model.gmi), est(model.eA1c), labCell],
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
    unbreakable: true,
  };
}
