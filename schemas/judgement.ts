// The one judging module. Every output that puts a glucose value beside a judgement (a band, a
// target word or colour, a share of readings, a FHIR interpretation, advice, a worklist reason, an
// alert) takes both the number it prints and the judgement from here, so the two cannot disagree.
//
// The rule: a reading is judged AS SHOWN — the number printed, in the unit printed, against the edges
// published in that unit. What is printed for a reading in a unit:
//   - taken in that unit: the number as typed (10.0 mmol/L stays 10.0; 53.9 mg/dL stays 53.9);
//   - taken in the other unit: converted (mg/dL ÷ 18.016) and rounded as a meter shows that unit
//     (whole mg/dL, mmol/L to one decimal).
// The consensus and the ADA publish their edges in each unit for the values a meter shows, and the
// two sets are not exact conversions of each other (4.4 mmol/L is 79.3 mg/dL, below the 80 of the
// fasting target). No one judgement per reading can agree with what both units print, so each unit
// judges what it prints: 181 mg/dL is "High" in mg/dL and, printed 10.0 in mmol/L, "In range" there;
// 10.0 typed in mmol/L is "In range" in both (180 mg/dL). In the unit a reading was taken in, its
// judgement is always the one its meter's value gets.
//
// International Consensus on Time in Range (Battelino et al., Diabetes Care 2019;42:1593–1603):
//               mg/dL        mmol/L
//   veryLow     < 54         < 3.0        (level 2 hypoglycaemia)
//   low         54–69        3.0–3.8      (level 1)
//   inRange     70–180       3.9–10.0
//   high        181–250      10.1–13.9    (level 1 hyperglycaemia)
//   veryHigh    > 250        > 13.9       (level 2)
// A value between two published values (69.5 mg/dL typed so) falls into the band whose inequality it
// meets (< 70: low), never rounded into a milder one.
//
// Targets by meal tag ("In target"; ADA Standards of Care, section 6, glycemic goals for capillary
// glucose; a level 1 low is never on target):
//                 mg/dL               mmol/L
//   Fasting       80–130              4.4–7.2
//   Postprandial  70 to below 180     3.9 to below 10.0   (ADA: peak after a meal < 180)
//   Random        70–180              3.9–10.0            (no ADA meal target: the consensus range)
import { ENTRY_DECIMALS, MG_DL_PER_MMOL_L, shownGlucose, type GlucoseUnit, type Judgeable, type Shown } from './glucose-units.ts';
import type { GlucoseType } from './glucose.ts';

/** The consensus edges in mg/dL (chart lines; judging goes through `bandOf`). */
export const CONSENSUS = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;

/**
 * The consensus edges as published in each unit: below `veryLow` is very low, below `low` low, up to
 * `high` in range, up to `veryHigh` high, above it very high.
 */
export const CONSENSUS_EDGES = {
  'mg/dL': CONSENSUS,
  'mmol/L': { veryLow: 3.0, low: 3.9, high: 10.0, veryHigh: 13.9 },
} as const satisfies Record<GlucoseUnit, Record<keyof typeof CONSENSUS, number>>;

const roundTo = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

export type Band = 'veryLow' | 'low' | 'inRange' | 'high' | 'veryHigh';
export const BANDS = ['veryLow', 'low', 'inRange', 'high', 'veryHigh'] as const satisfies readonly Band[];

/** The consensus band of a shown value `v` in `unit`. */
function bandOfShown(v: number, unit: GlucoseUnit): Band {
  const e = CONSENSUS_EDGES[unit];
  if (v < e.veryLow) return 'veryLow';
  if (v < e.low) return 'low';
  if (v <= e.high) return 'inRange';
  if (v <= e.veryHigh) return 'high';
  return 'veryHigh';
}

/** The International Consensus band of a reading as shown in `unit`. */
export const bandOf = (r: Judgeable, unit: GlucoseUnit): Band => bandOfShown(shownGlucose(r, unit).value, unit);

