import { describe, expect, it } from 'vitest';
import { timeOfDayBlocks } from './time-of-day.ts';

describe('time of day blocks', () => {
  it('groups readings by local clock time in 3-hour blocks, edges in the later block', () => {
    const blocks = timeOfDayBlocks([
      { minutes: 7 * 60 + 15, value: 100 },
      { minutes: 7 * 60 + 45, value: 200 },
      { minutes: 9 * 60, value: 130 }, // 09:00 opens the 09–12 block
      { minutes: 23 * 60 + 59, value: 150 },
      { minutes: 0, value: 90 },
    ]);
    expect(blocks).toHaveLength(8);
    expect(blocks[0]).toEqual({ start: 0, count: 1, mean: 90, min: 90, max: 90 });
    expect(blocks[1]).toEqual({ start: 3, count: 0, mean: null, min: null, max: null });
    expect(blocks[2]).toEqual({ start: 6, count: 2, mean: 150, min: 100, max: 200 });
    expect(blocks[3]).toEqual({ start: 9, count: 1, mean: 130, min: 130, max: 130 });
    expect(blocks[7]).toEqual({ start: 21, count: 1, mean: 150, min: 150, max: 150 });
  });
});
