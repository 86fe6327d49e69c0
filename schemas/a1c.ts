// Estimated A1c from the mean glucose, and the lab HbA1c it is shown beside.
//
//   GMI (%)   = 3.31 + 0.02392 × mean mg/dL      (Bergenstal et al., Diabetes Care 2018)
//   eA1c (%)  = (mean mg/dL + 46.7) / 28.7       (ADAG, Nathan et al., Diabetes Care 2008)
//
// Both were derived from dense glucose data over weeks (GMI from ≥ 14 days of CGM). Fingersticks are
// sparse and cluster around meals, so an estimate is shown only with at least 30 readings taken on at
// least 14 different local days; otherwise it is null with the reason (too few readings first).
export const MIN_READINGS_FOR_ESTIMATE = 30;
export const MIN_DAYS_FOR_ESTIMATE = 14;

export type EstimateReason = 'too-few-readings' | 'too-few-days';
export interface Estimate {
  value: number | null;
  reason?: EstimateReason;
}

export const gmiPercent = (meanMgDl: number): number => 3.31 + 0.02392 * meanMgDl;
export const eA1cPercent = (meanMgDl: number): number => (meanMgDl + 46.7) / 28.7;

/** Whether `count` readings over `distinctDays` local days are enough for an estimate, and why not. */
export function estimateGate(count: number, distinctDays: number): EstimateReason | null {
  if (count < MIN_READINGS_FOR_ESTIMATE) return 'too-few-readings';
  if (distinctDays < MIN_DAYS_FOR_ESTIMATE) return 'too-few-days';
  return null;
}

/** GMI and eA1c for a mean over `count` readings on `distinctDays` days (null with the reason when not shown). */
export function a1cEstimates(meanMgDl: number | null, count: number, distinctDays: number): { gmi: Estimate; eA1c: Estimate } {
  const reason = estimateGate(count, distinctDays);
  if (reason !== null || meanMgDl === null) {
    const r = reason ?? 'too-few-readings';
    return { gmi: { value: null, reason: r }, eA1c: { value: null, reason: r } };
  }
  return { gmi: { value: gmiPercent(meanMgDl) }, eA1c: { value: eA1cPercent(meanMgDl) } };
}

/** A lab test name that is glycated haemoglobin (HbA1c, A1C, "Glycated hemoglobin"). */
export function isHbA1c(name: string): boolean {
  return /\b(hb\s*a1c|a1c|glyc(osyl)?ated\s+ha?emoglobin)\b/i.test(name);
}

/**
 * An HbA1c result as NGSP % (the unit GMI is in). IFCC results in mmol/mol convert with the
 * NGSP–IFCC master equation: % = 0.09148 × mmol/mol + 2.152.
 */
export function hbA1cPercent(value: number, unit: string | null | undefined): number {
  return unit && /mmol\s*\/\s*mol/i.test(unit) ? 0.09148 * value + 2.152 : value;
}
