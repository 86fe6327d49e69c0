import { describe, expect, it } from 'vitest';
import { glucoseStats } from './stats.ts';
import { doseHistories, labSeries, splitAppointments, symptomsByDay } from './summaries.ts';

const g = (type: 'Fasting' | 'Postprandial' | 'Random', value: number) => ({ type, value });

describe('glucoseStats', () => {
  it('has no mean or percentage without readings', () => {
    expect(glucoseStats([])).toEqual({ count: 0, mean: null, inTargetPercent: null, below70: 0, below54: 0 });
  });

  it('fasting uses 80–130, bounds included', () => {
    // 79 out, 80 in, 130 in, 131 out, 100 in → 3 of 5 = 60 %; mean (79+80+130+131+100)/5 = 104
    const s = glucoseStats([79, 80, 130, 131, 100].map((v) => g('Fasting', v)));
    expect(s).toEqual({ count: 5, mean: 104, inTargetPercent: 60, below70: 0, below54: 0 });
  });

  it('after a meal and random use 70–180; counts lows below 70 and below 54', () => {
    // 69 low (out), 70 in, 180 in, 181 out, 53 very low (out), 54 low but not very low (out)
    const s = glucoseStats([g('Postprandial', 69), g('Random', 70), g('Postprandial', 180), g('Random', 181), g('Random', 53), g('Postprandial', 54)]);
    expect(s.count).toBe(6);
    expect(s.mean).toBeCloseTo((69 + 70 + 180 + 181 + 53 + 54) / 6, 10);
    expect(s.inTargetPercent).toBeCloseTo((2 / 6) * 100, 10);
    expect(s.below70).toBe(3);
    expect(s.below54).toBe(1);
  });

  it('overall judges each reading by its own type: 140 is out when fasting, in after a meal', () => {
    const s = glucoseStats([g('Fasting', 140), g('Postprandial', 140), g('Random', 75), g('Fasting', 75)]);
    // in: Postprandial 140, Random 75 → 2 of 4
    expect(s.inTargetPercent).toBe(50);
    expect(s.mean).toBe(107.5);
  });
});

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12);
const iso = (ms: number) => new Date(ms).toISOString();

describe('summaries', () => {
  it('counts doses per prescription over 7 and 30 days, with the last taken time', () => {
    const doses = [
      { _id: '1', prescrNo: 'A', takenAt: iso(NOW - 1 * DAY) },
      { _id: '2', prescrNo: 'A', takenAt: iso(NOW - 6.9 * DAY) },
      { _id: '3', prescrNo: 'A', takenAt: iso(NOW - 7 * DAY) },
      { _id: '4', prescrNo: 'A', takenAt: iso(NOW - 29 * DAY) },
      { _id: '5', prescrNo: 'A', takenAt: iso(NOW - 31 * DAY) },
      { _id: '6', prescrNo: 'B', takenAt: iso(NOW - 40 * DAY) },
    ];
    const h = doseHistories(doses, NOW);
    expect(h.get('A')).toEqual({ last7Days: 2, last30Days: 4, lastTakenAt: iso(NOW - DAY) });
    expect(h.get('B')).toEqual({ last7Days: 0, last30Days: 0, lastTakenAt: iso(NOW - 40 * DAY) });
    expect(h.get('C')).toBeUndefined();
  });

  it('gives each lab test its latest and previous result', () => {
    const t = (id: string, name: string, value: number, daysAgo: number) => ({ _id: id, name, value, unit: '%', recordedAt: iso(NOW - daysAgo * DAY) });
    const series = labSeries([t('1', 'HbA1c', 7.9, 90), t('2', 'HbA1c', 7.2, 10), t('3', 'eGFR', 92, 20), t('4', 'HbA1c', 8.1, 180)], 'en');
    expect(series.map((s) => [s.name, s.latest._id, s.previous?._id])).toEqual([
      ['eGFR', '3', undefined],
      ['HbA1c', '2', '1'],
    ]);
  });

  it('groups symptoms by day, newest first', () => {
    const s = (id: string, at: number) => ({ _id: id, symptom: 'Headache', recordedAt: iso(at) });
    const days = symptomsByDay([s('a', NOW - 2 * DAY), s('b', NOW), s('c', NOW - 1000)], (x) => x.slice(0, 10));
    expect(days.map(([day, list]) => [day, list.map((x) => x._id)])).toEqual([
      ['2026-11-23', ['b', 'c']],
      ['2026-11-21', ['a']],
    ]);
  });

  it('splits appointments into upcoming (soonest first) and past (latest first)', () => {
    const a = (id: string, at: number) => ({ _id: id, doctor: 'Dr', date: iso(at) });
    const { upcoming, past } = splitAppointments([a('p1', NOW - 5 * DAY), a('u2', NOW + 9 * DAY), a('u1', NOW + DAY), a('p2', NOW - DAY)], NOW);
    expect(upcoming.map((x) => x._id)).toEqual(['u1', 'u2']);
    expect(past.map((x) => x._id)).toEqual(['p2', 'p1']);
  });
});
