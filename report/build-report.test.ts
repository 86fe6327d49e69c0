import { describe, expect, it } from 'vitest';
import { buildReport, previousRange } from './build-report.ts';
import { fixtureInput, kolkata } from './testing/fixture.ts';

// The numbers below are computed by hand in testing/fixture.ts.
describe('buildReport on the known data set', () => {
  const m = buildReport(fixtureInput(), 'mg/dL');

  it('places readings on the patient’s local days (05:00 in Kolkata is the evening before in UTC)', () => {
    expect(m.days).toBe(14);
    expect(m.today).toBe('2026-03-15');
    expect(m.overall.count).toBe(42);
    expect(m.readings[0]).toMatchObject({ date: '2026-03-01', time: '05:00', minutes: 300, type: 'Fasting', value: 100, band: 'inRange' });
    expect(m.readings.at(-1)).toMatchObject({ date: '2026-03-14', time: '23:45', type: 'Random', value: 250, band: 'high' });
    expect(m.daysWithReadings).toBe(14);
  });

  it('computes the overall statistics', () => {
    const o = m.overall;
    expect(o.readingsPerDay).toBe(3);
    expect(o.mean).toBe(150);
    expect(o.median).toBe(150);
    expect(o.sd).toBeCloseTo(Math.sqrt((7 * 25200) / 41), 10);
    expect(o.sd).toBeCloseTo(65.59, 2);
    expect(o.cv).toBeCloseTo(43.73, 2);
    expect([o.min?.value, o.max?.value]).toEqual([50, 250]);
    expect(Object.fromEntries(Object.entries(o.bands).map(([k, v]) => [k, v.count]))).toEqual({ veryLow: 7, low: 0, inRange: 21, high: 14, veryHigh: 0 });
    expect(o.bands.inRange.percent).toBe(50);
    expect(o.lows).toEqual({ below70: 7, below54: 7 });
    // "In target" overall: each reading against its own tag's target (7 fasting + 7 after a meal + 0 random).
    expect(o.inTarget.count).toBe(14);
  });

  it('computes per-tag statistics against the meal targets', () => {
    expect(m.byType.Fasting).toMatchObject({ count: 14, mean: 120, median: 120, sd: null, inTarget: { count: 7, percent: 50 } });
    expect(m.byType.Postprandial).toMatchObject({ count: 14, mean: 180, inTarget: { count: 7, percent: 50 } });
    expect(m.byType.Random).toMatchObject({ count: 14, mean: 150, inTarget: { count: 0, percent: 0 }, lows: { below70: 7, below54: 7 } });
    expect(m.byType.Fasting.readingsPerDay).toBe(1);
  });

  it('shows GMI and eA1c (42 readings on 14 days)', () => {
    expect(m.gmi.value).toBeCloseTo(6.898, 10);
    expect(m.eA1c.value).toBeCloseTo(196.7 / 28.7, 10);
    expect(m.latestHbA1c).toEqual({ value: 7.4, unit: '%', percent: 7.4, recordedAt: kolkata('2026-03-10', '09:00') });
  });

  it('compares with the previous 14 days', () => {
    expect(m.previous.range).toEqual({ from: '2026-02-15', to: '2026-02-28' });
    expect(m.previous.overall).toMatchObject({ count: 10, mean: 200 });
  });

  it('computes adherence, symptoms, labs, checks, logbook and appointments', () => {
    expect(m.adherence).toEqual([
      { prescrNo: 'RX-2', name: 'Gliclazide 40 mg tablet', dose: '0-0-1', expected: 7, taken: 7, percent: 100 },
      { prescrNo: 'RX-1', name: 'Metformin 500 mg tablet', dose: '1-0-1', expected: 28, taken: 21, percent: 75 },
    ]);
    expect(m.symptoms.map((s) => [s.symptom, s.count])).toEqual([
      ['Fatigue', 3],
      ['Shakiness', 1],
    ]);
    expect(m.labs.map((l) => [l.name, l.latest.value, l.previous?.value ?? null])).toEqual([
      ['Creatinine', 1.1, null],
      ['HbA1c', 7.4, 7.9],
      ['LDL cholesterol', 96, null],
    ]);
    expect(m.checks).toEqual({ plannedDays: 3, daysWithReading: 3, missedDays: [] });
    expect(m.logbook).toHaveLength(14);
    // Each cell's readings with their band (the fixture's readings carry no typed value).
    const cell = (value: number, band: string) => ({ value, unit: null, enteredValue: null, band });
    expect(m.logbook[0]).toEqual({ date: '2026-03-01', fasting: [cell(100, 'inRange')], postprandial: [cell(160, 'inRange')], random: [cell(50, 'veryLow')] });
    expect(m.logbook[1]).toEqual({ date: '2026-03-02', fasting: [cell(140, 'inRange')], postprandial: [cell(200, 'high')], random: [cell(250, 'high')] });
    expect(m.appointments.map((a) => a.doctor)).toEqual(['Dr. Meera Rao (Endocrinology)']);
  });

  it('lists every low with its time, value, tag and the symptoms reported that day (issue 16)', () => {
    const m = buildReport(fixtureInput(), 'mg/dL');
    expect(m.lows.map((l) => [l.date, l.time, l.type, l.value, l.band, l.symptoms])).toEqual([
      ['2026-03-01', '23:45', 'Random', 50, 'veryLow', []],
      ['2026-03-03', '23:45', 'Random', 50, 'veryLow', ['Shakiness']],
      ['2026-03-05', '23:45', 'Random', 50, 'veryLow', ['Fatigue']],
      ['2026-03-07', '23:45', 'Random', 50, 'veryLow', []],
      ['2026-03-09', '23:45', 'Random', 50, 'veryLow', []],
      ['2026-03-11', '23:45', 'Random', 50, 'veryLow', ['Fatigue']],
      ['2026-03-13', '23:45', 'Random', 50, 'veryLow', []],
    ]);
  });

  it('hides GMI with too few readings or days, and says why', () => {
    const input = fixtureInput();
    const short = buildReport({ ...input, range: { from: '2026-03-01', to: '2026-03-09' } }, 'mg/dL');
    expect(short.overall.count).toBe(27);
    expect(short.gmi).toEqual({ value: null, reason: 'too-few-readings' });
    const tenDays = buildReport({ ...input, range: { from: '2026-03-01', to: '2026-03-10' } }, 'mg/dL');
    expect(tenDays.overall.count).toBe(30);
    expect(tenDays.overall.sd).not.toBeNull();
    expect(tenDays.gmi).toEqual({ value: null, reason: 'too-few-days' });
    expect(tenDays.eA1c.reason).toBe('too-few-days');
  });

  it('is empty but valid for a range without data', () => {
    const empty = buildReport({ ...fixtureInput(), range: { from: '2027-01-01', to: '2027-01-07' } }, 'mg/dL');
    expect(empty.overall.count).toBe(0);
    expect(empty.overall.mean).toBeNull();
    expect(empty.logbook).toEqual([]);
    expect(empty.adherence).toEqual([]); // after "today": nothing expected yet
  });
});

