// Glucose statistics: one place for the dashboard, the staff review and the report. Pure functions on
// readings stored in mg/dL. Every judgement in them (bands, targets, lows) is made by the judging
// module, judgement.ts, on each reading as shown in the report's unit.
//
// Variability (SD, CV) needs at least 30 readings: with fewer, a sample SD of fingersticks says more
// about when the patient happened to measure than about their glucose.
import type { GlucoseUnit, GlucoseValue } from '../schemas/glucose-units.ts';
import type { GlucoseType } from '../schemas/glucose.ts';
import { bandOf, BANDS, targetStatus, type Band } from '../schemas/judgement.ts';
import type { GlucoseSummary } from './types.ts';

export const MIN_READINGS_FOR_VARIABILITY = 30;

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

export interface SummaryReading extends GlucoseValue {
  readonly type: GlucoseType;
}

/**
 * The statistics of `readings` (mg/dL as stored) over a range of `days` days, each reading judged as
 * shown in `unit`: the consensus bands and lows, and `inTarget`, each reading against the target of
 * its own meal tag (for a per-tag summary, that tag's target). Lowest and highest are readings, so
 * they print as typed.
 */
export function glucoseSummary(readings: readonly SummaryReading[], days: number, unit: GlucoseUnit): GlucoseSummary {
  const values = readings.map((r) => r.value);
  const count = values.length;
  const bandCounts: Record<Band, number> = { veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 };
  let inTarget = 0;
  let min: SummaryReading | null = null;
  let max: SummaryReading | null = null;
  for (const r of readings) {
    bandCounts[bandOf(r, unit)] += 1;
    if (targetStatus(r, r.type, unit) === 'in') inTarget += 1;
    if (min === null || r.value < min.value) min = r;
    if (max === null || r.value > max.value) max = r;
  }
  const m = mean(values);
  const enough = count >= MIN_READINGS_FOR_VARIABILITY;
  const sd = enough ? sampleSd(values) : null;
  const bands = Object.fromEntries(BANDS.map((b) => [b, { count: bandCounts[b], percent: percent(bandCounts[b], count) }])) as GlucoseSummary['bands'];
  const value = (r: SummaryReading | null) => (r === null ? null : { value: r.value, unit: r.unit ?? null, enteredValue: r.enteredValue ?? null });
  return {
    count,
    readingsPerDay: days > 0 ? count / days : 0,
    mean: m,
    median: median(values),
    sd,
    cv: sd !== null && m !== null && m > 0 ? (sd / m) * 100 : null,
    min: value(min),
    max: value(max),
    bands,
    inTarget: { count: inTarget, percent: percent(inTarget, count) },
    lows: { below70: bandCounts.low + bandCounts.veryLow, below54: bandCounts.veryLow },
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
    const values = readings
      .filter((r) => r.minutes >= start * 60 && r.minutes < end * 60)
      .map((r) => r.value)
      .sort((a, b) => a - b);
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
 * A share of readings as printed (docs/requirements.md §11): the nearest whole percent, except that a
 * share that is not none never prints as 0 % ("<1 %") and one that is not all never as 100 % (">99 %").
 * Each share is rounded on its own, so equal counts always print the same percentage (the shares of
 * one period may then add up to 99 or 101).
 */
export type PercentShown = { kind: 'none' } | { kind: 'whole'; value: number } | { kind: 'under1' } | { kind: 'over99' };

export function percentShown(percent: number | null): PercentShown {
  if (percent === null) return { kind: 'none' };
  const whole = Math.round(percent);
  if (percent > 0 && whole === 0) return { kind: 'under1' };
  if (percent < 100 && whole === 100) return { kind: 'over99' };
  return { kind: 'whole', value: whole };
}
