import { describe, expect, it } from 'vitest';
import { localDate, localMidnight } from './dates.ts';

describe('localMidnight', () => {
  it('is the instant a local day begins, offsets and daylight saving included', () => {
    expect(new Date(localMidnight('2026-03-01', 'Asia/Kolkata')).toISOString()).toBe('2026-02-28T18:30:00.000Z');
    expect(new Date(localMidnight('2026-11-28', 'UTC')).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    // New York: EST (−5) in January, EDT (−4) in July; the day of the spring change still starts at EST.
    expect(new Date(localMidnight('2026-01-15', 'America/New_York')).toISOString()).toBe('2026-01-15T05:00:00.000Z');
    expect(new Date(localMidnight('2026-07-15', 'America/New_York')).toISOString()).toBe('2026-07-15T04:00:00.000Z');
    expect(new Date(localMidnight('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(localMidnight('2026-11-28', 'Pacific/Kiritimati')).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    for (const zone of ['Asia/Kolkata', 'America/New_York', 'Pacific/Kiritimati', 'Europe/Paris']) {
      expect(localDate(new Date(localMidnight('2026-10-25', zone)), zone)).toBe('2026-10-25');
      expect(localDate(new Date(localMidnight('2026-10-25', zone) - 1), zone)).toBe('2026-10-24');
    }
  });
});
