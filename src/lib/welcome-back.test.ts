import { describe, expect, it } from 'vitest';
import { LAST_OPENED_KEY, openedAfterAWhile, WELCOME_BACK_AFTER_MS } from './welcome-back.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('welcome back (issue 50: not at every opening)', () => {
  const now = Date.parse('2026-12-06T09:00:00Z');

  it('greets at the first opening on a device, and notes the time', () => {
    const storage = memoryStorage();
    expect(openedAfterAWhile(storage, now)).toBe(true);
    expect(storage.map.get(LAST_OPENED_KEY)).toBe(String(now));
  });

  it('stays quiet when the app was opened minutes ago, and greets after a night away', () => {
    const storage = memoryStorage();
    openedAfterAWhile(storage, now);
    expect(openedAfterAWhile(storage, now + 20 * 60_000)).toBe(false);
    expect(openedAfterAWhile(storage, now + 20 * 60_000 + WELCOME_BACK_AFTER_MS - 1)).toBe(false);
    expect(openedAfterAWhile(storage, now + 20 * 60_000 + 2 * WELCOME_BACK_AFTER_MS)).toBe(true);
  });

  it('greets when the stored time is unreadable or after now (a clock set back), and without storage', () => {
    expect(openedAfterAWhile(memoryStorage({ [LAST_OPENED_KEY]: 'garbage' }), now)).toBe(true);
    expect(openedAfterAWhile(memoryStorage({ [LAST_OPENED_KEY]: String(now + 3600_000) }), now)).toBe(true);
    expect(openedAfterAWhile(undefined, now)).toBe(true);
    const refusing = {
      getItem: () => String(now - 60_000),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(openedAfterAWhile(refusing, now)).toBe(false);
  });
});
