import { describe, expect, it } from 'vitest';
import { isActive } from './active.ts';

describe('active medicines', () => {
  const now = new Date(2026, 10, 23, 23, 59);
  it('keeps a medicine active through the whole of its end date', () => {
    expect(isActive({ endDate: null }, now)).toBe(true);
    expect(isActive({}, now)).toBe(true);
    expect(isActive({ endDate: '2026-11-23' }, now)).toBe(true);
    expect(isActive({ endDate: '2026-12-01' }, now)).toBe(true);
    expect(isActive({ endDate: '2026-11-22' }, now)).toBe(false);
  });
});
