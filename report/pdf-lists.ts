// The PDF's record sections: glucometer days, medicines and adherence, symptoms, lab results,
// appointments, the logbook grid and the notes on how the numbers are made.
import { withLabUnit } from '../schemas/lab-unit-text.ts';
import type { Content, Inline, Size, TableCell } from './pdf-doc.ts';
import { MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE } from '../schemas/a1c.ts';
import { PDF_LABELS, TYPE_LABELS } from './labels.ts';
import { BAND_TEXT_COLORS } from './pdf-charts.ts';
import type { Fmt } from './format.ts';
import { bandRange, heading } from './pdf-summary.ts';
import { bandEdgesIn, CONSENSUS_EDGES } from '../schemas/judgement.ts';
import { labSeriesDecimals, labValue } from './statistics.ts';
import type { LoggedValue, ReportModel } from './types.ts';

const L = PDF_LABELS;
/** Header cells; the columns listed in `rightCols` hold numbers and are right-aligned like them. */
const headerRow = (cells: string[], rightCols: number[] = []): TableCell[] =>
  cells.map((text, i) => ({ text, style: 'th', alignment: rightCols.includes(i) ? 'right' : 'left' }));
const right = (text: string): TableCell => ({ text, alignment: 'right' });
const none = (f: Fmt): Content => ({ text: f.t(L.none), style: 'note' });

/**
 * A titled section. Short ones stay whole on one page; a long one may run over pages (its table
 * header repeats) and keeps its title with at least its first row.
 */
function section(title: string, rows: number, body: Content[]): Content {
  return rows <= 20 ? { stack: [heading(title), ...body], unbreakable: true } : { stack: [heading(title), ...body] };
}

function table(widths: Size[], header: string[], rows: TableCell[][], rightCols: number[] = []): Content {
  return {
    table: { headerRows: 1, keepWithHeaderRows: 1, widths, body: [headerRow(header, rightCols), ...rows], dontBreakRows: true },
    layout: 'lightHorizontalLines',
  };
}

export function checksSection(model: ReportModel, f: Fmt): Content {
  const c = model.checks;
  const lines: Content[] = [heading(f.t(L.checks))];
  if (c.plannedDays === 0) lines.push({ text: f.t(L.checksNone), style: 'note' });
  else {
    lines.push({ text: f.t(L.checksValue, { done: f.num(c.daysWithReading), planned: f.num(c.plannedDays) }) });
    if (c.missedDays.length > 0) lines.push({ text: f.t(L.checksMissed, { dates: c.missedDays.map(f.date).join(', ') }), style: 'note' });
  }
  return { stack: lines, unbreakable: true };
}

export function medicinesSection(model: ReportModel, f: Fmt): Content {
  const rows = model.adherence.map((a): TableCell[] => [
    a.name,
    a.dose,
    right(f.t(L.takenOfExpected, { taken: f.num(a.taken), expected: f.num(a.expected) })),
    right(f.share(a.percent)),
  ]);
  return section(f.t(L.medicines), rows.length, [
    rows.length ? table(['*', 70, 90, 50], [f.t(L.medicine), f.t(L.dose), f.t(L.dosesTaken), '%'], rows, [2, 3]) : none(f),
    ...(rows.length ? [{ text: f.t(L.adherenceNote), style: 'note' } satisfies Content] : []),
  ]);
}

/** Every low of the period (issue 16), red or dark red as in the logbook, with that day's symptoms. */
export function lowsSection(model: ReportModel, f: Fmt): Content {
  const title = f.t(L.lowsList, { low: f.edge(CONSENSUS_EDGES[f.unit].low), unit: f.unitName });
  if (model.lows.length === 0) return { stack: [heading(title), { text: f.t(L.lowsNone), style: 'note' }], unbreakable: true };
  const rows = model.lows.map((l): TableCell[] => [
    f.date(l.date),
    l.time,
    f.t(TYPE_LABELS[l.type]),
    { text: f.glu(l), alignment: 'right', color: BAND_TEXT_COLORS[l.band], bold: l.band === 'veryLow' },
    l.symptoms.join(', ') || f.t(L.dash),
  ]);
  return section(title, rows.length, [
    table([80, 40, 80, 50, '*'], [f.t(L.date), f.t(L.lowsTime), f.t(L.lowsTag), f.t(L.lowsValue), f.t(L.lowsSymptoms)], rows, [3]),
  ]);
}

