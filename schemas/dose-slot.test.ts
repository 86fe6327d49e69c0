import { describe, expect, it } from 'vitest';
import { mealSlotOf } from './dose-slot.ts';

const timings = { breakfast: '08:00', lunch: '13:00', dinner: '20:00' };

describe('mealSlotOf', () => {
  it.each([
    ['08:00', 'breakfast'],
    ['10:29', 'breakfast'],
    ['10:31', 'lunch'],
    ['16:29', 'lunch'],
    ['16:31', 'dinner'],
    ['23:59', 'dinner'],
    // Around midnight the circle decides: 01:59 is 5:59 from dinner and 6:01 from breakfast.
    ['01:59', 'dinner'],
    ['02:01', 'breakfast'],
  ] as const)('puts a dose at %s in %s', (time, slot) => {
    expect(mealSlotOf(time, timings)).toBe(slot);
  });

  it('gives a tie to the earlier meal', () => {
    expect(mealSlotOf('10:30', timings)).toBe('breakfast');
    expect(mealSlotOf('16:30', timings)).toBe('lunch');
    expect(mealSlotOf('02:00', timings)).toBe('breakfast');
  });

  it('measures around midnight for late meals', () => {
    expect(mealSlotOf('23:50', { breakfast: '07:00', lunch: '12:00', dinner: '00:10' })).toBe('dinner');
  });

  it('ignores a meal time that is not a time, and answers breakfast for a dose time that is not one', () => {
    expect(mealSlotOf('12:00', { breakfast: '08:00', lunch: 'noon', dinner: '20:00' })).toBe('breakfast');
    expect(mealSlotOf('later', timings)).toBe('breakfast');
  });
});
