import { describe, expect, it } from 'vitest';
import { labTimeFor } from './expected-times.ts';

describe('labTimeFor', () => {
  it('is local noon for a result made in the afternoon (CI seeds 4, 5, 9, 10 of 2026-12-05 ran after noon)', () => {
    const made = new Date(2026, 11, 5, 12, 36, 4).getTime();
    expect(labTimeFor(made)).toBe(new Date(2026, 11, 5, 12).getTime());
  });
  it('is when it was made before noon', () => {
    const made = new Date(2026, 11, 5, 9, 15).getTime();
    expect(labTimeFor(made)).toBe(made);
  });
  it('is noon of the same day at 23:59', () => {
    expect(labTimeFor(new Date(2026, 11, 5, 23, 59).getTime())).toBe(new Date(2026, 11, 5, 12).getTime());
  });
});
