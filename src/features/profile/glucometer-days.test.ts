import { describe, expect, it } from 'vitest';
import { checkNewDay, formatDay, isPastDate, localIsoDate, sortDays, weekdayName, weekdayOfDate } from './glucometer-days.ts';

describe('glucometer days', () => {
  it('sorts weekdays Monday to Sunday before dates, dates from the earliest', () => {
    expect(sortDays(['2026-12-01', 'Sunday', '2026-11-30', 'Monday', 'Thursday'])).toEqual(['Monday', 'Thursday', 'Sunday', '2026-11-30', '2026-12-01']);
  });

  it('names weekdays and formats dates in the patient language', () => {
    expect(weekdayName('Monday', 'en')).toBe('Monday');
    expect(weekdayName('Sunday', 'es')).toBe('domingo');
    expect(formatDay('2026-11-30', 'en')).toBe('Monday, November 30, 2026');
    expect(formatDay('2026-11-30', 'es')).toBe('lunes, 30 de noviembre de 2026');
    expect(formatDay('not a date', 'en')).toBe('not a date');
  });

  it('knows the weekday of a date whatever the device time zone', () => {
    expect(weekdayOfDate(new Date(Date.UTC(2026, 10, 30)))).toBe('Monday');
    expect(weekdayOfDate(new Date(Date.UTC(2026, 10, 29)))).toBe('Sunday');
  });

  it('refuses a day already chosen, a past date, a date a weekly alert covers, and text that is not a day', () => {
    const existing = ['Monday', '2026-12-02'];
    const today = '2026-11-25';
    expect(checkNewDay(existing, '', today)).toBe('missing');
    expect(checkNewDay(existing, 'Monday', today)).toBe('duplicate');
    expect(checkNewDay(existing, '2026-12-02', today)).toBe('duplicate');
    expect(checkNewDay(existing, '2026-11-24', today)).toBe('past');
    expect(checkNewDay(existing, '2026-11-30', today)).toBe('covered-by-weekday');
    expect(checkNewDay(existing, '2026-02-30', today)).toBe('invalid');
    expect(checkNewDay(existing, 'Tuesday', today)).toBeUndefined();
    expect(checkNewDay(existing, '2026-11-25', today)).toBeUndefined();
  });

  it('marks dates that are over, never weekdays', () => {
    expect(isPastDate('2026-11-24', '2026-11-25')).toBe(true);
    expect(isPastDate('2026-11-25', '2026-11-25')).toBe(false);
    expect(isPastDate('Monday', '2026-11-25')).toBe(false);
  });

  it('gives the device calendar day', () => {
    expect(localIsoDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
