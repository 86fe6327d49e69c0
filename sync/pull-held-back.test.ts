import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { clearOutbox, enqueue } from './outbox.ts';
import { heldBack, pullChanges, PULL_BATCH } from './replication.ts';

// Found by the randomized fault runs (tests/chaos): a pull that ran while a change of a reading was
// still waiting in the outbox skipped that reading (rightly: the server's copy was older than the
// device's) but moved its checkpoint past it. Once the change was sent, no pull brought the
// reading's new version, so the device's next change of it stated the old version and the server
// refused it as a conflict with the device's own earlier edit (409, shown to the patient).
afterEach(async () => {
  await clearOutbox();
  await destroyDataKey();
});

describe('a pull that skips a record with a write waiting', () => {
  it('keeps its checkpoint before that record, so the next pull brings its new version', async () => {
    const id = randomUUID();
    const recordedAt = new Date().toISOString();
    // The server: version 7 is this device's edit of the reading (value 120), version 8 another record.
    let rows: (GlucoseReading & { version: number })[] = [
      { _id: id, type: 'Random', value: 120, recordedAt, version: 7 },
      { _id: randomUUID(), type: 'Random', value: 99, recordedAt, version: 8 },
    ];
    const api = {
      get: async (path: string) => {
        const since = Number(/since=(\d+)/.exec(path)?.[1] ?? 0);
        const random = rows.filter((r) => r.version > since);
        return { fasting: [], postprandial: [], random, deleted: [], checkpoint: Math.max(since, ...rows.map((r) => r.version)) };
      },
    } as unknown as ApiClient;

    // The edit still waits in the outbox when a pull runs.
    await enqueue({
      collection: 'glucose',
      docId: id,
      kind: 'update',
      path: '/glucose/update',
      body: { glucoseId: id, gvalue: 120, baseVersion: 6 },
      madeAt: Date.now(),
      versioned: true,
    });
    const first = await pullChanges(api, glucoseMapping, { version: 5 });
    expect(first.documents.map((d) => d._id)).not.toContain(id);
    expect(first.checkpoint).toEqual({ version: 6 });

    // It is sent; the next pull brings the reading at the version the device's next edit must state.
    await clearOutbox();
    rows = [...rows];
    const second = await pullChanges(api, glucoseMapping, first.checkpoint);
    expect(second.documents.find((d) => d._id === id)).toMatchObject({ value: 120, version: 7 });
    expect(second.checkpoint).toEqual({ version: 8 });
  });

  it('moves on as before when nothing was skipped, and never holds a full page (RxDB would ask for ever)', () => {
    expect(heldBack(9, [], 3, 2)).toBe(9);
    expect(heldBack(9, [{ version: 5 }, { version: 7 }], 3, 2)).toBe(4);
    expect(heldBack(9, [{}], 3, 2)).toBe(3);
    expect(heldBack(9, [{ version: 5 }], 3, PULL_BATCH)).toBe(9);
  });
});
