import { describe, expect, it } from 'vitest';
import { addDays, checkRange, daysInRange, isIsoDate, presetRange, todayIn } from './range.ts';

describe('report range', () => {
  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(isIsoDate('2026-11-30')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-11-31')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('30/11/2026')).toBe(false);
    expect(isIsoDate('2026-11-30T00:00')).toBe(false);
  });

  it('presets end today and include it: 30 days is today and the 29 before', () => {
    expect(presetRange(30, '2026-11-30')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange(7, '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(daysInRange(presetRange(90, '2026-03-29'))).toBe(90);
    // Across a daylight-saving change the count of days stays exact.
    expect(daysInRange({ from: '2026-03-25', to: '2026-04-02' })).toBe(9);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('takes today from the patient time zone', () => {
    const instant = new Date('2026-11-30T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-11-30');
    expect(todayIn('Asia/Tokyo', instant)).toBe('2026-12-01');
    expect(todayIn('America/Los_Angeles', instant)).toBe('2026-11-30');
    // An unknown zone falls back to the device's calendar instead of throwing.
    expect(todayIn('Not/AZone', instant)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('validates a custom range: from ≤ to, nothing in the future, both dates present and real', () => {
    const today = '2026-11-30';
    expect(checkRange('2026-11-01', '2026-11-30', today)).toEqual({ ok: true, range: { from: '2026-11-01', to: '2026-11-30' }, days: 30 });
    expect(checkRange(' 2026-11-30 ', '2026-11-30', today)).toEqual({ ok: true, range: { from: '2026-11-30', to: '2026-11-30' }, days: 1 });
    expect(checkRange('2026-11-10', '2026-11-09', today)).toEqual({ ok: false, errors: ['from-after-to'] });
    expect(checkRange('2026-11-01', '2026-12-01', today)).toEqual({ ok: false, errors: ['to-future'] });
    expect(checkRange('2026-12-02', '2026-12-01', today)).toEqual({ ok: false, errors: ['from-future', 'to-future', 'from-after-to'] });
    expect(checkRange('', '', today)).toEqual({ ok: false, errors: ['from-missing', 'to-missing'] });
    expect(checkRange('2026-02-30', 'yesterday', today)).toEqual({ ok: false, errors: ['from-invalid', 'to-invalid'] });
  });
});