describe('buildReport in a unit', () => {
  it('judges every reading, band and low as shown in the report’s unit', () => {
    const input = fixtureInput();
    const at = input.readings[0]?.recordedAt ?? '';
    const readings = [
      { _id: 'r-181', type: 'Postprandial' as const, value: 181, unit: 'mg/dL' as const, enteredValue: 181, recordedAt: at },
      { _id: 'r-69', type: 'Random' as const, value: 69.5, unit: 'mg/dL' as const, enteredValue: 69.5, recordedAt: at },
      { _id: 'r-79', type: 'Fasting' as const, value: 79, unit: 'mg/dL' as const, enteredValue: 79, recordedAt: at },
    ];
    const mg = buildReport({ ...input, readings }, 'mg/dL');
    const mmol = buildReport({ ...input, readings }, 'mmol/L');
    expect(mg.unit).toBe('mg/dL');
    expect(mg.readings.map((r) => [r.id, r.band, r.target])).toEqual([
      ['r-181', 'high', 'above'],
      ['r-69', 'low', 'below'],
      ['r-79', 'inRange', 'below'],
    ]);
    // Printed 10.0, 3.9 and 4.4 in mmol/L: in range, in range, on the fasting target.
    expect(mmol.readings.map((r) => [r.id, r.band, r.target])).toEqual([
      ['r-181', 'inRange', 'above'],
      ['r-69', 'inRange', 'in'],
      ['r-79', 'inRange', 'in'],
    ]);
    expect(mg.lows.map((l) => l.id)).toEqual(['r-69']);
    expect(mmol.lows).toEqual([]);
  });
});

describe('previousRange', () => {
  it('is the same number of days just before', () => {
    expect(previousRange({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(previousRange({ from: '2026-03-01', to: '2026-03-30' })).toEqual({ from: '2026-01-30', to: '2026-02-28' });
  });
});