/** Level 1 or 2 hypoglycaemia as shown in `unit` (< 70 mg/dL, < 3.9 mmol/L). */
export const isLow = (r: Judgeable, unit: GlucoseUnit): boolean => {
  const band = bandOf(r, unit);
  return band === 'low' || band === 'veryLow';
};

/**
 * A band's edges as the consensus publishes them in `unit`: [lowest, highest] value of the band at
 * the unit's precision ("54–69", "10.1–13.9"); for the open bands, [null, the edge] (< 54, > 250).
 */
export function bandEdgesIn(band: Band, unit: GlucoseUnit): [number | null, number] {
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

export interface Target {
  min: number;
  max: number;
  /** false: the upper bound itself is off target (after a meal: below 180). */
  maxInclusive: boolean;
}

/** The target of each meal tag as published in each unit (see the header). */
export const TAG_TARGETS = {
  'mg/dL': {
    Fasting: { min: 80, max: 130, maxInclusive: true },
    Postprandial: { min: 70, max: 180, maxInclusive: false },
    Random: { min: 70, max: 180, maxInclusive: true },
  },
  'mmol/L': {
    Fasting: { min: 4.4, max: 7.2, maxInclusive: true },
    Postprandial: { min: 3.9, max: 10.0, maxInclusive: false },
    Random: { min: 3.9, max: 10.0, maxInclusive: true },
  },
} as const satisfies Record<GlucoseUnit, Record<GlucoseType, Target>>;

export type TargetStatus = 'below' | 'in' | 'above';

/** Where a reading stands, as shown in `unit`, against the target of its own meal tag. */
export function targetStatus(r: Judgeable, tag: GlucoseType, unit: GlucoseUnit): TargetStatus {
  const v = shownGlucose(r, unit).value;
  const t: Target = TAG_TARGETS[unit][tag];
  if (v < t.min) return 'below';
  return (t.maxInclusive ? v <= t.max : v < t.max) ? 'in' : 'above';
}

/** What a dashboard, a list or a table says of one reading: its band, and its tag's target within range. */
export type ReadingWord = 'very-low' | 'low' | 'in-target' | 'below-target' | 'above-target' | 'high' | 'very-high';

/**
 * One word for a reading, as shown in `unit`: a consensus band outside the range (very low, low,
 * high, very high), and within it the target of the meal tag (a fasting 75 mg/dL is "Below target",
 * a fasting 148 "Above target", an after-meal 180 "Above target").
 */
export function readingWord(r: Judgeable, tag: GlucoseType, unit: GlucoseUnit): ReadingWord {
  switch (bandOf(r, unit)) {
    case 'veryLow':
      return 'very-low';
    case 'low':
      return 'low';
    case 'veryHigh':
      return 'very-high';
    case 'high':
      return 'high';
    case 'inRange': {
      const status = targetStatus(r, tag, unit);
      return status === 'in' ? 'in-target' : status === 'below' ? 'below-target' : 'above-target';
    }
  }
}

/** HL7 v3 ObservationInterpretation codes the FHIR export uses. */
export type Interpretation = 'LL' | 'L' | 'N' | 'H' | 'HH';

/**
 * The FHIR interpretation of a reading as shown in `unit`, against its own meal tag's target and the
 * consensus levels: LL level 2 low, L below the tag's target, HH level 2 high, H above the tag's
 * target, N on it. It agrees with the reference range `fhirReferenceRange` gives.
 */
export function interpretation(r: Judgeable, tag: GlucoseType, unit: GlucoseUnit): Interpretation {
  const band = bandOf(r, unit);
  if (band === 'veryLow') return 'LL';
  if (band === 'veryHigh') return 'HH';
  const status = targetStatus(r, tag, unit);
  return status === 'below' ? 'L' : status === 'above' ? 'H' : 'N';
}

/**
 * The tag's target as inclusive bounds at the precision `r` is shown with, as FHIR's reference range
 * reads them (its low and high are inclusive): after a meal "below 180" is 70–179 for a whole mg/dL,
 * 70–179.9 for one typed with a decimal, so the range and the interpretation never disagree.
 */
export function inclusiveTarget(r: Judgeable, tag: GlucoseType, unit: GlucoseUnit): { low: number; high: number; decimals: number } {
  const t: Target = TAG_TARGETS[unit][tag];
  const { decimals } = shownGlucose(r, unit);
  const step = 10 ** -decimals;
  return { low: t.min, high: t.maxInclusive ? t.max : roundTo(t.max - step, decimals), decimals };
}

// Advice after a reading (the dashboard's dialog, docs/requirements.md §11), graded by severity. The
// lows follow the consensus levels (ADA Standards of Care, section 6): level 1 below 70 mg/dL, level
// 2 below 54. The highs: above 250 mg/dL (13.9 mmol/L, the consensus' level 2, where sick-day
// guidance asks for a ketone check), an urgent level the hospital sets (default 400 mg/dL), and the
// top of a meter's range (600 mg/dL, 33.3 mmol/L: meters show "HI" above it, and it is the glucose
// of the hyperosmolar hyperglycaemic state in the hyperglycaemic crises consensus, Umpierrez et al.,
// Diabetes Care 2024;47:1257–1275).
export type AdviceGrade = 'veryLow' | 'low' | 'veryHigh' | 'urgentHigh' | 'meterTop';

/** The levels a hospital may set, in mg/dL. */
export interface AdviceLevels {
  urgentHighMgDl: number;
}

export const DEFAULT_ADVICE_LEVELS: AdviceLevels = { urgentHighMgDl: 400 };
/** Where a hospital's urgent level may lie: above the consensus' level 2 and below a meter's top. */
export const URGENT_HIGH_RANGE = { min: 300, max: 500 } as const;

/** The top of a meter's range in each unit (whole mg/dL, mmol/L to one decimal, rounded down). */
export const METER_TOP = { 'mg/dL': 600, 'mmol/L': 33.3 } as const satisfies Record<GlucoseUnit, number>;

/** A level in mg/dL as the edge a value shown in `unit` is compared with (rounded as that unit shows). */
export const levelIn = (mgdl: number, unit: GlucoseUnit): number => shownGlucose(mgdl, unit).value;

/** The advice a reading calls for as shown in `unit`, or undefined (in range or merely high). */
export function adviceGrade(r: Judgeable, unit: GlucoseUnit, levels: AdviceLevels = DEFAULT_ADVICE_LEVELS): AdviceGrade | undefined {
  const band = bandOf(r, unit);
  if (band === 'veryLow' || band === 'low') return band;
  if (band !== 'veryHigh') return undefined;
  const v = shownGlucose(r, unit).value;
  if (v >= METER_TOP[unit]) return 'meterTop';
  if (v >= levelIn(levels.urgentHighMgDl, unit)) return 'urgentHigh';
  return 'veryHigh';
}

/**
 * A value shown in `unit` with as many decimals as it takes (up to three) to sit on the same side of
 * `edgeMgDl` as `judgedBelow` says: for a value judged in another unit and also printed in this one
 * (a severe-low alert says the typed 53.9 mg/dL "(2.99 mmol/L)", never "(3.0 mmol/L)" beside "below 3.0").
 */
export function shownAgreeing(r: Judgeable, unit: GlucoseUnit, edgeMgDl: number, judgedBelow: boolean): Shown {
  const first = shownGlucose(r, unit);
  const edge = levelIn(edgeMgDl, unit);
  const agrees = (v: number) => v < edge === judgedBelow;
  if (agrees(first.value)) return first;
  const mgdl = typeof r === 'number' ? r : r.value;
  const exact = unit === 'mmol/L' ? mgdl / MG_DL_PER_MMOL_L : mgdl;
  for (let decimals = first.decimals + 1; decimals <= 3; decimals += 1) {
    const value = judgedBelow ? Math.floor(exact * 10 ** decimals) / 10 ** decimals : Math.ceil(exact * 10 ** decimals) / 10 ** decimals;
    if (agrees(value)) return { value, decimals };
  }
  return first;
}
