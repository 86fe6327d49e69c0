// Glucose units, in one place: what is stored, what a patient types, and what is printed.
//
// - Stored and sent: mg/dL (docs/requirements.md §11), with the unit and the number as typed beside
//   them when the reading was typed in mmol/L.
// - Typed: whole mg/dL as a meter shows them, or mmol/L to one decimal; mmol/L is stored as mg/dL to
//   one decimal (× 18.016), so the way back to the typed value is exact (10.0 → 180.2 → 10.0).
// - Printed: a reading in the unit it was taken in prints as typed; in the other unit it is
//   converted and rounded as a meter shows that unit. How a printed value is judged (bands,
//   targets) is report/judgement.ts's, which takes its numbers from here.

/** The units a meter shows and a patient types in: whole mg/dL, or mmol/L to one decimal. */
export const GLUCOSE_UNITS = ['mg/dL', 'mmol/L'] as const;
export type GlucoseUnit = (typeof GLUCOSE_UNITS)[number];

/** mg/dL per mmol/L for glucose. */
export const MG_DL_PER_MMOL_L = 18.016;

/** Plausible capillary glucose in mg/dL; values outside are almost surely typing errors. */
export const GLUCOSE_MIN_MG_DL = 20;
export const GLUCOSE_MAX_MG_DL = 600;

/** Decimals a meter shows in each unit (whole mg/dL, mmol/L to one decimal). */
export const ENTRY_DECIMALS = { 'mg/dL': 0, 'mmol/L': 1 } as const satisfies Record<GlucoseUnit, number>;

/** mg/dL → mmol/L, unrounded. */
export const mgDlToMmolL = (mgdl: number): number => mgdl / MG_DL_PER_MMOL_L;

/** mmol/L → mg/dL, unrounded. */
export const mmolLToMgDl = (mmol: number): number => mmol * MG_DL_PER_MMOL_L;

/**
 * mmol/L (as typed) → mg/dL as stored: one decimal, so the way back to the typed value is exact
 * (10.0 mmol/L → 180.2 mg/dL → 10.0 mmol/L).
 */
export const storedMgDl = (mmol: number): number => Math.round(mmol * MG_DL_PER_MMOL_L * 10) / 10;

/** The mg/dL a value typed in `unit` is stored as. */
export const mgDlOf = (entered: number, unit: GlucoseUnit): number => (unit === 'mmol/L' ? storedMgDl(entered) : entered);

/** The plausible range (20–600 mg/dL) in `unit`, for messages and input hints. */
export function plausibleRange(unit: GlucoseUnit): { min: number; max: number } {
  return unit === 'mmol/L'
    ? { min: Math.ceil((GLUCOSE_MIN_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10, max: Math.floor((GLUCOSE_MAX_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10 }
    : { min: GLUCOSE_MIN_MG_DL, max: GLUCOSE_MAX_MG_DL };
}

/** A stored reading, or a value alone (mg/dL, e.g. a mean or an edge). */
export type Judgeable = number | GlucoseValue;
/** A reading's value: mg/dL as stored, with the unit and the number as typed when it kept them. */
export interface GlucoseValue {
  readonly value: number;
  readonly unit?: GlucoseUnit | null | undefined;
  readonly enteredValue?: number | null | undefined;
}

const roundTo = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};
const decimalsOf = (value: number): number => /\.(\d+)$/.exec(String(value))?.[1]?.length ?? 0;

/**
 * The unit a stored mg/dL value was typed in when the reading does not say: the app stores mmol/L as
 * mg/dL to one decimal (mmol/L × 18.016), so a value that is not a whole number and reads back to
 * itself through one decimal of mmol/L was typed in mmol/L.
 */
export function inferredUnit(mgdl: number): GlucoseUnit {
  if (Number.isInteger(mgdl)) return 'mg/dL';
  return storedMgDl(roundTo(mgdl / MG_DL_PER_MMOL_L, 1)) === mgdl ? 'mmol/L' : 'mg/dL';
}

/** A reading as it was taken: its unit and its value in that unit, as typed. */
export function asTaken(r: Judgeable): { unit: GlucoseUnit; value: number } {
  const mgdl = typeof r === 'number' ? r : r.value;
  const given = typeof r === 'number' ? undefined : r;
  const unit = given?.unit ?? inferredUnit(mgdl);
  if (given?.unit && typeof given.enteredValue === 'number') return { unit, value: given.enteredValue };
  return { unit, value: unit === 'mmol/L' ? roundTo(mgdl / MG_DL_PER_MMOL_L, ENTRY_DECIMALS['mmol/L']) : mgdl };
}

/** What is printed for a glucose value in a unit: the number and its decimals. */
export interface Shown {
  value: number;
  decimals: number;
}

/**
 * The number printed for `r` in `unit`: a reading taken in `unit` as typed (up to two decimals),
 * anything else converted and rounded as a meter shows `unit`. A bare number (a mean, an edge) is a
 * mg/dL value converted.
 */
export function shownGlucose(r: Judgeable, unit: GlucoseUnit): Shown {
  const unitDecimals = ENTRY_DECIMALS[unit];
  if (typeof r !== 'number') {
    const taken = asTaken(r);
    if (taken.unit === unit) return { value: taken.value, decimals: Math.max(unitDecimals, Math.min(2, decimalsOf(taken.value))) };
  }
  const mgdl = typeof r === 'number' ? r : r.value;
  return { value: roundTo(unit === 'mmol/L' ? mgdl / MG_DL_PER_MMOL_L : mgdl, unitDecimals), decimals: unitDecimals };
}

/** mg/dL → the number shown in `unit`, rounded as shown. */
export const toUnit = (r: Judgeable, unit: GlucoseUnit): number => shownGlucose(r, unit).value;

/** Decimals a glucose value is shown with: whole mg/dL, mmol/L to one decimal. */
export const glucoseDecimals = (unit: GlucoseUnit): number => ENTRY_DECIMALS[unit];

/**
 * Where a reading is drawn on a chart whose axis is in mg/dL, when the chart is read in `unit`: at
 * the value it prints (181 mg/dL read in mmol/L sits on the 10.0 line, inside the range it is counted in).
 */
export function plottedMgDl(r: Judgeable, unit: GlucoseUnit): number {
  const { value } = shownGlucose(r, unit);
  return unit === 'mmol/L' ? value * MG_DL_PER_MMOL_L : value;
}

/** A glucose value or reading as printed in `unit` for `locale`, without the unit ("7.2", "1,234"). */
export function formatGlucose(r: Judgeable, unit: GlucoseUnit, locale: string): string {
  const { value, decimals } = shownGlucose(r, unit);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** The same with a dot and no grouping, for files read by programs (CSV). */
export function plainGlucose(r: Judgeable, unit: GlucoseUnit): string {
  const { value, decimals } = shownGlucose(r, unit);
  return value.toFixed(decimals);
}
