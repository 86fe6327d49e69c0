// Glucose statistics: one place for the dashboard, the staff review and the report. Pure functions on
// readings stored in mg/dL, each judged in the unit and precision it was taken in (issue 16).
//
// International Consensus on Time in Range (Battelino et al., Diabetes Care 2019) publishes its edges
// in each unit, for the values a meter shows (whole mg/dL, mmol/L to one decimal):
//               mg/dL        mmol/L
//   veryLow     < 54         < 3.0
//   low         54–69        3.0–3.8
//   inRange     70–180       3.9–10.0
//   high        181–250      10.1–13.9
//   veryHigh    > 250        > 13.9
// Lows are counted as level 1+2 (< 70 mg/dL, < 3.9 mmol/L) and level 2 (< 54, < 3.0).
//
// A reading is judged as the meter showed it: 10.0 mmol/L is stored as 180.2 mg/dL, and judged as
// 10.0 mmol/L (in range), never as 180.2 > 180. The unit a reading was taken in is the one it carries
// (`unit`, with `enteredValue` as typed), or, for a reading that carries none, the one its stored
// value shows: the app stores mmol/L as mg/dL to one decimal (mmol/L × 18.016), so a value that is
// not a whole number and reads back to itself through one decimal of mmol/L was typed in mmol/L.
//
// ADA meal targets (Standards of Care, glycemic goals for capillary glucose):
//                 mg/dL          mmol/L
//   Fasting       80–130         4.4–7.2
//   Postprandial  70–179 (< 180) 3.9–9.9 (< 10.0)   (a reading below the low edge is a low,
//                                                    never on target; 180 is in the consensus
//                                                    range but not on the postprandial target)
//   Random        70–180         3.9–10.0           (no ADA meal target; the consensus range)
//   overall       70–180         3.9–10.0
//
// Variability (SD, CV) needs at least 30 readings: with fewer, a sample SD of fingersticks says more
// about when the patient happened to measure than about their glucose.
import { ENTRY_UNITS, MG_DL_PER_MMOL_L, storedMgDl, type EntryUnit, type GlucoseType } from '../glucose.ts';
import type { GlucoseSummary } from './types.ts';

export const MIN_READINGS_FOR_VARIABILITY = 30;

/** The consensus edges in mg/dL (labels, chart lines; judging goes through `bandOf`). */
export const CONSENSUS = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;

export { ENTRY_UNITS, storedMgDl, type EntryUnit };

/**
 * The consensus edges as published in each unit: below `veryLow` is very low, below `low` low, up to
 * `high` in range, up to `veryHigh` high, above it very high (values at the unit's precision).
 */
export const CONSENSUS_EDGES = {
  'mg/dL': CONSENSUS,
  'mmol/L': { veryLow: 3.0, low: 3.9, high: 10.0, veryHigh: 13.9 },
} as const satisfies Record<EntryUnit, Record<keyof typeof CONSENSUS, number>>;

/** Decimals a meter shows in each unit (whole mg/dL, mmol/L to one decimal). */
export const ENTRY_DECIMALS = { 'mg/dL': 0, 'mmol/L': 1 } as const satisfies Record<EntryUnit, number>;

/** A stored reading, or its value alone (mg/dL): what the judging functions take. */
export type Judgeable = number | { readonly value: number; readonly unit?: EntryUnit | null | undefined; readonly enteredValue?: number | null | undefined };

const roundTo = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/** The unit a stored mg/dL value was typed in when the reading does not say (see the header). */
export function inferredUnit(mgdl: number): EntryUnit {
  if (Number.isInteger(mgdl)) return 'mg/dL';
  return storedMgDl(roundTo(mgdl / MG_DL_PER_MMOL_L, 1)) === mgdl ? 'mmol/L' : 'mg/dL';
}

/**
 * A reading as it was taken: its unit and its value in that unit, as typed (a stored mmol/L value is
 * read back to its one decimal). The edges compare with it as they are written, so whole values fall
 * into the published ranges and a value between two (53.9 mg/dL) into the one whose inequality it
 * meets (< 54: very low), never rounded into a milder band.
 */
export function asTaken(r: Judgeable): { unit: EntryUnit; value: number } {
  const mgdl = typeof r === 'number' ? r : r.value;
  const given = typeof r === 'number' ? undefined : r;
  const unit = given?.unit ?? inferredUnit(mgdl);
  if (given?.unit && typeof given.enteredValue === 'number') return { unit, value: given.enteredValue };
  return { unit, value: unit === 'mmol/L' ? roundTo(mgdl / MG_DL_PER_MMOL_L, ENTRY_DECIMALS['mmol/L']) : mgdl };
}

