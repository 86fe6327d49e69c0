// The worklist's order as a pure function of each patient's figures, and the words that say why a
// patient stands where they do. The weights, their rationale and their sources are in
// worklist-rules.ts. The database orders the same way in one statement (server/repositories/worklist.ts)
// so that only a page of rows leaves it; server/routes/worklist.db.test.ts checks that both agree.
import { WORKLIST_REASON_CODES } from '../../schemas/admin.ts';
import type { WorklistFacts } from '../repositories/worklist.ts';
import { WORKLIST_RULES, type ReasonCode, type WorklistRules } from './worklist-rules.ts';

/** The figures the order reads. */
export type PriorityFigures = Pick<
  WorklistFacts,
  | 'hospNo'
  | 'name'
  | 'readings'
  | 'severe'
  | 'severeRisk'
  | 'below'
  | 'inRange'
  | 'lowest'
  | 'mean'
  | 'previousMean'
  | 'daysWithReadings'
  | 'lastReadingAt'
  | 'registeredAt'
  | 'expectedDoses'
  | 'takenDoses'
  | 'flags'
>;

/** Why a patient is where they are: the reason that places them, its weight, and the counts behind it. */
export interface Priority {
  /** 1 for the first patient of the whole list (all pages). */
  rank: number;
  /** The most urgent reason, which places the patient; null when there is none. */
  tier: ReasonCode | null;
  /** That reason's weight (worklist-rules.ts), rounded to 3 decimals as compared; 0 without a reason. */
  weight: number;
  /**
   * The counts behind the weight, "count of outOf": readings below 54 of all readings (severe-low),
   * below 70 of all (low-time), in range of all (low-tir), doses taken of expected (missed-doses),
   * days with readings of the period's days (sparse-data); for no-data the whole days without a
   * reading (since registration when there never was one) and outOf null; none for rising-mean.
   */
  count: number | null;
  outOf: number | null;
  /** In English, for logs and API users; the app words it itself from the fields above. */
  summary: string;
}

const DAY = 86_400_000;
const FLAG: Record<ReasonCode, keyof WorklistFacts['flags']> = {
  'severe-low': 'severeLow',
  'low-time': 'lowTime',
  'no-data': 'noData',
  'low-tir': 'lowTir',
  'missed-doses': 'missedDoses',
  'rising-mean': 'risingMean',
  'sparse-data': 'sparseData',
};

/** Rounded as the database rounds a weight before comparing (numeric round, half away from zero: weights are ≥ 0). */
const round3 = (n: number) => Math.round(n * 1000) / 1000;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Kovatchev's hypoglycaemia risk of one reading (mg/dL): 10 · f², f = 1.509 · (ln(BG)^1.084 − 5.381)
 * when f < 0 (below 112.5 mg/dL), else 0. The statement sums it over the readings below 54 mg/dL.
 */
export function lowGlucoseRisk(mgdl: number): number {
  const f = 1.509 * (Math.log(Math.max(mgdl, 1)) ** 1.084 - 5.381);
  return f < 0 ? 10 * f * f : 0;
}

/** Days from `since` to `now`, as a fraction (the no-data weight). */
const daysSince = (since: Date, now: Date) => (now.getTime() - since.getTime()) / DAY;

/** Each reason's weight for this patient (0 for a reason the patient does not have), rounded as compared. */
export function weightsOf(f: PriorityFigures, days: number, now: Date, rules: WorklistRules = WORKLIST_RULES): Record<ReasonCode, number> {
  const raw: Record<ReasonCode, number> = {
    'severe-low': f.severeRisk,
    'low-time': f.below - (f.readings * rules.lowTimeAbovePercent) / 100,
    'no-data': daysSince(f.lastReadingAt ?? f.registeredAt, now),
    'low-tir': (f.readings * rules.inRangeBelowPercent) / 100 - f.inRange,
    'missed-doses': (f.expectedDoses * rules.dosesTakenBelowPercent) / 100 - f.takenDoses,
    'rising-mean': f.mean !== null && f.previousMean !== null ? f.mean - f.previousMean : 0,
    'sparse-data': days - f.daysWithReadings,
  };
  const out = { ...raw };
  for (const code of WORKLIST_REASON_CODES) out[code] = f.flags[FLAG[code]] ? round3(raw[code]) : 0;
  return out;
}

