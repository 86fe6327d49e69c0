import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, localDate, localTime, weekdayOf, zonedInstant } from './time.ts';

describe('zonedInstant: a local date and time in a zone → the instant', () => {
  it.each([
    ['2026-11-24', '08:00', 'UTC', '2026-11-24T08:00:00.000Z'],
    ['2026-11-24', '08:00', 'Europe/Madrid', '2026-11-24T07:00:00.000Z'],
    ['2026-07-24', '08:00', 'Europe/Madrid', '2026-07-24T06:00:00.000Z'],
    // Half-hour offset, no daylight saving.
    ['2026-11-24', '08:00', 'Asia/Kolkata', '2026-11-24T02:30:00.000Z'],
    ['2026-11-24', '00:15', 'Asia/Kolkata', '2026-11-23T18:45:00.000Z'],
    ['2026-11-24', '08:00', 'America/Los_Angeles', '2026-11-24T16:00:00.000Z'],
    // New York springs forward on 2026-03-08 at 02:00 and falls back on 2026-11-01 at 02:00.
    ['2026-03-07', '08:00', 'America/New_York', '2026-03-07T13:00:00.000Z'],
    ['2026-03-08', '08:00', 'America/New_York', '2026-03-08T12:00:00.000Z'],
    ['2026-03-08', '01:30', 'America/New_York', '2026-03-08T06:30:00.000Z'],
    ['2026-10-31', '08:00', 'America/New_York', '2026-10-31T12:00:00.000Z'],
    ['2026-11-01', '08:00', 'America/New_York', '2026-11-01T13:00:00.000Z'],
  ])('%s %s in %s is %s', (date, time, tz, iso) => {
    expect(zonedInstant(date, time, tz).toISOString()).toBe(iso);
  });

  it('a time skipped by the spring-forward gap happens as much later (02:30 → 03:30 EDT)', () => {
    const t = zonedInstant('2026-03-08', '02:30', 'America/New_York');
    expect(t.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(localTime(t, 'America/New_York')).toBe('03:30');
  });

  it('a time that happens twice in the autumn overlap is the first one (01:30 EDT)', () => {
    const t = zonedInstant('2026-11-01', '01:30', 'America/New_York');
    expect(t.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(localTime(t, 'America/New_York')).toBe('01:30');
    expect(localTime(new Date(t.getTime() + 3600_000), 'America/New_York')).toBe('01:30');
  });

  it('round-trips through localDate and localTime', () => {
    const t = zonedInstant('2026-12-31', '23:45', 'Pacific/Auckland');
    expect(localDate(t, 'Pacific/Auckland')).toBe('2026-12-31');
    expect(localTime(t, 'Pacific/Auckland')).toBe('23:45');
  });
});

describe('calendar helpers', () => {
  it('names the weekday of a date', () => {
    expect(['2026-11-23', '2026-11-24', '2026-11-29'].map(weekdayOf)).toEqual(['Monday', 'Tuesday', 'Sunday']);
  });

  it('canonicalises valid zones and refuses others', () => {
    expect(canonicalTimeZone('Europe/Madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('europe/madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('Mars/Base')).toBeUndefined();
    expect(canonicalTimeZone('')).toBeUndefined();
  });
});