export type Band = keyof GlucoseSummary['bands'];
export const BANDS = ['veryLow', 'low', 'inRange', 'high', 'veryHigh'] as const satisfies readonly Band[];

/**
 * The International Consensus band of a reading, judged in the unit it was taken in: below
 * `veryLow`, below `low`, up to and with `high`, up to and with `veryHigh`, above (edges above).
 */
export function bandOf(r: Judgeable): Band {
  const { unit, value } = asTaken(r);
  const e = CONSENSUS_EDGES[unit];
  if (value < e.veryLow) return 'veryLow';
  if (value < e.low) return 'low';
  if (value <= e.high) return 'inRange';
  if (value <= e.veryHigh) return 'high';
  return 'veryHigh';
}

/**
 * A band's edges as the consensus publishes them in `unit`: [lowest, highest] value of the band at
 * the unit's precision ("54–69", "10.1–13.9"); for the open bands, [null, the edge] (< 54, > 250).
 * The web report and the PDF print these, so both say the same.
 */
export function bandEdgesIn(band: Band, unit: EntryUnit): [number | null, number] {
  const e = CONSENSUS_EDGES[unit];
  const f = 10 ** ENTRY_DECIMALS[unit];
  const step = (v: number, by: number) => Math.round(v * f + by) / f;
  switch (band) {
    case 'veryLow':
      return [null, e.veryLow];
    case 'low':
      return [e.veryLow, step(e.low, -1)];
    case 'inRange':
      return [e.low, e.high];
    case 'high':
      return [step(e.high, 1), e.veryHigh];
    case 'veryHigh':
      return [null, e.veryHigh];
  }
}

export type TargetKey = GlucoseType | 'overall';

/** The ADA target of a meal tag in mg/dL; `maxInclusive` false means the upper bound itself is off target. */
export const ADA_TARGETS = {
  Fasting: { min: 80, max: 130, maxInclusive: true },
  Postprandial: { min: 70, max: 180, maxInclusive: false },
  Random: { min: 70, max: 180, maxInclusive: true },
  overall: { min: 70, max: 180, maxInclusive: true },
} as const satisfies Record<TargetKey, { min: number; max: number; maxInclusive: boolean }>;

/** The same targets as published in mmol/L. */
export const ADA_TARGETS_MMOL = {
  Fasting: { min: 4.4, max: 7.2, maxInclusive: true },
  Postprandial: { min: 3.9, max: 10.0, maxInclusive: false },
  Random: { min: 3.9, max: 10.0, maxInclusive: true },
  overall: { min: 3.9, max: 10.0, maxInclusive: true },
} as const satisfies Record<TargetKey, { min: number; max: number; maxInclusive: boolean }>;

const targetsIn = (unit: EntryUnit) => (unit === 'mmol/L' ? ADA_TARGETS_MMOL : ADA_TARGETS);

/** Whether a reading is on the ADA target of `target`, judged in the unit it was taken in. */
export function isInTarget(r: Judgeable, target: TargetKey): boolean {
  const { unit, value } = asTaken(r);
  const t = targetsIn(unit)[target];
  return value >= t.min && (t.maxInclusive ? value <= t.max : value < t.max);
}

/** Below the low edge of the ADA target of `target` (e.g. 75 mg/dL fasting), in the reading's unit. */
export function isBelowTarget(r: Judgeable, target: TargetKey): boolean {
  const { unit, value } = asTaken(r);
  return value < targetsIn(unit)[target].min;
}

/** A lab result without binary float noise: 7.1000000000000005 is the 7.1 that was entered. */
export const labValue = (value: number): number => Number(value.toPrecision(12));

/**
 * The decimals a lab result is shown with in every output (web report, PDF, staff review): as many
 * as it was given, up to 3, so a creatinine of 0.74 is never shown as 0.7.
 */
export function labDecimals(value: number): number {
  const digits = /\.(\d+)$/.exec(String(labValue(value)))?.[1]?.length ?? 0;
  return Math.min(3, digits);
}

/**
 * The decimals for results of one test shown together: the most any of them was given (labDecimals),
 * so an HbA1c of 7 stands as "7.0 %" beside "7.1 %", not "7 %".
 */