/** The order of the worklist: negative when `a` comes before `b`. */
export function comparePriority(a: PriorityFigures, b: PriorityFigures, days: number, now: Date, rules: WorklistRules = WORKLIST_RULES): number {
  const wa = weightsOf(a, days, now, rules);
  const wb = weightsOf(b, days, now, rules);
  for (const code of WORKLIST_REASON_CODES) {
    const fa = a.flags[FLAG[code]];
    const fb = b.flags[FLAG[code]];
    if (fa !== fb) return fa ? -1 : 1;
    if (wa[code] !== wb[code]) return wb[code] - wa[code];
  }
  if (a.lowest !== b.lowest) {
    if (a.lowest === null) return 1;
    if (b.lowest === null) return -1;
    return a.lowest - b.lowest;
  }
  // Code-point order, as the statement's `collate "C"`: the same whatever the database's locale.
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.hospNo < b.hospNo ? -1 : a.hospNo > b.hospNo ? 1 : 0;
}

/** A copy of `list` in the worklist's order. */
export function sortByPriority<T extends PriorityFigures>(list: readonly T[], days: number, now: Date, rules: WorklistRules = WORKLIST_RULES): T[] {
  return [...list].sort((a, b) => comparePriority(a, b, days, now, rules));
}

/** The most urgent reason the patient has, or null. */
export const tierOf = (f: Pick<PriorityFigures, 'flags'>): ReasonCode | null => WORKLIST_REASON_CODES.find((code) => f.flags[FLAG[code]]) ?? null;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const pct = (part: number, whole: number) => round1((part * 100) / whole);

/** Why the patient at `rank` stands there. */
export function priorityOf(f: PriorityFigures, rank: number, days: number, now: Date, rules: WorklistRules = WORKLIST_RULES): Priority {
  const tier = tierOf(f);
  const weight = tier === null ? 0 : weightsOf(f, days, now, rules)[tier];
  const at = (count: number | null, outOf: number | null, summary: string): Priority => ({ rank, tier, weight, count, outOf, summary });
  switch (tier) {
    case 'severe-low':
      return at(
        f.severe,
        f.readings,
        `Level-2 lows first: ${plural(f.severe, 'reading')} below ${rules.severeLowMgDl} mg/dL, lowest ${round1(f.lowest ?? 0)} mg/dL; each weighs its hypoglycaemia risk, the lower the more (weight ${weight})`,
      );
    case 'low-time':
      return at(
        f.below,
        f.readings,
        `Time below range: ${f.below} of ${plural(f.readings, 'reading')} below ${rules.lowMgDl} mg/dL (${pct(f.below, f.readings)} %), ${weight} readings beyond the ${rules.lowTimeAbovePercent} % the target allows`,
      );
    case 'no-data': {
      const whole = Math.max(0, Math.floor(daysSince(f.lastReadingAt ?? f.registeredAt, now)));
      const since = whole === 0 ? 'today' : `${plural(whole, 'day')} ago`;
      return at(whole, null, f.lastReadingAt ? `No data: no reading for ${plural(whole, 'day')}` : `No data: no reading since registration ${since}`);
    }
    case 'low-tir':
      return at(
        f.inRange,
        f.readings,
        `Time in range: ${f.inRange} of ${plural(f.readings, 'reading')} in ${rules.lowMgDl}–${rules.highMgDl} mg/dL (${pct(f.inRange, f.readings)} %), ${weight} readings short of ${rules.inRangeBelowPercent} %`,
      );
    case 'missed-doses':
      return at(
        f.takenDoses,
        f.expectedDoses,
        `Missed doses: ${f.takenDoses} of ${plural(f.expectedDoses, 'dose')} marked taken (${pct(f.takenDoses, f.expectedDoses)} %), ${weight} doses short of ${rules.dosesTakenBelowPercent} %`,
      );
    case 'rising-mean':
      return at(null, null, `Rising mean: up ${round1(weight)} mg/dL on the ${days} days before`);
    case 'sparse-data':
      return at(f.daysWithReadings, days, `Sparse data only: readings on ${f.daysWithReadings} of ${days} days`);
    case null:
      return at(null, null, 'Nothing to act on: by the lowest reading, then by name');
  }
}
