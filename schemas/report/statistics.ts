// Glucose statistics: one place for the dashboard, the staff review and the report. Pure functions on
// mg/dL values.
//
// International Consensus on Time in Range (Battelino et al., Diabetes Care 2019), read for whole
// and fractional mg/dL alike:
//   veryLow   value < 54
//   low       54 ≤ value < 70        (69.5 is low)
//   inRange   70 ≤ value ≤ 180       (180 is in range)
//   high      180 < value ≤ 250      (180.4 is high; 250 is high)
//   veryHigh  value > 250            (250.1 is very high)
// Lows are counted as level 1+2 (< 70, so including < 54) and level 2 (< 54).
//
// ADA meal targets (Standards of Care, glycemic goals for capillary glucose):
//   Fasting       80 ≤ value ≤ 130
//   Postprandial  70 ≤ value < 180   (ADA: peak postprandial "< 180"; a reading below 70 is a low,
//                                     never on target, so 180 itself is in the consensus range but
//                                     not on the postprandial target)
//   Random        70 ≤ value ≤ 180   (no ADA meal target; the consensus range stands in)
//   overall       70 ≤ value ≤ 180
//
// Variability (SD, CV) needs at least 30 readings: with fewer, a sample SD of fingersticks says more
// about when the patient happened to measure than about their glucose.
import type { GlucoseType } from '../glucose.ts';
import type { GlucoseSummary } from './types.ts';

export const MIN_READINGS_FOR_VARIABILITY = 30;

export const CONSENSUS = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;

export type Band = keyof GlucoseSummary['bands'];
export const BANDS = ['veryLow', 'low', 'inRange', 'high', 'veryHigh'] as const satisfies readonly Band[];

/** The International Consensus band of a value in mg/dL (boundaries above). */
export function bandOf(mgdl: number): Band {
  if (mgdl < CONSENSUS.veryLow) return 'veryLow';
  if (mgdl < CONSENSUS.low) return 'low';
  if (mgdl <= CONSENSUS.high) return 'inRange';
  if (mgdl <= CONSENSUS.veryHigh) return 'high';
  return 'veryHigh';
}

export type TargetKey = GlucoseType | 'overall';

/** The ADA target of a meal tag; `maxInclusive` false means the upper bound itself is off target. */
export const ADA_TARGETS = {
  Fasting: { min: 80, max: 130, maxInclusive: true },
  Postprandial: { min: 70, max: 180, maxInclusive: false },
  Random: { min: 70, max: 180, maxInclusive: true },
  overall: { min: 70, max: 180, maxInclusive: true },
} as const satisfies Record<TargetKey, { min: number; max: number; maxInclusive: boolean }>;

export function isInTarget(mgdl: number, target: TargetKey): boolean {
  const t = ADA_TARGETS[target];
  return mgdl >= t.min && (t.maxInclusive ? mgdl <= t.max : mgdl < t.max);
}

const percent = (count: number, total: number): number | null => (total > 0 ? (count / total) * 100 : null);

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Sample standard deviation (n − 1), null below two values. */
export function sampleSd(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

export interface SummaryReading {
  type: GlucoseType;
  value: number;
}

/**
 * The statistics of `readings` (mg/dL) over a range of `days` days. `target` is the ADA target
 * `inTarget` is judged by: a meal tag for a per-tag summary, 'overall' (70–180) otherwise;
 * `inOwnTarget` always judges each reading by its own tag.
 */
export function glucoseSummary(readings: readonly SummaryReading[], days: number, target: TargetKey = 'overall'): GlucoseSummary {
  const values = readings.map((r) => r.value);
  const count = values.length;
  const bandCounts: Record<Band, number> = { veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 };
  let inTarget = 0;
  let inOwnTarget = 0;
  let below70 = 0;
  let below54 = 0;
  let min: number | null = null;
  let max: number | null = null;
  for (const r of readings) {
    bandCounts[bandOf(r.value)] += 1;
    if (isInTarget(r.value, target)) inTarget += 1;
    if (isInTarget(r.value, r.type)) inOwnTarget += 1;
    if (r.value < CONSENSUS.low) below70 += 1;
    if (r.value < CONSENSUS.veryLow) below54 += 1;
    if (min === null || r.value < min) min = r.value;
    if (max === null || r.value > max) max = r.value;
  }
  const m = mean(values);
  const enough = count >= MIN_READINGS_FOR_VARIABILITY;
  const sd = enough ? sampleSd(values) : null;
  const bands = Object.fromEntries(BANDS.map((b) => [b, { count: bandCounts[b], percent: percent(bandCounts[b], count) }])) as GlucoseSummary['bands'];
  return {
    count,
    readingsPerDay: days > 0 ? count / days : 0,
    mean: m,
    median: median(values),
    sd,
    cv: sd !== null && m !== null && m > 0 ? (sd / m) * 100 : null,
    min,
    max,
    bands,
    inTarget: { count: inTarget, percent: percent(inTarget, count) },
    inOwnTarget: { count: inOwnTarget, percent: percent(inOwnTarget, count) },
    lows: { below70, below54 },
  };
}

/**
 * Rounds percentages to whole numbers that still add up to 100 (largest remainder), so a
 * distribution bar or table never reads 99 % or 101 %. Nulls stay null.
 */
export function roundPercents<K extends string>(percents: Record<K, number | null>): Record<K, number | null> {
  const keys = Object.keys(percents) as K[];
  const present = keys.filter((k) => percents[k] !== null);
  const out = { ...percents };
  if (present.length === 0) return out;
  const floors = present.map((k) => Math.floor(percents[k] as number));
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  const order = present.map((k, i) => ({ k, i, rem: (percents[k] as number) - (floors[i] as number) })).sort((a, b) => b.rem - a.rem);
  for (const { k, i } of order) {
    out[k] = (floors[i] as number) + (left > 0 ? 1 : 0);
    if (left > 0) left -= 1;
  }
  return out;
}
