// Glucose statistics for the clinician (mg/dL). Each reading is judged against its own type's
// target: fasting 80–130, after a meal and random 70–180; lows are < 70 and, clinically
// significant, < 54 (international consensus levels 1 and 2).
import type { GlucoseReading } from '../../../schemas/glucose.ts';

export const REVIEW_TARGETS = {
  Fasting: { low: 80, high: 130 },
  Postprandial: { low: 70, high: 180 },
  Random: { low: 70, high: 180 },
} as const satisfies Record<GlucoseReading['type'], { low: number; high: number }>;

export const LOW = 70;
export const VERY_LOW = 54;

export interface GlucoseStats {
  count: number;
  /** Arithmetic mean in mg/dL, or null without readings. */
  mean: number | null;
  /** Share of readings within their type's target, 0–100, or null without readings. */
  inTargetPercent: number | null;
  /** Readings below 70 mg/dL (this includes those below 54). */
  below70: number;
  /** Readings below 54 mg/dL. */
  below54: number;
}

export function glucoseStats(readings: readonly Pick<GlucoseReading, 'type' | 'value'>[]): GlucoseStats {
  const count = readings.length;
  if (count === 0) return { count, mean: null, inTargetPercent: null, below70: 0, below54: 0 };
  let sum = 0;
  let inTarget = 0;
  let below70 = 0;
  let below54 = 0;
  for (const r of readings) {
    sum += r.value;
    const target = REVIEW_TARGETS[r.type];
    if (r.value >= target.low && r.value <= target.high) inTarget += 1;
    if (r.value < LOW) below70 += 1;
    if (r.value < VERY_LOW) below54 += 1;
  }
  return { count, mean: sum / count, inTargetPercent: (inTarget / count) * 100, below70, below54 };
}
