import { describe, expect, it } from 'vitest';
import { mealList, mealTimeChange } from './meal-times.ts';

const current = { notificationTimings: { breakfast: '08:00', lunch: '13:00', dinner: '19:00' }, timingsVersions: { breakfast: 5, lunch: 9, dinner: 2 } };

describe('a meal-time change', () => {
  it('on a version: a conflict only for a meal time changed after it', () => {
    expect(mealTimeChange(current, { breakfast: '07:30', lunch: '12:30' }, 6)).toEqual({
      changes: { breakfast: '07:30', lunch: '12:30' },
      conflicts: ['lunch'],
    });
    expect(mealTimeChange(current, { lunch: '13:00' }, 1)).toEqual({ changes: {}, conflicts: [] });
  });

  it('on no version, sent again after a heal: a conflict when that meal time no longer holds what the change was made on (chaos seed 2077632303)', () => {
    expect(mealTimeChange(current, { breakfast: '07:30' }, undefined, { breakfast: '08:00' })).toEqual({ changes: { breakfast: '07:30' }, conflicts: [] });
    expect(mealTimeChange(current, { breakfast: '07:30' }, undefined, { breakfast: '06:45' })).toEqual({
      changes: { breakfast: '07:30' },
      conflicts: ['breakfast'],
    });
    // Already what the change sets: nothing to change, nothing to ask.
    expect(mealTimeChange(current, { breakfast: '08:00' }, undefined, { breakfast: '06:45' })).toEqual({ changes: {}, conflicts: [] });
    // Without it (a client of the spec's API, or a change acknowledged once and sent again), as the spec says.
    expect(mealTimeChange(current, { breakfast: '07:30' }, undefined)).toEqual({ changes: { breakfast: '07:30' }, conflicts: [] });
  });

  it('names the meal times in a sentence', () => {
    expect(mealList(['lunch'])).toBe('lunch');
    expect(mealList(['breakfast', 'lunch', 'dinner'])).toBe('breakfast, lunch and dinner');
  });
});
