// The readings of a report as CSV (RFC 4180): a header row, CRLF line ends, fields with a comma,
// quote or line break quoted with doubled quotes. Numbers use a dot and the unit's decimals, so any
// spreadsheet or script reads them alike; words follow the patient's language when `translate` is
// given. Text cells that a spreadsheet would run as a formula (= + - @, tab, CR) get a leading '
// (OWASP's CSV injection advice): today they are all ours, but a translation or a future column
// must not be able to turn a download into a formula.
import { BAND_LABELS, CSV_LABELS, englishTranslate, TARGET_LABELS, TYPE_LABELS, type Translate } from './labels.ts';
import type { DisplayUnit, ReportModel } from './types.ts';
import { shownGlucose } from './units.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell made safe for spreadsheets, then quoted per RFC 4180 when needed. */
export function csvCell(value: string | number): string {
  let s = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  if (/[",\r\n]/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  return s;
}

export const csvRow = (cells: readonly (string | number)[]): string => cells.map(csvCell).join(',');

export interface CsvOptions {
  unit: DisplayUnit;
  translate?: Translate;
}

export function reportCsv(model: ReportModel, { unit, translate = englishTranslate }: CsvOptions): string {
  const t = translate;
  // Both judgements, each named: the consensus range ("In range") and the meal tag's target
  // ("Above target", as the dashboard says), so a fasting 148 mg/dL reads the same everywhere.
  const header = [t(CSV_LABELS.date), t(CSV_LABELS.time), t(CSV_LABELS.type), t(CSV_LABELS.value, { unit }), t(CSV_LABELS.band), t(CSV_LABELS.target), t(CSV_LABELS.recordedAt)];
  const rows = model.readings.map((r) =>
    csvRow([r.date, r.time, t(TYPE_LABELS[r.type]), csvGlucose(r, unit), t(BAND_LABELS[r.band]), t(TARGET_LABELS[r.target]), new Date(r.recordedAt).toISOString()]),
  );
  return [csvRow(header), ...rows].join('\r\n') + '\r\n';
}

/** A reading's value in `unit` with a dot: as typed when typed in `unit` (shownGlucose). */
function csvGlucose(r: ReportModel['readings'][number], unit: DisplayUnit): string {
  const { value, decimals } = shownGlucose(r, unit);
  return value.toFixed(decimals);
}

/** A file name for a report's download: eddy-report-<hospNo>-<from>-<to>.<ext>, safe on every system. */
export function reportFileName(model: Pick<ReportModel, 'input'>, ext: 'pdf' | 'csv' | 'json'): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
  const { hospNo } = model.input.patient;
  const { from, to } = model.input.range;
  return `eddy-report-${safe(hospNo)}-${from}-${to}.${ext}`;
}
