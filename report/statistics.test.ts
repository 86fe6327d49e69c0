import { describe, expect, it } from 'vitest';
import { formatGlucose, MG_DL_PER_MMOL_L, mgDlToMmolL, mmolLToMgDl, storedMgDl, toUnit } from '../schemas/glucose-units.ts';
import type { GlucoseType } from '../schemas/glucose.ts';
import { a1cEstimates, eA1cPercent, gmiPercent, hbA1cPercent, isHbA1c, MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE } from '../schemas/a1c.ts';
import {
  glucoseSummary,
  labDecimals,
  labSeriesDecimals,
  labValue,
  median,
  MIN_PROFILE_READINGS,
  MIN_READINGS_FOR_VARIABILITY,
  percentShown,
  quantile,
  sampleSd,
  timeOfDayProfile,
} from './statistics.ts';

const r = (value: number, type: GlucoseType = 'Random') => ({ type, value });

describe('the time-of-day profile (issue 16)', () => {
  it('quantiles interpolate between ranks', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([10, 20], 0.75)).toBe(17.5);
    expect(quantile([], 0.5)).toBeNull();
  });
  it('gives per 3-hour band the median and the middle half, and nothing where readings are too few', () => {
    const at = (h: number, value: number) => ({ minutes: h * 60 + 10, value });
    const bands = timeOfDayProfile([
      // 06:00–09:00, five readings: 90 100 110 120 200
      ...[100, 90, 200, 110, 120].map((v) => at(7, v)),
      // 12:00–15:00, four readings: too few
      ...[150, 160, 170, 180].map((v) => at(13, v)),
      at(23, 300),
    ]);
    expect(bands).toHaveLength(8);
    expect(bands[2]).toEqual({ start: 6, end: 9, count: 5, median: 110, q1: 100, q3: 120, min: 90, max: 200 });
    expect(bands[4]).toEqual({ start: 12, end: 15, count: 4, median: null, q1: null, q3: null, min: 150, max: 180 });
    expect(bands[7]?.count).toBe(1);
    expect(bands[0]).toEqual({ start: 0, end: 3, count: 0, median: null, q1: null, q3: null, min: null, max: null });
    expect(MIN_PROFILE_READINGS).toBe(5);
  });
});

describe('lab results and meal targets in every output (issue 16)', () => {
  it('shows a lab result with the decimals it was given, up to 3, without float noise', () => {
    expect([0.74, 7.1, 96, 1.125, 0.0034, 6.9 + 0.2].map(labDecimals)).toEqual([2, 1, 0, 3, 3, 1]);
    expect(labValue(6.9 + 0.2)).toBe(7.1);
  });
  it('shows results of one test side by side with the same decimals: 7.0 beside 7.1', () => {
    expect(labSeriesDecimals([7, 7.1])).toBe(1);
    expect(labSeriesDecimals([0.745, 0.8, 1])).toBe(3);
    expect(labSeriesDecimals([96, 101])).toBe(0);
    expect(labSeriesDecimals([])).toBe(0);
  });
});

