import { describe, expect, it } from 'vitest';
import { mealsOfDose } from './dose-pattern.ts';

const meals = (dose: string) => mealsOfDose(dose).map((d) => `${d.meal}:${d.portion}`);

describe('dose pattern → meals', () => {
  it.each([
    ['1-0-1', ['breakfast:1', 'dinner:1']],
    ['0-1-0', ['lunch:1']],
    ['1-1-1', ['breakfast:1', 'lunch:1', 'dinner:1']],
    ['2-0-0', ['breakfast:2']],
    ['1/2-0-1/2', ['breakfast:1/2', 'dinner:1/2']],
    ['½-½-0', ['breakfast:½', 'lunch:½']],
    ['0.5-0-1', ['breakfast:0.5', 'dinner:1']],
    ['0,5-1-0', ['breakfast:0,5', 'lunch:1']],
    ['1½-0-1', ['breakfast:1½', 'dinner:1']],
    [' 1 - 0 - 1 ', ['breakfast:1', 'dinner:1']],
    ['1–0–1', ['breakfast:1', 'dinner:1']],
    ['1-0-1 after food', ['breakfast:1', 'dinner:1']],
    ['0.0-1-0/2', ['lunch:1']],
  ])('%s is taken at %j', (dose, expected) => {
    expect(meals(dose)).toEqual(expected);
  });

  it('a pattern of zeros is taken at no meal', () => {
    expect(meals('0-0-0')).toEqual([]);
  });

  it.each(['500 mg twice daily', '10 units', '1 tablet', '1-0-1-0', 'x-0-1', '1-0', 'before 1-0-1', ''])(
    '%j does not say when: every meal, with the whole dose',
    (dose) => {
      expect(meals(dose)).toEqual(['breakfast', 'lunch', 'dinner'].map((m) => `${m}:${dose.trim()}`));
    },
  );
});