export function labSeriesDecimals(values: readonly (number | undefined)[]): number {
  return values.reduce<number>((most, v) => (v === undefined ? most : Math.max(most, labDecimals(v))), 0);
}

export type TargetStatus = 'below' | 'in' | 'above';

/** Where a reading stands against the ADA target of its own meal tag (the dashboard's words too). */
export function targetStatus(r: Judgeable, type: GlucoseType): TargetStatus {
  if (isInTarget(r, type)) return 'in';
  return isBelowTarget(r, type) ? 'below' : 'above';
}

const percent = (count: number, total: number): number | null => (total > 0 ? (count / total) * 100 : null);

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The value at `i` of a list known to hold it: a wrong index throws rather than yield NaN in a statistic. */
function valueAt(values: readonly number[], i: number): number {
  const v = values[i];
  if (v === undefined) throw new RangeError(`no value at ${i} of ${values.length}`);
  return v;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? valueAt(s, mid) : (valueAt(s, mid - 1) + valueAt(s, mid)) / 2;
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
  unit?: EntryUnit | null | undefined;
  enteredValue?: number | null | undefined;
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
    const band = bandOf(r);
    bandCounts[band] += 1;
    if (isInTarget(r, target)) inTarget += 1;
    if (isInTarget(r, r.type)) inOwnTarget += 1;
    if (band === 'low' || band === 'veryLow') below70 += 1;
    if (band === 'veryLow') below54 += 1;
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

/** The p-th quantile (0–1) of sorted values, linear between the closest ranks (Hyndman–Fan type 7). */
export function quantile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const low = valueAt(sorted, lo);
  return low + (valueAt(sorted, hi) - low) * (at - lo);
}

/** The time-of-day profile's bands, hours of the patient's own clock. */
export const PROFILE_BAND_HOURS = 3;
/** Fewer readings than this in a band: its median and spread are not drawn, only its readings. */
export const MIN_PROFILE_READINGS = 5;

export interface ProfileBand {
  /** First and last hour (exclusive) of the band: 0–3, 3–6, … 21–24. */
  start: number;
  end: number;
  count: number;
  /** mg/dL; null below MIN_PROFILE_READINGS readings (too few to say), min and max always given. */
  median: number | null;
  q1: number | null;
  q3: number | null;
  min: number | null;
  max: number | null;
}

/**
 * The daily profile of fingerstick readings (issue 16), the Ambulatory Glucose Profile's idea made
 * honest for a few readings a day: per 3-hour band of the patient's clock the median and the middle
 * half (25th–75th percentile) with the number of readings behind them, and nothing drawn where fewer
 * than MIN_PROFILE_READINGS readings fall: never a smooth curve through gaps. The web report and the
 * PDF both draw this.
 */
export function timeOfDayProfile(readings: readonly { minutes: number; value: number }[]): ProfileBand[] {
  const bands: ProfileBand[] = [];
  for (let start = 0; start < 24; start += PROFILE_BAND_HOURS) {
    const end = start + PROFILE_BAND_HOURS;
    const values = readings.filter((r) => r.minutes >= start * 60 && r.minutes < end * 60).map((r) => r.value).sort((a, b) => a - b);
    const enough = values.length >= MIN_PROFILE_READINGS;
    bands.push({
      start,
      end,
      count: values.length,
      median: enough ? quantile(values, 0.5) : null,
      q1: enough ? quantile(values, 0.25) : null,
      q3: enough ? quantile(values, 0.75) : null,
      min: values[0] ?? null,
      max: values[values.length - 1] ?? null,
    });
  }
  return bands;
}

/**
 * Rounds percentages to whole numbers that still add up to 100 (largest remainder), so a
 * distribution bar or table never reads 99 % or 101 %. Nulls stay null.
 */
export function roundPercents<K extends string>(percents: Record<K, number | null>): Record<K, number | null> {
  const keys = Object.keys(percents) as K[];
  const present = keys.flatMap((k) => {
    const value = percents[k];
    return value === null ? [] : [{ k, value, floor: Math.floor(value) }];
  });
  const out = { ...percents };
  if (present.length === 0) return out;
  let left = 100 - present.reduce((sum, p) => sum + p.floor, 0);
  const order = [...present].sort((a, b) => b.value - b.floor - (a.value - a.floor));
  for (const { k, floor } of order) {
    out[k] = floor + (left > 0 ? 1 : 0);
    if (left > 0) left -= 1;
  }
  return out;
}
