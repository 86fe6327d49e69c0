// Where a reading stands against the targets of DESIGN.md §4: the International Consensus on Time
// in Range (very low < 54, low < 70, high > 180, very high > 250 mg/dL) for every reading, and the
// ADA meal targets on top (fasting 80–130, postprandial < 180). All in mg/dL.
import type { GlucoseType } from '../../../schemas/glucose.ts';

export type GlucoseBand = 'very-low' | 'low' | 'in-target' | 'above-target' | 'high' | 'very-high';

export const TIME_IN_RANGE = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;
export const ADA_FASTING = { min: 80, max: 130 } as const;
export const ADA_POSTPRANDIAL_MAX = 180;

/** The target range shown for a meal tag (the chart's band uses the consensus 70–180). */
export function targetRange(type: GlucoseType): { min: number; max: number } {
  if (type === 'Fasting') return ADA_FASTING;
  return { min: TIME_IN_RANGE.low, max: type === 'Postprandial' ? ADA_POSTPRANDIAL_MAX : TIME_IN_RANGE.high };
}

export function classifyGlucose(mgdl: number, type: GlucoseType): GlucoseBand {
  if (mgdl < TIME_IN_RANGE.veryLow) return 'very-low';
  if (mgdl < TIME_IN_RANGE.low) return 'low';
  if (mgdl > TIME_IN_RANGE.veryHigh) return 'very-high';
  if (mgdl > TIME_IN_RANGE.high) return 'high';
  const { min, max } = targetRange(type);
  // 70–79 fasting is above the consensus low but below the ADA fasting target: not "in target".
  if (mgdl < min) return 'low';
  return mgdl > max ? 'above-target' : 'in-target';
}
