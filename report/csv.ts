// The readings of a report as CSV (RFC 4180): who and when, then a header row, CRLF line ends, fields with a comma,
// quote or line break quoted with doubled quotes. Numbers use a dot and the unit's decimals, so any
// spreadsheet or script reads them alike; words follow the patient's language when `translate` is
// given. Text cells that a spreadsheet would run as a formula (= + - @, tab, CR) get a leading '
// (OWASP's CSV injection advice): today they are all ours, but a translation or a future column
// must not be able to turn a download into a formula.
import { offsetText } from './dates.ts';
import { plainGlucose } from '../schemas/glucose-units.ts';
import { BAND_LABELS, CSV_LABELS, englishTranslate, TARGET_LABELS, TYPE_LABELS, UNIT_LABELS, type Translate } from './labels.ts';
import type { ReportModel } from './types.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell made safe for spreadsheets, then quoted per RFC 4180 when needed. */
export function csvCell(value: string | number): string {
  let s = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  if (/[",\r\n]/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  return s;
}

export const csvRow = (cells: readonly (string | number)[]): string => cells.map(csvCell).join(',');

export interface CsvOptions {
  translate?: Translate;
}

/**
 * The report's readings as CSV, in the report's unit (model.unit), each row judged as its value is
 * written (judgement.ts). The file says whose data it is before the table: rows of a label and a
 * value (patient, hospital number, hospital, period, unit, time zone, when made), a blank row, then
 * the table with its header. Spreadsheets open it as it is; a program skips to the blank row.
 */
export function reportCsv(model: ReportModel, { translate = englishTranslate }: CsvOptions = {}): string {
  const t = translate;
  const unit = model.unit;
  const p = model.input.patient;
  const about: (string | number)[][] = [
    [t(CSV_LABELS.patient), p.name],
    [t(CSV_LABELS.hospNo), p.hospNo],
    ...(p.hospital ? [[t(CSV_LABELS.hospital), p.hospital]] : []),
    [t(CSV_LABELS.period), model.input.range.from, model.input.range.to],
    [t(CSV_LABELS.unit), t(UNIT_LABELS[unit])],
    [t(CSV_LABELS.timeZone), p.timeZone],
    [t(CSV_LABELS.generated), new Date(model.input.generatedAt).toISOString()],
  ];
  // Both judgements, each named: the consensus range ("In range") and the meal tag's target
  // ("Above target", as the dashboard says), so a fasting 148 mg/dL reads the same everywhere.
  const header = [
    t(CSV_LABELS.date),
    t(CSV_LABELS.time),
    t(CSV_LABELS.type),
    t(CSV_LABELS.value, { unit }),
    t(CSV_LABELS.band),
    t(CSV_LABELS.target),
    t(CSV_LABELS.recordedAt),
    t(CSV_LABELS.deviceOffset),
  ];
  const rows = model.readings.map((r) =>
    csvRow([
      r.date,
      r.time,
      t(TYPE_LABELS[r.type]),
      plainGlucose(r, unit),
      t(BAND_LABELS[r.band]),
      t(TARGET_LABELS[r.target]),
      new Date(r.recordedAt).toISOString(),
      // The recording device's UTC offset, when the reading kept it: its own clock may not be the patient's zone.
      r.utcOffsetMinutes === null || r.utcOffsetMinutes === undefined ? '' : `UTC${offsetText(r.utcOffsetMinutes)}`,
    ]),
  );
  return [...about.map(csvRow), '', csvRow(header), ...rows].join('\r\n') + '\r\n';
}

/** A file name for a report's download: eddy-report-<hospNo>-<from>-<to>.<ext>, safe on every system. */
export function reportFileName(model: Pick<ReportModel, 'input'>, ext: 'pdf' | 'csv' | 'json'): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
  const { hospNo } = model.input.patient;
  const { from, to } = model.input.range;
  return `eddy-report-${safe(hospNo)}-${from}-${to}.${ext}`;
}
