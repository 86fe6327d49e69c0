import { describe, expect, it } from 'vitest';
import { formatClockTime, localDateKey, toLocalInput } from './dates.ts';

describe('local dates', () => {
  it('use the device calendar and clock, not UTC', () => {
    const late = new Date(2026, 0, 31, 23, 59, 59);
    expect(localDateKey(late)).toBe('2026-01-31');
    expect(toLocalInput(late)).toBe('2026-01-31T23:59');
    expect(toLocalInput(new Date(2026, 10, 2, 8, 5))).toBe('2026-11-02T08:05');
    // What a datetime-local input gives back is read as local time again.
    expect(new Date(toLocalInput(late)).getTime()).toBe(new Date(2026, 0, 31, 23, 59).getTime());
  });
});

describe('formatClockTime', () => {
  it('writes a wall-clock time as the locale does and leaves other text alone', () => {
    expect(formatClockTime('20:30', 'en-US')).toMatch(/^8:30\s?PM$/);
    expect(formatClockTime('08:05', 'fr')).toBe('8:05');
    expect(formatClockTime('20:30', 'fr')).toBe('20:30');
    expect(formatClockTime('20:30', 'ar')).toMatch(/8:30/);
    expect(formatClockTime('after lunch', 'en')).toBe('after lunch');
    expect(formatClockTime('25:00', 'en')).toBe('25:00');
  });
});