export function symptomsSection(model: ReportModel, f: Fmt): Content {
  const rows = model.symptoms.map((s): TableCell[] => [s.symptom, right(f.num(s.count)), right(f.instantDate(s.lastAt))]);
  return section(f.t(L.symptoms), rows.length, [
    rows.length ? table(['*', 80, 100], [f.t(L.symptom), f.t(L.times), f.t(L.lastReported)], rows, [1, 2]) : none(f),
  ]);
}

export function labsSection(model: ReportModel, f: Fmt): Content {
  const rows = model.labs.map((l): TableCell[] => {
    // Latest and previous with the same decimals (labSeriesDecimals): "7.0 %" beside "7.1 %".
    const digits = labSeriesDecimals([l.latest.value, l.previous?.value]);
    const value = (v: number) => withLabUnit(f.num(labValue(v), digits), l.unit);
    return [
      l.name,
      right(f.t(L.onDate, { value: value(l.latest.value), date: f.instantDate(l.latest.recordedAt) })),
      right(l.previous ? f.t(L.onDate, { value: value(l.previous.value), date: f.instantDate(l.previous.recordedAt) }) : f.t(L.dash)),
    ];
  });
  return section(f.t(L.labs), rows.length, [rows.length ? table(['*', 140, 140], [f.t(L.test), f.t(L.latest), f.t(L.previous)], rows, [1, 2]) : none(f)]);
}

export function appointmentsSection(model: ReportModel, f: Fmt): Content {
  const rows = model.appointments.map((a): TableCell[] => [f.dateTime(a.date), a.doctor, a.notes ?? '']);
  return section(f.t(L.appointments), rows.length, [rows.length ? table([110, 150, '*'], [f.t(L.date), f.t(L.doctor), f.t(L.notes)], rows) : none(f)]);
}

/** Values of one logbook cell, each coloured by its band (lows red, highs orange). */
function cellValues(values: LoggedValue[], f: Fmt): TableCell {
  if (values.length === 0) return { text: '' };
  const parts: Inline[] = [];
  values.forEach((v, i) => {
    if (i > 0) parts.push({ text: ', ' });
    parts.push({ text: f.glu(v), color: BAND_TEXT_COLORS[v.band], bold: v.band !== 'inRange' });
  });
  return { text: parts, alignment: 'center' };
}

export function logbookSection(model: ReportModel, f: Fmt): Content {
  if (model.logbook.length === 0) return section(f.t(L.logbook, { unit: f.unitName }), 0, [none(f)]);
  const header = [f.t(L.date), f.t(TYPE_LABELS.Fasting), f.t(TYPE_LABELS.Postprandial), f.t(TYPE_LABELS.Random)].map((text, i): TableCell => ({
    text,
    style: 'th',
    alignment: i ? 'center' : 'left',
  }));
  const rows = model.logbook.map((r): TableCell[] => [f.shortDay(r.date), cellValues(r.fasting, f), cellValues(r.postprandial, f), cellValues(r.random, f)]);
  return section(f.t(L.logbook, { unit: f.unitName }), rows.length, [
    {
      table: { headerRows: 1, keepWithHeaderRows: 1, widths: [90, '*', '*', '*'], body: [header, ...rows], dontBreakRows: true },
      layout: {
        hLineWidth: (i: number) => (i === 1 ? 0.8 : 0.3),
        vLineWidth: () => 0,
        hLineColor: () => '#bbbbbb',
        fillColor: (i: number) => (i > 0 && i % 2 === 0 ? '#f6f6f6' : null),
      },
      fontSize: 8,
    },
  ]);
}

/** The ranges and targets the report judges by, in its own unit (mmol/L edges as published, not converted). */
function aboutRanges(f: Fmt): string {
  return f.t(L.aboutRanges, {
    veryLow: f.edge(bandEdgesIn('veryLow', f.unit)[1]),
    low: bandRange('low', f),
    inRange: bandRange('inRange', f),
    high: bandRange('high', f),
    veryHigh: f.edge(bandEdgesIn('veryHigh', f.unit)[1]),
    unit: f.unitName,
    targets: f.targetsDefinition(),
  });
}

export function aboutSection(model: ReportModel, f: Fmt): Content {
  return {
    stack: [
      heading(f.t(L.about)),
      { text: aboutRanges(f), style: 'note' },
      { text: f.t(L.aboutA1c, { readings: MIN_READINGS_FOR_ESTIMATE, days: MIN_DAYS_FOR_ESTIMATE }), style: 'note' },
      { text: f.t(L.aboutSource, { timeZone: model.input.patient.timeZone }), style: 'note' },
    ],
    unbreakable: true,
  };
}
