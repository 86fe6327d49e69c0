import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Database from './storage/database.ts';
import type { WriteClockStore } from './storage/write-clock.ts';
import type * as LabTestSync from './lab-test-sync.ts';
import type * as Outbox from './outbox.ts';
import type * as Replication from './replication.ts';

// A device whose clock goes back (set by hand, or corrected by the network) must still send every
// change it holds, also one whose push a reload interrupted. RxDB finds unsent changes after a
// restart by their write time (`_meta.lwt`) past its push checkpoint; a change stamped before that
// checkpoint was never found again (the lost write of seed 2003727760 of the randomized fault
// runs). sync/storage/write-clock.ts keeps write times rising across page loads.
//
// Each "page load" imports the app's modules afresh. RxDB's own clock lives in node_modules and
// survives that here, so the clock that was ahead is played by page 1's write carrying a later
// time than the process has seen; page 2 then writes through RxDB as the app does.

interface Modules {
  database: typeof Database;
  replication: typeof Replication;
  outbox: typeof Outbox;
  labs: typeof LabTestSync;
}

async function pageLoad(): Promise<Modules> {
  vi.resetModules();
  return {
    database: await import('./storage/database.ts'),
    replication: await import('./replication.ts'),
    outbox: await import('./outbox.ts'),
    labs: await import('./lab-test-sync.ts'),
  };
}

const api = { get: async () => ({ tests: [], deleted: [], checkpoint: 0 }) };
const lab = (name: string) => ({ _id: randomUUID(), name, value: 5, unit: 'mg/L', recordedAt: new Date().toISOString() });
const HOUR = 3600_000;

function memoryStore(): WriteClockStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a clock set back', () => {
  it('a change written after the clock went back, and not pushed before a reload, is pushed after it', async () => {
    const name = `clock-${randomUUID()}`;
    const writeClock = memoryStore();
    const aheadBy = 20 * HOUR;
    // Later than anything this process has stamped yet (RxDB never goes back within a process).
    const start = Date.now() + 400 * 24 * HOUR;
    vi.useFakeTimers({ toFake: ['Date'] });

    // Page 1: a change stamped 20 h ahead (made while the clock was ahead) is pushed to the outbox,
    // which moves RxDB's push checkpoint to its write time.
    vi.setSystemTime(start);
    let m = await pageLoad();
    let db = await m.database.openEddyDatabase({ name, writeClock });
    let r = m.replication.replicate({
      collection: db.labTests,
      mapping: m.labs.labTestMapping,
      api: api as never,
      owner: '100001',
      afterPush: () => undefined,
    });
    await r.awaitInitialReplication();
    const first = lab('first');
    const written = await db.labTests.internalStorageInstance.bulkWrite(
      [{ document: { ...first, _deleted: false, _attachments: {}, _rev: '1-ahead', _meta: { lwt: start + aheadBy } } }],
      'clock-ahead',
    );
    expect(written.error).toEqual([]);
    await r.awaitInSync();
    await vi.waitFor(async () => expect((await m.outbox.pendingOps()).map((op) => op.docId)).toEqual([first._id]));
    // RxDB stores its push checkpoint without waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await r.cancel();
    await db.close();
    expect(Number(writeClock.values.get('eddy_write_clock'))).toBeGreaterThanOrEqual(start + aheadBy);

    // Page 2, the clock right again (20 h back): a change is saved, and the page goes before its
    // push ran.
    vi.setSystemTime(start + 60_000);
    m = await pageLoad();
    db = await m.database.openEddyDatabase({ name, writeClock });
    const second = lab('second');
    await db.labTests.insert(second);
    await db.close();

    // Page 3: the change is found and queued.
    vi.setSystemTime(start + 120_000);
    m = await pageLoad();
    db = await m.database.openEddyDatabase({ name, writeClock });
    r = m.replication.replicate({ collection: db.labTests, mapping: m.labs.labTestMapping, api: api as never, owner: '100001', afterPush: () => undefined });
    await r.awaitInitialReplication();
    await r.awaitInSync();
    expect((await m.outbox.pendingOps()).map((op) => op.docId).sort()).toEqual([first._id, second._id].sort());
    await r.cancel();
    await db.close();
    await m.outbox.clearOutbox();
  });
});
