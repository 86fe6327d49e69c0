// RxDB finds the changes it has not pushed yet by their write time (`_meta.lwt`, taken from the
// device's clock) past its push checkpoint. A clock set back (by hand, or corrected by the network)
// made later changes look older than that checkpoint, and one whose push a reload interrupted was
// never found again: a lost write (sync/clock-back.test.ts). So write times keep rising across page
// loads whatever the clock does: the highest one written is remembered, and RxDB's clock starts past
// it before the database opens.
import type { Observable, Subscription } from 'rxjs';
import { moveRxdbClockPast, writeTimeOf } from '../rxdb-internals.ts';

/** Where the highest write time is kept (localStorage in the app: a number, no patient data). */
export interface WriteClockStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const KEY = 'eddy_write_clock';

const highestIn = (store: WriteClockStore): number => {
  const n = Number(store.getItem(KEY));
  return Number.isFinite(n) ? n : 0;
};

/**
 * Makes RxDB's clock start past the highest write time this device has made, so a clock set back
 * since then still stamps later writes later.
 */
export function startWriteClockPast(store: WriteClockStore): void {
  moveRxdbClockPast(highestIn(store));
}

/**
 * Remembers the highest write time of every change the database reports, and keeps this page's
 * clock past it: another tab of the app started its clock from the same mark, and while the device's
 * clock is behind, each tab's clock only creeps on from there; a change this page makes after
 * hearing of another tab's must still be stamped later.
 */
export function rememberWriteTimes(changes: Observable<{ events: readonly { documentData?: unknown }[] }>, store: WriteClockStore): Subscription {
  let highest = highestIn(store);
  return changes.subscribe((bulk) => {
    let top = highest;
    for (const e of bulk.events) {
      const lwt = writeTimeOf(e.documentData);
      if (lwt !== undefined && lwt > top) top = lwt;
    }
    if (top <= highest) return;
    highest = top;
    moveRxdbClockPast(top);
    try {
      store.setItem(KEY, String(top));
    } catch {
      // Storage full or blocked: the next write tries again; nothing else depends on it.
    }
  });
}
