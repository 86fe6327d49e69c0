import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from './use-now.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useNow', () => {
  it('is the time of the first render, the same on every render until the interval passes, then the new time', () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T08:00:00Z') });
    const { result, rerender, unmount } = renderHook(() => useNow(60_000));
    const first = result.current;
    expect(first).toBe(Date.parse('2026-11-29T08:00:00Z'));
    act(() => {
      vi.advanceTimersByTime(59_000);
    });
    rerender();
    expect(result.current).toBe(first);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(result.current).toBe(Date.parse('2026-11-29T08:01:00Z'));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
