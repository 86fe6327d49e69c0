// The glucose unit a patient reads and types in. Values are stored and sent in mg/dL (DESIGN.md §4);
// mmol/L is only a way of showing them: mg/dL ÷ 18.016, one decimal. The choice belongs to the
// device (it is not patient data), so it lives in plain local storage.
import { useSyncExternalStore } from 'react';
import { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, MG_DL_PER_MMOL_L } from '../../schemas/glucose.ts';
import { storedMgDl } from '../../schemas/report/statistics.ts';

export const GLUCOSE_UNITS = ['mg/dL', 'mmol/L'] as const;
export type GlucoseUnit = (typeof GLUCOSE_UNITS)[number];
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
export function toDisplay(mgdl: number, unit: GlucoseUnit): number {
  return unit === 'mmol/L' ? Math.round((mgdl / MG_DL_PER_MMOL_L) * 10) / 10 : Math.round(mgdl);
}

/**
 * A value typed in `unit` → mg/dL as stored (one decimal, so mmol/L → mg/dL → mmol/L is stable, and
 * the statistics module can tell a stored value was typed in mmol/L: `inferredUnit`).
 */
export function toMgDl(value: number, unit: GlucoseUnit): number {
  return unit === 'mmol/L' ? storedMgDl(value) : value;
}

/** The plausible range (20–600 mg/dL) in `unit`, for messages and input hints. */
export function plausibleRange(unit: GlucoseUnit): { min: number; max: number } {
  return unit === 'mmol/L'
    ? { min: Math.ceil((GLUCOSE_MIN_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10, max: Math.floor((GLUCOSE_MAX_MG_DL / MG_DL_PER_MMOL_L) * 10) / 10 }
    : { min: GLUCOSE_MIN_MG_DL, max: GLUCOSE_MAX_MG_DL };
}

/** Formats a stored mg/dL value in `unit` for `locale`, without the unit. */
export function formatGlucose(mgdl: number, unit: GlucoseUnit, locale: string): string {
  return new Intl.NumberFormat(locale, unit === 'mmol/L' ? { minimumFractionDigits: 1, maximumFractionDigits: 1 } : { maximumFractionDigits: 0 }).format(toDisplay(mgdl, unit));
}
