// Number, date and glucose formatting for the PDF in the patient's language (Intl), shared by its
// sections. Plain dates (YYYY-MM-DD) are formatted as UTC so no time zone can move them a day.
import { englishTranslate, PDF_LABELS, UNIT_LABELS, type MessageDescriptor, type Translate, type TranslateValues } from './labels.ts';
import type { Judgeable } from './statistics.ts';
import type { DisplayUnit } from './types.ts';
import { formatGlucose } from './units.ts';

export interface Fmt {
  locale: string;
  unit: DisplayUnit;
  timeZone: string;
  t: (d: MessageDescriptor, values?: TranslateValues) => string;
  /** A number with exactly `digits` decimals, or a dash for null. */
  num: (v: number | null | undefined, digits?: number) => string;
  /** A percentage (0–100) as whole percent, or a dash. */
  pct: (v: number | null | undefined, digits?: number) => string;
  /** A glucose value (mg/dL) or reading in the report's unit, without the unit; a dash for null (formatGlucose). */
  glu: (r: Judgeable | null | undefined) => string;
  /** The unit's printed name. */
  unitName: string;
  /** 14 Mar 2026 */
  date: (ymd: string) => string;
  /** Sat, 14 Mar */
  shortDay: (ymd: string) => string;
  /** An instant, local to the patient: 14 Mar 2026, 10:30 */
  dateTime: (iso: string) => string;
  /** An instant's local date only. */
  instantDate: (iso: string) => string;
}

export function makeFmt(locale: string, unit: DisplayUnit, timeZone: string, translate: Translate = englishTranslate): Fmt {
  const nf = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, opts: Intl.NumberFormatOptions) => {
    let f = nf.get(key);
    if (!f) nf.set(key, (f = new Intl.NumberFormat(locale, opts)));
    return f;
  };
  const t = (d: MessageDescriptor, values?: TranslateValues) => translate(d, values);
  const dash = t(PDF_LABELS.dash);
  const dateF = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const shortDayF = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dateTimeF = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const instantDateF = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const utc = (ymd: string) => new Date(`${ymd}T00:00:00Z`);
  return {
    locale,
    unit,
    timeZone,
    t,
    num: (v, digits = 0) =>
      v === null || v === undefined ? dash : numberFormat(`n${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v),
    pct: (v, digits = 0) =>
      v === null || v === undefined
        ? dash
        : numberFormat(`p${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v / 100),
    glu: (v) => (v === null || v === undefined ? dash : formatGlucose(v, unit, locale)),
    unitName: t(UNIT_LABELS[unit]),
    date: (ymd) => dateF.format(utc(ymd)),
    shortDay: (ymd) => shortDayF.format(utc(ymd)),
    dateTime: (iso) => dateTimeF.format(new Date(iso)),
    instantDate: (iso) => instantDateF.format(new Date(iso)),
  };
}
