// Glucose units for the report. The model keeps mg/dL (as stored, DESIGN.md §4); mmol/L is only a
// way of showing it: mg/dL ÷ 18.016, one decimal (the same rule as the app's entry screens).
import { MG_DL_PER_MMOL_L } from '../glucose.ts';
import type { DisplayUnit } from './types.ts';

export { MG_DL_PER_MMOL_L };

/** mg/dL → mmol/L, unrounded. */
export const mgDlToMmolL = (mgdl: number): number => mgdl / MG_DL_PER_MMOL_L;

/** mmol/L → mg/dL, unrounded. */
export const mmolLToMgDl = (mmol: number): number => mmol * MG_DL_PER_MMOL_L;

/** Decimals a glucose value is shown with: whole mg/dL, mmol/L to one decimal. */
export const glucoseDecimals = (unit: DisplayUnit): number => (unit === 'mmol/L' ? 1 : 0);

/** mg/dL → the number shown in `unit`, rounded as shown. */
export function toUnit(mgdl: number, unit: DisplayUnit): number {
  const f = 10 ** glucoseDecimals(unit);
  return Math.round((unit === 'mmol/L' ? mgDlToMmolL(mgdl) : mgdl) * f) / f;
}

/** A glucose value in `unit` for `locale`, without the unit ("7.2", "1,234"). */
export function formatGlucose(mgdl: number, unit: DisplayUnit, locale: string): string {
  const digits = glucoseDecimals(unit);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(toUnit(mgdl, unit));
}