describe('glucoseSummary', () => {
  it('is empty without readings: no mean, no percentages', () => {
    const s = glucoseSummary([], 14, 'mg/dL');
    expect(s.count).toBe(0);
    expect(s.readingsPerDay).toBe(0);
    expect([s.mean, s.median, s.sd, s.cv, s.min, s.max, s.inTarget.percent, s.bands.inRange.percent]).toEqual([null, null, null, null, null, null, null, null]);
    expect(s.lows).toEqual({ below70: 0, below54: 0 });
  });

  it('counts, means, medians and bands a hand-computed set', () => {
    // 50 veryLow, 60 low, 100 and 150 inRange, 200 high, 300 veryHigh; 6 readings over 3 days.
    const s = glucoseSummary(
      [50, 60, 100, 150, 200, 300].map((v) => r(v)),
      3,
      'mg/dL',
    );
    expect(s.count).toBe(6);
    expect(s.readingsPerDay).toBe(2);
    expect(s.mean).toBeCloseTo(860 / 6, 10);
    expect(s.median).toBe(125); // (100 + 150) / 2
    expect(s.min?.value).toBe(50);
    expect(s.max?.value).toBe(300);
    expect(s.bands.veryLow.count).toBe(1);
    expect(s.bands.veryLow.percent).toBeCloseTo(100 / 6, 10);
    expect(s.bands.low.count).toBe(1);
    expect(s.bands.inRange.count).toBe(2);
    expect(s.bands.inRange.percent).toBeCloseTo(100 / 3, 10);
    expect(s.bands.high.count).toBe(1);
    expect(s.bands.veryHigh.count).toBe(1);
    expect(s.lows).toEqual({ below70: 2, below54: 1 });
    expect(s.inTarget.count).toBe(2);
    expect(s.inTarget.percent).toBeCloseTo(100 / 3, 10);
  });

  it('judges "In target" by each reading’s own tag, the overall summary included', () => {
    // 140 fasting is off its 80–130 target, 140 after a meal is on target, 75 random on, 75 fasting off.
    const readings = [r(140, 'Fasting'), r(140, 'Postprandial'), r(75, 'Random'), r(75, 'Fasting')];
    expect(glucoseSummary(readings, 1, 'mg/dL').inTarget).toEqual({ count: 2, percent: 50 });
    const fasting = glucoseSummary(
      readings.filter((x) => x.type === 'Fasting'),
      1,
      'mg/dL',
    );
    expect(fasting.inTarget).toEqual({ count: 0, percent: 0 });
  });

  it('judges each reading as shown in the summary’s unit (judgement.ts)', () => {
    // 181 mg/dL prints as 10.0 mmol/L: high in mg/dL, in range in mmol/L; 10.0 typed in mmol/L is in range in both.
    const readings = [r(181), { type: 'Random' as const, value: storedMgDl(10), unit: 'mmol/L' as const, enteredValue: 10 }];
    expect(glucoseSummary(readings, 1, 'mg/dL').bands.high.count).toBe(1);
    expect(glucoseSummary(readings, 1, 'mmol/L').bands.inRange.count).toBe(2);
    // 69.5 mg/dL typed so is below 70 in mg/dL; it prints 3.9 in mmol/L, which is not a low.
    const low = [{ type: 'Random' as const, value: 69.5, unit: 'mg/dL' as const, enteredValue: 69.5 }];
    expect(glucoseSummary(low, 1, 'mg/dL').lows.below70).toBe(1);
    expect(glucoseSummary(low, 1, 'mmol/L').lows.below70).toBe(0);
  });

  it('keeps the lowest and highest readings as typed', () => {
    const s = glucoseSummary([{ type: 'Random', value: 53.9, unit: 'mg/dL', enteredValue: 53.9 }, r(200)], 1, 'mg/dL');
    expect(s.min).toEqual({ value: 53.9, unit: 'mg/dL', enteredValue: 53.9 });
    expect(s.max).toEqual({ value: 200, unit: null, enteredValue: null });
  });

  it('gives SD and CV only from 30 readings on, as the sample SD', () => {
    expect(MIN_READINGS_FOR_VARIABILITY).toBe(30);
    // 15 × 100 and 15 × 200: mean 150, each deviation 50 → sample SD √(30·2500/29), CV = SD/150.
    const thirty = [...Array<number>(15).fill(100), ...Array<number>(15).fill(200)].map((v) => r(v));
    const s = glucoseSummary(thirty, 30, 'mg/dL');
    expect(s.mean).toBe(150);
    expect(s.sd).toBeCloseTo(Math.sqrt(75000 / 29), 10);
    expect(s.sd).toBeCloseTo(50.8548, 3);
    expect(s.cv).toBeCloseTo((Math.sqrt(75000 / 29) / 150) * 100, 10);
    expect(s.cv).toBeCloseTo(33.903, 2);
    const twentyNine = glucoseSummary(thirty.slice(1), 30, 'mg/dL');
    expect(twentyNine.count).toBe(29);
    expect(twentyNine.sd).toBeNull();
    expect(twentyNine.cv).toBeNull();
    expect(twentyNine.mean).not.toBeNull();
  });

  it('median and sample SD of small sets', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(sampleSd([100, 120, 140, 160])).toBeCloseTo(Math.sqrt(2000 / 3), 10);
    expect(sampleSd([100])).toBeNull();
  });
});

