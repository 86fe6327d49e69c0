// The glucose unit a patient reads and types in. Values are stored and sent in mg/dL (docs/requirements.md §11),
// with the unit and number as typed beside them; mmol/L otherwise is a way of showing them: mg/dL
// ÷ 18.016, one decimal. The choice belongs to the device (it is not patient data), so it lives in
// plain local storage.
import { useSyncExternalStore } from 'react';
import { ENTRY_UNITS, GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, MG_DL_PER_MMOL_L, mgDlOf, type EntryUnit } from '../../schemas/glucose.ts';
import { formatGlucose, toUnit } from '../../schemas/report/units.ts';

export { formatGlucose };

export const GLUCOSE_UNITS = ENTRY_UNITS;
export type GlucoseUnit = EntryUnit;
export const UNIT_STORAGE_KEY = 'eddy_user_glucose_unit';

const listeners = new Set<() => void>();
const read = (): GlucoseUnit => {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(UNIT_STORAGE_KEY);
  return stored === 'mmol/L' ? 'mmol/L' : 'mg/dL';
};

export function setGlucoseUnit(unit: GlucoseUnit): void {
  localStorage.setItem(UNIT_STORAGE_KEY, unit);
  for (const l of [...listeners]) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useGlucoseUnit(): GlucoseUnit {
  return useSyncExternalStore(subscribe, read, () => 'mg/dL' as const);
}

/** mg/dL → the number shown in `unit` (mmol/L rounded to one decimal, mg/dL to a whole number). */
export const toDisplay = toUnit;

/**
 * A value typed in `unit` → mg/dL as stored (one decimal, so mmol/L → mg/dL → mmol/L is stable; the
 * reading also keeps the value as typed, see GlucoseValues).
 */
export const toMgDl = mgDlOf;

/** The plausible range (20–600 mg/dL) in `unit`, for messages and input hints. */
export function plausibleRange(unit: GlucoseUnit): { min: number; max: number } {
  return unit === 'mmol/L'
    ? { min: Math.ceil((GLUCOSE_MIN_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10, max: Math.floor((GLUCOSE_MAX_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10 }
    : { min: GLUCOSE_MIN_MG_DL, max: GLUCOSE_MAX_MG_DL };
}
