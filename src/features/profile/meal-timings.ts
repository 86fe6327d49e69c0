// The three meal-time reminders (docs/requirements.md §3 notificationTimings). Times are 24-hour "HH:MM" strings,
// the value a <input type="time"> gives whatever clock the device shows, so they compare as text.
import { mealTime } from '../../../schemas/user-profile.ts';

export const MEALS = ['breakfast', 'lunch', 'dinner'] as const;
export type Meal = (typeof MEALS)[number];
export type MealTimings = Record<Meal, string>;

/** Why a meal's time cannot be saved: missing, not a time, or not after the meal before it. */
export type MealTimeProblem = 'missing' | 'invalid' | 'not-after-previous';

const MEAL_TIME = new RegExp(mealTime.pattern);

/** The problems of each meal's time, empty when the three can be saved. */
export function checkMealTimings(timings: MealTimings): Partial<Record<Meal, MealTimeProblem>> {
  const problems: Partial<Record<Meal, MealTimeProblem>> = {};
  for (const meal of MEALS) {
    const value = timings[meal];
    if (value === '') problems[meal] = 'missing';
    else if (!MEAL_TIME.test(value)) problems[meal] = 'invalid';
  }
  // Order is judged only between two well-formed neighbours: a missing breakfast says "missing",
  // and does not also make lunch wrong.
  const wellFormed = (meal: Meal) => problems[meal] !== 'missing' && problems[meal] !== 'invalid';
  for (let i = 1; i < MEALS.length; i++) {
    const before = MEALS[i - 1] as Meal;
    const meal = MEALS[i] as Meal;
    if (wellFormed(before) && wellFormed(meal) && timings[meal] <= timings[before]) problems[meal] = 'not-after-previous';
  }
  return problems;
}

export const sameTimings = (a: MealTimings, b: MealTimings): boolean => MEALS.every((m) => a[m] === b[m]);
