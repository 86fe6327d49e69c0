// Glucose units for the report. The model keeps mg/dL (as stored, docs/requirements.md §11); mmol/L is
// a way of showing it: mg/dL ÷ 18.016, one decimal. What a value prints as, and how it is judged, is
// the judging module's (judgement.ts).
import { MG_DL_PER_MMOL_L } from '../glucose.ts';
import { ENTRY_DECIMALS, formatGlucose, plainGlucose, shownGlucose } from './judgement.ts';
import type { DisplayUnit } from './types.ts';

export { formatGlucose, MG_DL_PER_MMOL_L, plainGlucose, shownGlucose };

/** mg/dL → mmol/L, unrounded. */
export const mgDlToMmolL = (mgdl: number): number => mgdl / MG_DL_PER_MMOL_L;

/** mmol/L → mg/dL, unrounded. */
export const mmolLToMgDl = (mmol: number): number => mmol * MG_DL_PER_MMOL_L;

/** Decimals a glucose value is shown with: whole mg/dL, mmol/L to one decimal. */
export const glucoseDecimals = (unit: DisplayUnit): number => ENTRY_DECIMALS[unit];

/** mg/dL → the number shown in `unit`, rounded as shown. */
export const toUnit = (mgdl: number, unit: DisplayUnit): number => shownGlucose(mgdl, unit).value;
