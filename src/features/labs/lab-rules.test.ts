import { describe, expect, it } from 'vitest';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { fromDateInput, groupByTest, parseLabValue, recordedAtFor, sparklinePoints, toDateInput, trendSpan } from './lab-rules.ts';

describe('lab test rules', () => {
  it('reads values with a comma or a point', () => {
    expect(parseLabValue(' 7,1 ')).toEqual({ value: 7.1 });
    expect(parseLabValue('7.')).toEqual({ value: 7 });
    expect(parseLabValue('.5')).toEqual({ value: 0.5 });
    expect(parseLabValue('-2.5')).toEqual({ value: -2.5 });
    expect(parseLabValue('')).toEqual({ error: 'empty' });
    expect(parseLabValue('7,1,2')).toEqual({ error: 'not-a-number' });
    expect(parseLabValue('1e3')).toEqual({ error: 'not-a-number' });
    expect(parseLabValue('2000000000')).toEqual({ error: 'not-a-number' });
  });

  it('reads date inputs as the local day and rejects dates that do not exist', () => {
    expect(fromDateInput('2026-02-28')).toEqual(new Date(2026, 1, 28));
    expect(fromDateInput('2026-02-30')).toBeUndefined();
    expect(fromDateInput('')).toBeUndefined();
    expect(toDateInput(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  it('stores a day at local noon, keeps an edited result’s time on the same day, and never in the future', () => {
    const now = new Date(2026, 10, 22, 9, 30);
    expect(recordedAtFor(new Date(2026, 10, 20), now)).toEqual(new Date(2026, 10, 20, 12));
    expect(recordedAtFor(new Date(2026, 10, 22), now)).toEqual(now);
    const before = new Date(2026, 10, 20, 7, 45);
    expect(recordedAtFor(new Date(2026, 10, 20), now, before)).toBe(before);
    expect(recordedAtFor(new Date(2026, 10, 19), now, before)).toEqual(new Date(2026, 10, 19, 12));
  });

  it('groups results per test (case-insensitive), most recent test first, newest result first', () => {
    const t = (id: string, name: string, day: number): LabTest => ({ _id: id, name, value: 1, recordedAt: new Date(2026, 10, day, 12).toISOString() });
    const groups = groupByTest([t('a', 'HbA1c', 1), t('b', 'LDL', 10), t('c', 'hba1c ', 20)]);
    expect(groups.map((g) => [g.name, g.results.map((r) => r._id)])).toEqual([
      ['hba1c', ['c', 'a']],
      ['LDL', ['b']],
    ]);
  });

  it('describes the span of a trend in the largest unit that fits', () => {
    const d = (days: number) => new Date(2026, 0, 1 + days);
    expect(trendSpan(d(0), d(0))).toEqual({ count: 1, unit: 'day' });
    expect(trendSpan(d(0), d(10))).toEqual({ count: 10, unit: 'day' });
    expect(trendSpan(d(0), d(21))).toEqual({ count: 3, unit: 'week' });
    expect(trendSpan(d(0), d(60))).toEqual({ count: 2, unit: 'month' });
    expect(trendSpan(d(0), d(800))).toEqual({ count: 2, unit: 'year' });
  });

  it('places sparkline points by time and value inside the padding', () => {
    expect(
      sparklinePoints(
        [
          { at: 0, value: 8 },
          { at: 30, value: 6 },
          { at: 40, value: 7 },
        ],
        100,
        40,
        4,
      ),
    ).toEqual([
      { x: 4, y: 4 },
      { x: 73, y: 36 },
      { x: 96, y: 20 },
    ]);
    expect(
      sparklinePoints(
        [
          { at: 0, value: 5 },
          { at: 10, value: 5 },
        ],
        100,
        40,
        4,
      ).map((p) => p.y),
    ).toEqual([20, 20]);
  });
});
