// When the staff worklist (issue 18) names a reason for a patient, and why those levels.
//
// Glucose levels are the international consensus on time in range (Battelino et al., "Clinical
// targets for continuous glucose monitoring data interpretation", Diabetes Care 2019;42:1593):
//   - level 2 hypoglycaemia below 54 mg/dL (3.0 mmol/L): clinically significant, acted on at once;
//   - time below 70 mg/dL (3.9 mmol/L): target under 4 %;
//   - time in range 70–180 mg/dL (3.9–10.0 mmol/L): target over 70 %, and over 50 % for older or
//     high-risk patients; the worklist names those under 50 %, who miss even the lower target.
// Patients here record finger-stick readings, not a sensor's, so "time" is the share of readings:
// a reading stands for the moment it was taken. That is a screening figure, and the page says so.
//
// The other reasons are the ward's own rules of thumb, documented in the README:
//   - sparse data: readings on fewer than half of the period's days (a pattern cannot be judged);
//   - no data: no reading for 3 days (72 h), or none ever;
//   - missed doses: under 80 % of the expected doses marked taken, the adherence level most studies
//     of medication adherence use; only prescriptions written as a meal pattern ("1-0-1") say how
//     many doses a day are expected, so only they count;
//   - rising mean: the period's mean at least 10 % and 10 mg/dL (0.6 mmol/L) above the previous
//     period's of the same length, each with at least 3 readings.
//
// The order (worklist-priority.ts, and the same in the statement of server/repositories/worklist.ts)
// is by clinical weight, never by how many reasons a patient has: a patient's most urgent reason
// places them (the reasons in the order of WORKLIST_REASON_CODES), and among patients with the same
// one its weight decides, the larger first:
//   - severe-low: the hypoglycaemia risk of each reading below 54 mg/dL, summed. The risk is
//     Kovatchev's r(BG) = 10 · (1.509 · (ln(BG)^1.084 − 5.381))², BG in mg/dL (Kovatchev et al.,
//     "Symmetrization of the blood glucose measurement scale and its applications", Diabetes Care
//     1997;20:1655; the basis of the Low Blood Glucose Index for finger-stick readings, Diabetes Care
//     1998;21:1870). It rises steeply as glucose falls (53 weighs 19, 45 weighs 29, 25 weighs 76), so
//     more lows and lower lows weigh more: two of 53 outweigh one of 45, one of 25 outweighs two of 53.
//     Any level-2 low ranks above any pattern of level-1 lows (40 % of readings below 70, none below
//     54, comes after a single 53): the International Hypoglycaemia Study Group calls level 2
//     "clinically significant" hypoglycaemia to act on at once (Diabetes Care 2017;40:155), level 1 an
//     alert value; the 40 % patient still leads the next tier.
//   - low-time: the readings below 70 mg/dL beyond the 4 % the consensus target allows
//     (below − 4 % × readings): how far over the target, counted in readings. A share of few readings
//     is weak evidence and weighs little (1 low of 4 readings weighs 0.84; 6 of 45, 13 %, weighs 4.2),
//     and with finger-sticks each low is an event of its own, as trials count them.
//   - no-data: the days since the last reading; a patient who never sent one counts from the day
//     they were registered (both are how long the team has been without a reading from them).
//   - low-tir: the readings out of range beyond the 50 % the worklist accepts (50 % × readings −
//     in range); missed-doses: the doses short of 80 % (80 % × expected − taken); both how far under
//     the level, counted in readings or doses, so that few of them weigh little, as for low-time.
//   - rising-mean: the rise of the mean, mg/dL.
//   - sparse-data: the period's days without a reading. Sparse data is last and only ever breaks
//     ties: it never lifts a patient above one whose figures are worse, and it lowers the others'
//     weights by itself (fewer readings, smaller counts).
// Between patients equal so far, the next reasons' weights decide in the same order, then the lower
// lowest reading, then the name and hospital number. Weights are compared rounded to 3 decimals, so
// the database and this code order alike despite floating-point sums.
import type { WORKLIST_REASON_CODES } from '../../schemas/admin.ts';

export interface WorklistRules {
  severeLowMgDl: number;
  lowMgDl: number;
  highMgDl: number;
  lowTimeAbovePercent: number;
  inRangeBelowPercent: number;
  daysWithReadingsBelowPercent: number;
  noDataDays: number;
  dosesTakenBelowPercent: number;
  meanRisePercent: number;
  meanRiseMinMgDl: number;
  minReadingsForMean: number;
}

export const WORKLIST_RULES: WorklistRules = {
  severeLowMgDl: 54,
  lowMgDl: 70,
  highMgDl: 180,
  lowTimeAbovePercent: 4,
  inRangeBelowPercent: 50,
  daysWithReadingsBelowPercent: 50,
  noDataDays: 3,
  dosesTakenBelowPercent: 80,
  meanRisePercent: 10,
  meanRiseMinMgDl: 10,
  minReadingsForMean: 3,
};

export type ReasonCode = (typeof WORKLIST_REASON_CODES)[number];
