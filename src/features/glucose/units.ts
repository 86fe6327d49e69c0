import { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, type GlucoseUnit, mgDlOf, plausibleRange } from '../../../schemas/glucose-units.ts';
import { GLUCOSE_TYPES, type GlucoseType } from '../../../schemas/glucose.ts';

export { GLUCOSE_TYPES, type GlucoseType };

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

const otherUnit = (unit: GlucoseUnit): GlucoseUnit => (unit === 'mg/dL' ? 'mmol/L' : 'mg/dL');
const inRange = (mgdl: number) => mgdl >= GLUCOSE_MIN_MG_DL && mgdl <= GLUCOSE_MAX_MG_DL;

export type GlucoseCheck =
  /** `value` as typed (in the person's unit), `mgdl` as stored. */
  | { kind: 'ok'; value: number; mgdl: number }
  | { kind: 'error'; error: 'empty' | 'not-a-number' | 'out-of-range' }
  /**
   * The number fits the other unit better (6.5 typed while in mg/dL): the person confirms which
   * one they meant. `asTyped` is the value in the chosen unit when that too is plausible.
   */
  | { kind: 'confirm-unit'; value: number; other: GlucoseUnit; asOther: number; asTyped: number | undefined };

/**
 * What a person typed (comma or point decimals), in their unit, checked against the plausible
 * range 20–600 mg/dL. Meters show mg/dL as whole numbers from 20 and mmol/L with one decimal up to
 * 33.3, so a number that is impossible in one unit but ordinary in the other, or a very low mg/dL
 * value that is also an ordinary mmol/L one, is asked about instead of being stored wrongly.
 */
export function checkGlucose(text: string, unit: GlucoseUnit): GlucoseCheck {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { kind: 'error', error: 'empty' };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { kind: 'error', error: 'not-a-number' };
  const value = Number(trimmed);
  const mgdl = mgDlOf(value, unit);
  const other = otherUnit(unit);
  const asOther = mgDlOf(value, other);
  const otherRange = plausibleRange(other);
  const fitsOther = value >= otherRange.min && value <= otherRange.max && inRange(asOther);
  if (unit === 'mg/dL' && fitsOther && (mgdl < 40 || !Number.isInteger(value))) {
    return { kind: 'confirm-unit', value, other, asOther, asTyped: inRange(mgdl) ? mgdl : undefined };
  }
  if (unit === 'mmol/L' && fitsOther && !inRange(mgdl)) return { kind: 'confirm-unit', value, other, asOther, asTyped: undefined };
  if (!inRange(mgdl)) return { kind: 'error', error: 'out-of-range' };
  return { kind: 'ok', value, mgdl };
}
