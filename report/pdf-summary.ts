// The PDF's first page: key numbers, time in ranges against the previous period, the statistics per
// meal tag, and the A1c estimates beside the latest lab HbA1c.
import type { Content, TableCell } from './pdf-doc.ts';
import { GLUCOSE_TYPES } from '../schemas/glucose.ts';
import { MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE, type Estimate } from '../schemas/a1c.ts';
import { BAND_LABELS, BAND_RANGE_LABELS, PDF_LABELS, TYPE_LABELS } from './labels.ts';
import { BAND_COLORS, bandBar, swatch } from './pdf-charts.ts';
import type { Fmt } from './format.ts';
import { BANDS, bandEdgesIn, CONSENSUS_EDGES, type Band } from '../schemas/judgement.ts';
import { MIN_READINGS_FOR_VARIABILITY } from './statistics.ts';
import type { GlucoseSummary, ReportModel } from './types.ts';

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
  const edges = CONSENSUS_EDGES[f.unit];
  const gmi = model.gmi.value === null ? f.t(L.notShown) : f.a1c(model.gmi.value);
  const gmiDetail = model.gmi.value === null ? reasonText(model.gmi, model, f) : `${f.t(L.eA1cLine)}: ${f.a1c(model.eA1c.value)}. ${f.t(L.gmiCgm)}`;
  const inRangeDetail = `${f.num(o.bands.inRange.count)} / ${f.num(o.count)}`;
  return {
    table: {
      widths: ['*', '*', '*', '*', '*'],
      body: [
        [
          tile(f.t(L.average), o.mean === null ? f.t(L.dash) : `${f.glu(o.mean)} ${f.unitName}`, `${f.t(L.median, { unit: f.unitName })}: ${f.glu(o.median)}`),
          tile(f.t(L.timeInRange, { low: f.edge(edges.low), high: f.edge(edges.high) }), f.share(o.bands.inRange.percent), inRangeDetail),
          tile(f.t(L.gmi), gmi, gmiDetail, model.gmi.value === null),
          tile(f.t(L.readings), f.num(o.count), f.t(L.readingsPerDay, { perDay: f.num(o.readingsPerDay, 1) })),
          tile(
            f.t(L.lows, { low: f.edge(edges.low) }),
            f.num(o.lows.below70),
            f.t(L.lowsDetail, { count: f.num(o.lows.below54), veryLow: f.edge(edges.veryLow) }),
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
  const a = lowest === null ? f.edge(highest) : f.edge(lowest);
  return f.t(BAND_RANGE_LABELS[b], { a, b: lowest === null ? '' : f.edge(highest) });
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
  const now = model.overall.bands;
  const before = model.previous.overall.bands;
  const body: TableCell[][] = [
    headerRow(['', '', f.unitName, f.t(L.thisPeriod), f.t(L.previousPeriod)]),
    ...[...BANDS]
      .reverse()
      .map((b): TableCell[] => [
        { ...swatch(BAND_COLORS[b]), width: 8 },
        f.t(BAND_LABELS[b]),
        bandRange(b, f),
        { text: `${f.share(now[b].percent)} (${f.num(now[b].count)})`, alignment: 'right' },
        { text: f.share(before[b].percent), alignment: 'right' },
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

/** A share as the whole percent it prints, for a change in points that matches the two printed shares. */
const wholeShare = (v: number | null): number | null => (v === null ? null : Math.round(v));

export function comparison(model: ReportModel, f: Fmt): Content {
  const o = model.overall;
  const p = model.previous.overall;
  const edges = CONSENSUS_EDGES[f.unit];
  const delta = (a: number | null, b: number | null, fmt: (v: number) => string) =>
    a === null || b === null ? f.t(L.dash) : `${a - b > 0 ? '+' : ''}${fmt(a - b)}`;
  const rows: [string, string, string, string][] = [
    [f.t(L.readings), f.num(o.count), f.num(p.count), delta(o.count, p.count, (v) => f.num(v))],
    [f.t(L.mean, { unit: f.unitName }), f.glu(o.mean), f.glu(p.mean), delta(o.mean, p.mean, (v) => (v < 0 ? '-' : '') + f.glu(Math.abs(v)))],
    [
      f.t(L.timeInRange, { low: f.edge(edges.low), high: f.edge(edges.high) }),
      f.share(o.bands.inRange.percent),
      f.share(p.bands.inRange.percent),
      delta(wholeShare(o.bands.inRange.percent), wholeShare(p.bands.inRange.percent), (v) => f.t(L.percentPoints, { value: f.num(v) })),
    ],
    [f.t(L.lows, { low: f.edge(edges.low) }), f.num(o.lows.below70), f.num(p.lows.below70), delta(o.lows.below70, p.lows.below70, (v) => f.num(v))],
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
  const edges = CONSENSUS_EDGES[f.unit];
  // The overall column counts each reading against its own tag's target, as the staff review does.
  const target = (i: number): string => {
    const tag = GLUCOSE_TYPES[i - 1];
    return tag === undefined ? f.t(L.inTargetOwnTag) : f.tagTarget(tag);
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
    line(f.t(L.sd, u), (s) => f.sd(s.sd)),
    line(f.t(L.cv), (s) => f.cv(s.cv)),
    line(f.t(L.minMax, u), (s) => (s.min === null ? f.t(L.dash) : `${f.glu(s.min)} – ${f.glu(s.max)}`)),
    line(f.t(L.inTarget), (s, i) => ({ stack: [{ text: f.share(s.inTarget.percent) }, { text: target(i), style: 'small' }], alignment: 'right' })),
    line(f.t(L.below70, { value: f.edge(edges.low) }), (s) => f.num(s.lows.below70)),
    line(f.t(L.below54, { value: f.edge(edges.veryLow) }), (s) => f.num(s.lows.below54)),
  ];
  return {
    stack: [
      heading(f.t(L.statistics)),
      { table: { headerRows: 1, widths: ['*', 82, 82, 82, 82], body }, layout: 'lightHorizontalLines' },
      { text: `${f.targetsDefinition()} ${f.t(L.variabilityNote, { min: MIN_READINGS_FOR_VARIABILITY })}`, style: 'note' },
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
      : { text: f.a1c(e.value), bold: true };
  const lab = model.latestHbA1c;
  const labCell: TableCell = lab
    ? {
        stack: [
          { text: lab.unit && !/%/.test(lab.unit) ? `${f.num(lab.value, 0)} ${lab.unit} (${f.a1c(lab.percent)})` : f.a1c(lab.percent), bold: true },
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
      { text: f.t(L.gmiCgm), style: 'note' },
    ],
    unbreakable: true,
  };
}
