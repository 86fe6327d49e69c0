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
