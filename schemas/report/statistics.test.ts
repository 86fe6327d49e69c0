import { describe, expect, it } from 'vitest';
import type { GlucoseType } from '../glucose.ts';
import { a1cEstimates, eA1cPercent, gmiPercent, hbA1cPercent, isHbA1c, MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE } from './a1c.ts';
import { MIN_PROFILE_READINGS, quantile, timeOfDayProfile, asTaken, bandEdgesIn, labDecimals, labSeriesDecimals, labValue, targetStatus, bandOf, BANDS, glucoseSummary, inferredUnit, isBelowTarget, isInTarget, median, MIN_READINGS_FOR_VARIABILITY, roundPercents, sampleSd, storedMgDl } from './statistics.ts';
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

describe('International Consensus bands of readings taken in mmol/L (issue 16)', () => {
  const edges = [
    [2.9, 'veryLow'],
    [3.0, 'low'],
    [3.8, 'low'],
    [3.9, 'inRange'],
    [10.0, 'inRange'],
    [10.1, 'high'],
    [13.9, 'high'],
    [14.0, 'veryHigh'],
  ] as const;
  it.each(edges)('%s mmol/L is %s, said by the reading', (mmol, band) => {
    expect(bandOf({ value: storedMgDl(mmol), unit: 'mmol/L', enteredValue: mmol })).toBe(band);
  });
  it.each(edges)('%s mmol/L is %s, read from the stored mg/dL alone', (mmol, band) => {
    // 10.0 mmol/L is stored as 180.2 mg/dL: judged in mg/dL that was "above 180" (the bug).
    expect(bandOf(storedMgDl(mmol))).toBe(band);
  });
  it('10.0 and 13.9 mmol/L: in range and high, although stored as 180.2 and 250.4 mg/dL', () => {
    expect([storedMgDl(10.0), storedMgDl(13.9)]).toEqual([180.2, 250.4]);
    expect(asTaken(180.2)).toEqual({ unit: 'mmol/L', value: 10 });
    expect(bandOf(180.2)).toBe('inRange');
    expect(bandOf(250.4)).toBe('high');
  });
  it('every one-decimal mmol/L value a meter shows is judged as typed, from its stored mg/dL alone', () => {
    const published = (v: number) => (v < 3.0 ? 'veryLow' : v < 3.9 ? 'low' : v <= 10.0 ? 'inRange' : v <= 13.9 ? 'high' : 'veryHigh');
    for (let tenths = 11; tenths <= 333; tenths++) {
      const mmol = tenths / 10;
      const stored = storedMgDl(mmol);
      // 29 of them store as whole mg/dL (1.5 → 27.0) and are read as mg/dL: the same band, below.
      if (!Number.isInteger(stored)) expect(asTaken(stored).value, `${mmol} mmol/L`).toBe(mmol);
      expect(bandOf(stored), `${mmol} mmol/L`).toBe(published(mmol));
      expect(isInTarget(stored, 'Fasting'), `${mmol} mmol/L fasting`).toBe(mmol >= 4.4 && mmol <= 7.2);
      expect(isInTarget(stored, 'Postprandial'), `${mmol} mmol/L after a meal`).toBe(mmol >= 3.9 && mmol < 10.0);
      expect(isInTarget(stored, 'Random'), `${mmol} mmol/L random`).toBe(mmol >= 3.9 && mmol <= 10.0);
    }
  });
  it('every whole mg/dL value is judged in mg/dL', () => {
    for (let mgdl = 20; mgdl <= 600; mgdl++) expect(asTaken(mgdl)).toEqual({ unit: 'mg/dL', value: mgdl });
  });
  it('tells the unit a stored value was typed in', () => {
    expect(inferredUnit(180)).toBe('mg/dL');
    expect(inferredUnit(180.2)).toBe('mmol/L'); // 10.0 × 18.016, one decimal
    expect(inferredUnit(180.4)).toBe('mg/dL'); // 10.0 mmol/L reads back as 180.2, not 180.4
    expect(inferredUnit(150.5)).toBe('mg/dL');
  });
  it('a reading that says its unit is judged by what was typed', () => {
    expect(bandOf({ value: 180.2, unit: 'mmol/L', enteredValue: 10.0 })).toBe('inRange');
    expect(bandOf({ value: 182, unit: 'mmol/L', enteredValue: 10.1 })).toBe('high');
    expect(bandOf({ value: 182, unit: 'mg/dL', enteredValue: 182 })).toBe('high');
    // A reading with a unit and no typed value: its stored value in that unit.
    expect(asTaken({ value: 180.2, unit: 'mmol/L' })).toEqual({ unit: 'mmol/L', value: 10 });
  });
  it('lows are < 70 mg/dL / < 3.9 mmol/L, level 2 < 54 / < 3.0', () => {
    const isLow = (v: number) => ['low', 'veryLow'].includes(bandOf(v));
    const isVeryLow = (v: number) => bandOf(v) === 'veryLow';
    expect([69, 70, 53.9, 54].map((v) => [isLow(v), isVeryLow(v)])).toEqual([[true, false], [false, false], [true, true], [true, false]]);
    expect([3.8, 3.9, 2.9, 3.0].map((v) => [isLow(storedMgDl(v)), isVeryLow(storedMgDl(v))])).toEqual([[true, false], [false, false], [true, true], [true, false]]);
  });
  it('below the meal target: 79 mg/dL or 4.3 mmol/L fasting', () => {
    expect(isBelowTarget(79, 'Fasting')).toBe(true);
    expect(isBelowTarget(80, 'Fasting')).toBe(false);
    expect(isBelowTarget(storedMgDl(4.3), 'Fasting')).toBe(true);
    expect(isBelowTarget(storedMgDl(4.4), 'Fasting')).toBe(false); // 79.3 mg/dL, on target as 4.4 mmol/L
  });
  it('publishes the edges of each band in each unit', () => {
    expect(BANDS.map((b) => bandEdgesIn(b, 'mg/dL'))).toEqual([[null, 54], [54, 69], [70, 180], [181, 250], [null, 250]]);
    expect(BANDS.map((b) => bandEdgesIn(b, 'mmol/L'))).toEqual([[null, 3.0], [3.0, 3.8], [3.9, 10.0], [10.1, 13.9], [null, 13.9]]);
  });
  it('a summary of a mmol/L patient counts 10.0 in range and 13.9 high, not very high', () => {
    const s = glucoseSummary([10.0, 13.9, 3.8, 2.9].map((mmol) => ({ type: 'Random' as const, value: storedMgDl(mmol), unit: 'mmol/L' as const, enteredValue: mmol })), 1);
    expect(Object.fromEntries(BANDS.map((b) => [b, s.bands[b].count]))).toEqual({ veryLow: 1, low: 1, inRange: 1, high: 1, veryHigh: 0 });
    expect(s.lows).toEqual({ below70: 2, below54: 1 });
    expect(s.inTarget.count).toBe(1);
  });
});

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
  it('judges a reading against its own meal tag as the dashboard does', () => {
    expect(targetStatus(148, 'Fasting')).toBe('above');
    expect(targetStatus(79, 'Fasting')).toBe('below');
    expect(targetStatus(180, 'Postprandial')).toBe('above');
    expect(targetStatus(storedMgDl(9.9), 'Postprandial')).toBe('in');
    expect(targetStatus(storedMgDl(10.0), 'Random')).toBe('in');
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