describe('percentShown', () => {
  it('rounds each share on its own, so equal counts print equal percentages', () => {
    // Two readings each of 88: 2.27 % → 2 % for both (the largest remainder gave one 2 % and one 3 %).
    const share = (count: number, total: number) => percentShown((count / total) * 100);
    expect(share(2, 88)).toEqual(share(2, 88));
    expect(share(2, 88)).toEqual({ kind: 'whole', value: 2 });
  });
  it('never prints 0 % for some or 100 % for not all', () => {
    expect(percentShown((1 / 250) * 100)).toEqual({ kind: 'under1' }); // a level-2 low was "0 % (1)"
    expect(percentShown(0)).toEqual({ kind: 'whole', value: 0 });
    expect(percentShown((249 / 250) * 100)).toEqual({ kind: 'over99' });
    expect(percentShown(100)).toEqual({ kind: 'whole', value: 100 });
    expect(percentShown(0.5)).toEqual({ kind: 'whole', value: 1 });
    expect(percentShown(99.49)).toEqual({ kind: 'whole', value: 99 });
    expect(percentShown(null)).toEqual({ kind: 'none' });
  });
});

describe('GMI and estimated A1c', () => {
  it('follow the published formulas', () => {
    expect(gmiPercent(150)).toBeCloseTo(3.31 + 0.02392 * 150, 12);
    expect(gmiPercent(150)).toBeCloseTo(6.898, 3);
    expect(eA1cPercent(150)).toBeCloseTo(196.7 / 28.7, 12);
    // ADAG table: mean 154 mg/dL ≈ A1c 7 %; Bergenstal's table: 154 mg/dL → GMI 7.0 %.
    expect(eA1cPercent(154)).toBeCloseTo(7.0, 1);
    expect(gmiPercent(154)).toBeCloseTo(7.0, 1);
    // ADAG: 126 mg/dL ≈ 6 %, 183 ≈ 8 %, 212 ≈ 9 %.
    expect(eA1cPercent(126)).toBeCloseTo(6.0, 1);
    expect(eA1cPercent(183)).toBeCloseTo(8.0, 1);
    expect(eA1cPercent(212)).toBeCloseTo(9.0, 1);
  });

  it('are shown only with 30 readings on 14 different days, and say why not', () => {
    expect([MIN_READINGS_FOR_ESTIMATE, MIN_DAYS_FOR_ESTIMATE]).toEqual([30, 14]);
    expect(a1cEstimates(150, 30, 14)).toEqual({ gmi: { value: gmiPercent(150) }, eA1c: { value: eA1cPercent(150) } });
    expect(a1cEstimates(150, 29, 20).gmi).toEqual({ value: null, reason: 'too-few-readings' });
    expect(a1cEstimates(150, 60, 13).eA1c).toEqual({ value: null, reason: 'too-few-days' });
    expect(a1cEstimates(null, 0, 0).gmi).toEqual({ value: null, reason: 'too-few-readings' });
  });

  it('recognises HbA1c and converts IFCC mmol/mol to NGSP %', () => {
    expect(['HbA1c', 'HBA1C', 'Hb A1c', 'A1C', 'Glycated haemoglobin', 'Glycosylated hemoglobin'].every(isHbA1c)).toBe(true);
    expect(['Haemoglobin', 'LDL cholesterol', 'Fasting plasma glucose'].some(isHbA1c)).toBe(false);
    expect(hbA1cPercent(7.2, '%')).toBe(7.2);
    expect(hbA1cPercent(53, 'mmol/mol')).toBeCloseTo(7.0, 1); // 53 mmol/mol ≈ 7.0 %
    expect(hbA1cPercent(48, 'mmol/mol')).toBeCloseTo(6.5, 1);
  });
});

describe('units', () => {
  it('convert with 18.016 and round mmol/L to one decimal', () => {
    expect(MG_DL_PER_MMOL_L).toBe(18.016);
    expect(mgDlToMmolL(180.16)).toBeCloseTo(10, 10);
    expect(mmolLToMgDl(10)).toBeCloseTo(180.16, 10);
    expect(toUnit(180, 'mmol/L')).toBe(10.0); // 9.991
    expect(toUnit(70, 'mmol/L')).toBe(3.9); // 3.885
    expect(toUnit(54, 'mmol/L')).toBe(3.0); // 2.997
    expect(toUnit(126.6, 'mg/dL')).toBe(127);
    expect(formatGlucose(70, 'mmol/L', 'es')).toBe('3,9');
    expect(formatGlucose(180, 'mmol/L', 'en')).toBe('10.0');
    expect(formatGlucose(1234, 'mg/dL', 'en')).toBe('1,234');
  });
});
