import { now as rxdbNow } from 'rxdb';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { rememberWriteTimes, startWriteClockPast, type WriteClockStore } from './write-clock.ts';

const DAY = 24 * 3600_000;

function memoryStore(initial?: number): WriteClockStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  if (initial !== undefined) values.set('eddy_write_clock', String(initial));
  return { values, getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) };
}

// RxDB's clock never goes back within a process, so each case uses a time later than any before.
describe('the write clock', () => {
  it('starts RxDB past the highest write time remembered, though the device clock is behind it', () => {
    const remembered = Date.now() + 30 * DAY + 0.37;
    startWriteClockPast(memoryStore(remembered));
    expect(rxdbNow()).toBeGreaterThan(remembered);
    // An unreadable or older mark changes nothing.
    const before = rxdbNow();
    startWriteClockPast(memoryStore());
    startWriteClockPast({ getItem: () => 'not a number', setItem: () => undefined });
    expect(rxdbNow() - before).toBeLessThan(1);
  });

  it("remembers the highest write time reported, and moves this page's clock past another tab's", () => {
    const store = memoryStore();
    const changes = new Subject<{ events: { documentData?: unknown }[] }>();
    const sub = rememberWriteTimes(changes, store);
    const otherTab = Date.now() + 60 * DAY + 0.5;
    changes.next({ events: [{ documentData: { _meta: { lwt: otherTab - 5 } } }, { documentData: { _meta: { lwt: otherTab } } }, { documentData: undefined }] });
    expect(Number(store.values.get('eddy_write_clock'))).toBe(otherTab);
    expect(rxdbNow()).toBeGreaterThan(otherTab);
    // A lower time is not written over it.
    changes.next({ events: [{ documentData: { _meta: { lwt: otherTab - DAY } } }] });
    expect(Number(store.values.get('eddy_write_clock'))).toBe(otherTab);
    sub.unsubscribe();
  });
});
