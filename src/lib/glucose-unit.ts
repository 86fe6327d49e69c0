// The glucose unit this device shows and takes readings in (mg/dL or mmol/L). The choice belongs to
// the device (it is not patient data), so it lives in plain local storage. Conversions and how a
// value prints are schemas/glucose-units.ts's.
import { useSyncExternalStore } from 'react';
import type { GlucoseUnit } from '../../schemas/glucose-units.ts';

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
