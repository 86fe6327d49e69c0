import { describe, expect, it } from 'vitest';
import type { GlucoseType } from '../glucose.ts';
import { a1cEstimates, eA1cPercent, gmiPercent, hbA1cPercent, isHbA1c, MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE } from './a1c.ts';
import { bandOf, glucoseSummary, isInTarget, median, MIN_READINGS_FOR_VARIABILITY, roundPercents, sampleSd } from './statistics.ts';
import { formatGlucose, mgDlToMmolL, mmolLToMgDl, MG_DL_PER_MMOL_L, toUnit } from './units.ts';

const r = (value: number, type: GlucoseType = 'Random') => ({ type, value });

describe('International Consensus bands', () => {
  it.each([
    [20, 'veryLow'],
    [53, 'veryLow'],
    [53.9, 'veryLow'],
    [54, 'low'],
    [69, 'low'],
    [69.5, 'low'],
    [69.99, 'low'],
    [70, 'inRange'],
    [180, 'inRange'],
    [180.4, 'high'],
    [181, 'high'],
    [250, 'high'],
    [250.1, 'veryHigh'],
    [251, 'veryHigh'],
    [600, 'veryHigh'],
  ] as const)('%s mg/dL is %s', (value, band) => {
    expect(bandOf(value)).toBe(band);
  });
});

describe('ADA meal targets', () => {
  it.each([
    ['Fasting', 79.9, false],
    ['Fasting', 80, true],
    ['Fasting', 130, true],
    ['Fasting', 130.5, false],
    ['Postprandial', 69, false],
    ['Postprandial', 70, true],
    ['Postprandial', 179.9, true],
    ['Postprandial', 180, false],
    ['Random', 69.9, false],
    ['Random', 70, true],
    ['Random', 180, true],
    ['Random', 180.1, false],
    ['overall', 180, true],
    ['overall', 69, false],
  ] as const)('%s %s mg/dL on target: %s', (target, value, expected) => {
    expect(isInTarget(value, target)).toBe(expected);
  });
});

describe('glucoseSummary', () => {
  it('is empty without readings: no mean, no percentages', () => {
    const s = glucoseSummary([], 14);
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
    );
    expect(s.count).toBe(6);
    expect(s.readingsPerDay).toBe(2);
    expect(s.mean).toBeCloseTo(860 / 6, 10);
    expect(s.median).toBe(125); // (100 + 150) / 2
    expect(s.min).toBe(50);
    expect(s.max).toBe(300);
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

  it('judges inTarget by the given tag and inOwnTarget by each reading’s tag', () => {
    // 140 fasting is off its 80–130 target, 140 after a meal is on target, 75 random on, 75 fasting off.
    const readings = [r(140, 'Fasting'), r(140, 'Postprandial'), r(75, 'Random'), r(75, 'Fasting')];
    const s = glucoseSummary(readings, 1);
    expect(s.inTarget.count).toBe(4); // overall: 70–180
    expect(s.inOwnTarget).toEqual({ count: 2, percent: 50 });
    const fasting = glucoseSummary(
      readings.filter((x) => x.type === 'Fasting'),
      1,
      'Fasting',
    );
    expect(fasting.inTarget).toEqual({ count: 0, percent: 0 });
  });

  it('gives SD and CV only from 30 readings on, as the sample SD', () => {
    expect(MIN_READINGS_FOR_VARIABILITY).toBe(30);
    // 15 × 100 and 15 × 200: mean 150, each deviation 50 → sample SD √(30·2500/29), CV = SD/150.
    const thirty = [...Array<number>(15).fill(100), ...Array<number>(15).fill(200)].map((v) => r(v));
    const s = glucoseSummary(thirty, 30);
    expect(s.mean).toBe(150);
    expect(s.sd).toBeCloseTo(Math.sqrt(75000 / 29), 10);
    expect(s.sd).toBeCloseTo(50.8548, 3);
    expect(s.cv).toBeCloseTo((Math.sqrt(75000 / 29) / 150) * 100, 10);
    expect(s.cv).toBeCloseTo(33.903, 2);
    const twentyNine = glucoseSummary(thirty.slice(1), 30);
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

describe('roundPercents', () => {
  it('rounds to whole numbers that add up to 100', () => {
    const out = roundPercents({ a: 100 / 3, b: 100 / 3, c: 100 / 3, d: null });
    expect(out.d).toBeNull();
    expect([out.a, out.b, out.c].reduce((x, y) => (x ?? 0) + (y ?? 0), 0)).toBe(100);
    expect(roundPercents({ a: 12.6, b: 87.4 })).toEqual({ a: 13, b: 87 });
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
