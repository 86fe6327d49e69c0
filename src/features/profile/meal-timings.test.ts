import { describe, expect, it } from 'vitest';
import { checkMealTimings, sameTimings } from './meal-timings.ts';

describe('checkMealTimings', () => {
  it('accepts three times in the order of the day', () => {
    expect(checkMealTimings({ breakfast: '07:30', lunch: '12:45', dinner: '19:00' })).toEqual({});
  });

  it('says which time is missing or not a 24-hour time', () => {
    expect(checkMealTimings({ breakfast: '', lunch: '12:00', dinner: '7:00 PM' })).toEqual({ breakfast: 'missing', dinner: 'invalid' });
    expect(checkMealTimings({ breakfast: '24:00', lunch: '12:00', dinner: '19:00' })).toEqual({ breakfast: 'invalid' });
  });

  it('refuses a meal that is not later than the one before, without blaming a neighbour of a missing time', () => {
    expect(checkMealTimings({ breakfast: '13:00', lunch: '12:00', dinner: '19:00' })).toEqual({ lunch: 'not-after-previous' });
    expect(checkMealTimings({ breakfast: '08:00', lunch: '12:00', dinner: '12:00' })).toEqual({ dinner: 'not-after-previous' });
    expect(checkMealTimings({ breakfast: '08:00', lunch: '', dinner: '07:00' })).toEqual({ lunch: 'missing' });
    expect(checkMealTimings({ breakfast: '09:00', lunch: '08:00', dinner: '07:00' })).toEqual({ lunch: 'not-after-previous', dinner: 'not-after-previous' });
  });

  it('compares timings field by field', () => {
    expect(sameTimings({ breakfast: '08:00', lunch: '12:00', dinner: '19:00' }, { breakfast: '08:00', lunch: '12:00', dinner: '19:00' })).toBe(true);
    expect(sameTimings({ breakfast: '08:00', lunch: '12:00', dinner: '19:00' }, { breakfast: '08:00', lunch: '12:30', dinner: '19:00' })).toBe(false);
  });
});
