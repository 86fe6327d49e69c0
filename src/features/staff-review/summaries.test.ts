import { describe, expect, it } from 'vitest';
import { doseHistories, labSeries, splitAppointments, symptomsByDay } from './summaries.ts';

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
