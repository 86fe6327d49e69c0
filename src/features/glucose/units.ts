import { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, GLUCOSE_TYPES, type GlucoseType } from '../../../schemas/glucose.ts';

export { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, GLUCOSE_TYPES, type GlucoseType };

/**
 * A sensible default meal tag for "now": before 10:00 most readings are fasting, within about three
 * hours after a usual meal they are postprandial, otherwise random.
 */
export function defaultGlucoseType(date: Date): GlucoseType {
  const h = date.getHours();
  if (h >= 4 && h < 10) return 'Fasting';
  if ((h >= 13 && h < 16) || (h >= 20 && h < 23)) return 'Postprandial';
  return 'Random';
}

/** Parses what a person typed (comma or point decimals) into mg/dL, or explains what is wrong. */
export function parseGlucose(text: string): { value: number } | { error: 'empty' | 'not-a-number' | 'out-of-range' } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { error: 'empty' };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { error: 'not-a-number' };
  const value = Number(trimmed);
  if (value < GLUCOSE_MIN_MG_DL || value > GLUCOSE_MAX_MG_DL) return { error: 'out-of-range' };
  return { value };
}
