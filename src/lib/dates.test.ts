import { describe, expect, it } from 'vitest';
import {
  deviceTimeZone,
  deviceUtcOffset,
  formatClockTime,
  localDateKey,
  profileClockTime,
  timeFormat,
  toLocalInput,
  zoneOffsetAt,
  zoneShortName,
  zonesDiffer,
} from './dates.ts';

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

/** ICU writes narrow no-break spaces in times ("6:43 PM"): plain spaces for comparing. */
const plain = (s: string) => s.replace(/\s/g, ' ');

describe('zoneOffsetAt: a zone’s offset at an instant, minutes east of UTC', () => {
  it('knows half-hour zones, zones west of UTC and UTC itself', () => {
    const at = new Date('2026-11-22T17:43:00Z');
    expect(zoneOffsetAt('Asia/Kolkata', at)).toBe(330);
    expect(zoneOffsetAt('Asia/Calcutta', at)).toBe(330);
    expect(zoneOffsetAt('America/St_Johns', at)).toBe(-210);
    expect(zoneOffsetAt('Pacific/Kiritimati', at)).toBe(840);
    expect(zoneOffsetAt('UTC', at)).toBe(0);
    expect(zoneOffsetAt('Mars/Olympus_Mons', at)).toBeUndefined();
  });

  it('follows daylight saving to the minute (Paris moves at 01:00 UTC on 29 March and 25 October 2026)', () => {
    expect(zoneOffsetAt('Europe/Paris', new Date('2026-03-29T00:59:59Z'))).toBe(60);
    expect(zoneOffsetAt('Europe/Paris', new Date('2026-03-29T01:00:00Z'))).toBe(120);
    expect(zoneOffsetAt('Europe/Paris', new Date('2026-10-25T00:59:59Z'))).toBe(120);
    expect(zoneOffsetAt('Europe/Paris', new Date('2026-10-25T01:00:00Z'))).toBe(60);
    // Southern hemisphere, half an hour: Adelaide leaves summer time at 16:30 UTC on 4 April 2026.
    expect(zoneOffsetAt('Australia/Adelaide', new Date('2026-04-04T16:29:00Z'))).toBe(630);
    expect(zoneOffsetAt('Australia/Adelaide', new Date('2026-04-04T16:30:00Z'))).toBe(570);
  });
});

describe('zonesDiffer: whether a time on the device’s clock may be read on the profile’s', () => {
  it('is false for the same zone, an alias of it, or no profile zone yet', () => {
    expect(zonesDiffer('Europe/Paris', 'Europe/Paris')).toBe(false);
    expect(zonesDiffer('Asia/Kolkata', 'Asia/Calcutta')).toBe(false);
    expect(zonesDiffer('Europe/Paris', undefined)).toBe(false);
    expect(zonesDiffer('Europe/Paris', '')).toBe(false);
  });

  it('is true for another zone, even one whose offset is the same today', () => {
    expect(zonesDiffer('Europe/Paris', 'Asia/Kolkata')).toBe(true);
    // Same offset all winter, not in summer: the names are told apart.
    expect(zonesDiffer('Europe/London', 'UTC')).toBe(true);
    expect(zonesDiffer('Europe/Paris', 'Europe/Berlin')).toBe(true);
    expect(zonesDiffer('Europe/Paris', 'Mars/Olympus_Mons')).toBe(true);
  });
});

describe('timeFormat: times on the device’s clock, naming the zone when it may be read on another', () => {
  const at = '2026-11-22T17:43:00.000Z';

  it('shows a time as it always did when the profile’s zone is the device’s', () => {
    const f = timeFormat('en-US', 'time', { device: 'Europe/Paris', profile: 'Europe/Paris' });
    expect(plain(f.format(at))).toBe('6:43 PM');
    expect(plain(timeFormat('en-US', 'dateTime', { device: 'Europe/Paris' }).format(at))).toBe('Nov 22, 2026, 6:43 PM');
  });

  it('names the device’s zone on every time when the profile’s differs', () => {
    const zones = { device: 'Europe/Paris', profile: 'Asia/Kolkata' };
    expect(plain(timeFormat('en-US', 'time', zones).format(at))).toBe('6:43 PM GMT+1');
    expect(plain(timeFormat('en-US', 'dateTime', zones).format(at))).toBe('Nov 22, 2026, 6:43 PM GMT+1');
    expect(plain(timeFormat('en-US', 'fullDateTime', zones).format(at))).toBe('Sunday, November 22, 2026 at 6:43 PM GMT+1');
    expect(plain(timeFormat('fr', 'time', zones).format(at))).toBe('18:43 UTC+1');
    // The profile's zone, for comparison: the report shows the same reading at 11:13 PM.
    expect(plain(timeFormat('en-US', 'time', { device: 'Asia/Kolkata' }).format(at))).toBe('11:13 PM');
  });

  it('names it for zones of the same offset but different names (London and UTC in winter)', () => {
    expect(plain(timeFormat('en-GB', 'time', { device: 'Europe/London', profile: 'UTC' }).format(at))).toBe('17:43 GMT');
    expect(plain(timeFormat('en-GB', 'time', { device: 'Asia/Kolkata', profile: 'Asia/Calcutta' }).format(at))).toBe('23:13');
  });

  it('names it on a reading taken at another offset than the device has for that instant, across a DST change', () => {
    const f = timeFormat('en-US', 'time', { device: 'Europe/Paris', profile: 'Europe/Paris' });
    // Taken in Paris on either side of the change: each at the offset Paris had then.
    expect(plain(f.format('2026-03-29T00:30:00Z', 60))).toBe('1:30 AM');
    expect(plain(f.format('2026-03-29T01:30:00Z', 120))).toBe('3:30 AM');
    // A device that kept winter time past the change (or another zone): the time says whose clock it is on.
    expect(plain(f.format('2026-03-29T01:30:00Z', 60))).toBe('3:30 AM GMT+2');
    expect(plain(f.format('2026-11-22T17:43:00Z', 330))).toBe('6:43 PM GMT+1');
    // No offset kept (a reading from before it was kept): nothing to compare.
    expect(plain(f.format('2026-11-22T17:43:00Z', null))).toBe('6:43 PM');
  });
});

describe('profileClockTime: a meal time of the profile’s clock', () => {
  it('names the profile’s zone when the device is in another', () => {
    const at = new Date('2026-11-22T12:00:00Z');
    expect(plain(profileClockTime('20:30', 'en-US', { device: 'Europe/Paris', profile: 'Asia/Kolkata' }, at))).toBe('8:30 PM GMT+5:30');
    expect(plain(profileClockTime('20:30', 'en-US', { device: 'Asia/Kolkata', profile: 'Asia/Kolkata' }, at))).toBe('8:30 PM');
    expect(zoneShortName('hi', 'Asia/Kolkata', at)).toBe('IST');
    expect(zoneShortName('en', 'Mars/Olympus_Mons', at)).toBe('Mars/Olympus_Mons');
  });
});

describe('deviceUtcOffset', () => {
  it('is the offset a reading keeps: minutes east of UTC, never −0', () => {
    const at = new Date('2026-11-22T17:43:00Z');
    expect(deviceUtcOffset(at)).toBe(zoneOffsetAt(deviceTimeZone(), at));
    expect(Object.is(deviceUtcOffset(at), -0)).toBe(false);
  });
});
