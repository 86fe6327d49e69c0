import { afterEach, describe, expect, it, vi } from 'vitest';

// A fresh module per test: the signal is once per page load.
const load = async () => {
  vi.resetModules();
  return import('./first-screen.ts');
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the first screen signal', () => {
  it('lets background work start once a screen has shown local data', async () => {
    vi.useFakeTimers();
    const { markScreenShown, screenShown } = await load();
    let started = false;
    const waiting = screenShown(1_000).then(() => (started = true));
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toBe(false);
    markScreenShown();
    await waiting;
    expect(started).toBe(true);
    // Later waits do not wait at all.
    let again = false;
    const later = screenShown(1_000).then(() => (again = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(again).toBe(true);
    await later;
  });

  it('never holds it back longer than asked when no screen reads local data', async () => {
    vi.useFakeTimers();
    const { screenShown } = await load();
    let started = false;
    const waiting = screenShown(1_000).then(() => (started = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(true);
    await waiting;
  });
});
