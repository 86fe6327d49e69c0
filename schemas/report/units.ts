// Glucose units for the report. The model keeps mg/dL (as stored, docs/requirements.md §11); mmol/L is only a
// way of showing it: mg/dL ÷ 18.016, one decimal (the same rule as the app's entry screens).
import { MG_DL_PER_MMOL_L } from '../glucose.ts';
import { asTaken, type Judgeable } from './statistics.ts';
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

const decimalsOf = (value: number): number => /\.(\d+)$/.exec(String(value))?.[1]?.length ?? 0;

/**
 * What is shown for a glucose value in `unit`, and with how many decimals. A number (a mean, an
 * edge) is converted and rounded as the unit shows values. A reading is shown as it was taken when
 * it was taken in `unit` (10.0 typed in mmol/L reads 10.0 again after a look in mg/dL; 53.9 mg/dL is
 * never shown as 54), else converted.
 */
export function shownGlucose(r: Judgeable, unit: DisplayUnit): { value: number; decimals: number } {
  const unitDecimals = glucoseDecimals(unit);
  if (typeof r !== 'number') {
    const taken = asTaken(r);
    if (taken.unit === unit) return { value: taken.value, decimals: Math.max(unitDecimals, Math.min(2, decimalsOf(taken.value))) };
  }
  return { value: toUnit(typeof r === 'number' ? r : r.value, unit), decimals: unitDecimals };
}

/** A glucose value or reading in `unit` for `locale`, without the unit ("7.2", "1,234"): see shownGlucose. */
export function formatGlucose(r: Judgeable, unit: DisplayUnit, locale: string): string {
  const { value, decimals } = shownGlucose(r, unit);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}
