// How a report prints its figures, in the reader's language (Intl): one set of rules for the web
// report, the staff review and the PDF, so a mean, an SD, a CV, a share or a target never reads
// differently in two places. Plain dates (YYYY-MM-DD) are formatted as UTC so no time zone can move
// them a day; instants on the patient's clock, with the zone named where a reader may be elsewhere.
import { ENTRY_DECIMALS, formatGlucose, type GlucoseUnit, type Judgeable } from '../schemas/glucose-units.ts';
import type { GlucoseType } from '../schemas/glucose.ts';
import { TAG_TARGETS } from '../schemas/judgement.ts';
import {
  englishTranslate,
  PDF_LABELS,
  SHARE_LABELS,
  TAG_TARGET_LABELS,
  DEFINITION_LABELS,
  UNIT_LABELS,
  type MessageDescriptor,
  type Translate,
  type TranslateValues,
} from './labels.ts';
import { percentShown } from './statistics.ts';

export interface Fmt {
  locale: string;
  unit: GlucoseUnit;
  timeZone: string;
  t: (d: MessageDescriptor, values?: TranslateValues) => string;
  /** A number with exactly `digits` decimals, or a dash for null. */
  num: (v: number | null | undefined, digits?: number) => string;
  /** A percentage (0–100) with `digits` decimals, or a dash. */
  pct: (v: number | null | undefined, digits?: number) => string;
  /** A share of readings (0–100) as printed everywhere: whole percent, "<1 %", ">99 %", or a dash (percentShown). */
  share: (v: number | null | undefined) => string;
  /** A glucose value (mg/dL) or reading in the report's unit, without the unit; a dash for null (formatGlucose). */
  glu: (r: Judgeable | null | undefined) => string;
  /** A standard deviation (mg/dL) in the report's unit, with the unit's decimals, like a mean. */
  sd: (v: number | null | undefined) => string;
  /** A coefficient of variation (%), one decimal: 36.4 % is never printed as 36 % beside the goal of 36 % or less. */
  cv: (v: number | null | undefined) => string;
  /** An A1c (NGSP %), one decimal. */
  a1c: (v: number | null | undefined) => string;
  /** An edge or target as published in the report's unit ("3.9", "180"). */
  edge: (v: number) => string;
  /** The target of a meal tag in words: "80–130", "70 to below 180". */
  tagTarget: (tag: GlucoseType) => string;
  /** The sentence that defines "In target" with every tag's target. */
  targetsDefinition: () => string;
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

/** A share of readings (0–100) as printed everywhere (percentShown), or `dash` without readings. */
export function shareText(percent: number | null | undefined, locale: string, translate: Translate, dash = '–'): string {
  const pct = (v: number) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(v / 100);
  const shown = percentShown(percent ?? null);
  switch (shown.kind) {
    case 'none':
      return dash;
    case 'under1':
      return translate(SHARE_LABELS.under1, { one: pct(1) });
    case 'over99':
      return translate(SHARE_LABELS.over99, { ninetyNine: pct(99) });
    case 'whole':
      return pct(shown.value);
  }
}

/** A date format on `timeZone`, or on the runtime's own clock where it does not know the zone's name. */
function zoned(locale: string, opts: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, { ...opts, timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale, opts);
  }
}

export function makeFmt(locale: string, unit: GlucoseUnit, timeZone: string, translate: Translate = englishTranslate): Fmt {
  const nf = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, opts: Intl.NumberFormatOptions) => {
    let f = nf.get(key);
    if (!f) nf.set(key, (f = new Intl.NumberFormat(locale, opts)));
    return f;
  };
  const t = (d: MessageDescriptor, values?: TranslateValues) => translate(d, values);
  const dash = t(PDF_LABELS.dash);
  const num = (v: number | null | undefined, digits = 0) =>
    v === null || v === undefined ? dash : numberFormat(`n${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
  const pct = (v: number | null | undefined, digits = 0) =>
    v === null || v === undefined
      ? dash
      : numberFormat(`p${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v / 100);
  const edge = (v: number) => num(v, ENTRY_DECIMALS[unit]);
  const unitName = t(UNIT_LABELS[unit]);
  const tagTarget = (tag: GlucoseType) => {
    const target = TAG_TARGETS[unit][tag];
    return t(TAG_TARGET_LABELS[tag], { low: edge(target.min), high: edge(target.max) });
  };
  const dateF = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const shortDayF = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dateTimeF = zoned(locale, { dateStyle: 'medium', timeStyle: 'short' }, timeZone);
  const instantDateF = zoned(locale, { dateStyle: 'medium' }, timeZone);
  const utc = (ymd: string) => new Date(`${ymd}T00:00:00Z`);
  return {
    locale,
    unit,
    timeZone,
    t,
    num,
    pct,
    share: (v) => shareText(v, locale, translate, dash),
    glu: (v) => (v === null || v === undefined ? dash : formatGlucose(v, unit, locale)),
    sd: (v) => (v === null || v === undefined ? dash : formatGlucose(v, unit, locale)),
    cv: (v) => pct(v, 1),
    a1c: (v) => pct(v, 1),
    edge,
    tagTarget,
    targetsDefinition: () =>
      t(DEFINITION_LABELS.targets, { fasting: tagTarget('Fasting'), afterMeal: tagTarget('Postprandial'), random: tagTarget('Random'), unit: unitName }),
    unitName,
    date: (ymd) => dateF.format(utc(ymd)),
    shortDay: (ymd) => shortDayF.format(utc(ymd)),
    dateTime: (iso) => dateTimeF.format(new Date(iso)),
    instantDate: (iso) => instantDateF.format(new Date(iso)),
  };
}
