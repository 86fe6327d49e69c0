import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openEddyDatabase, type EddyDatabase } from './storage/database.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { forgetLocalWrites, markQueued, noteLocalWrites, unqueued, whenQueued } from './local-writes.ts';
import type * as Outbox from './outbox.ts';
import { clearOutbox, pendingOps } from './outbox.ts';
import { replicate, settleUnchangedNotes } from './replication.ts';

// Issue 44: a logout counted only the outbox, so a reading saved a moment before, still on its way
// from RxDB to the outbox, could be wiped without the patient being asked. Every save is noted until
// the push handler has queued the document as it is now.

// The outbox, with a way to hold the push handler just before it queues: a slow device.
const gate = vi.hoisted(() => ({ hold: undefined as undefined | Promise<void> }));
vi.mock('./outbox.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Outbox>();
  return {
    ...real,
    enqueue: async (...args: Parameters<typeof real.enqueue>) => {
      if (gate.hold) await gate.hold;
      return real.enqueue(...args);
    },
  };
});

// No server: every pull fails, as on a ward without Wi-Fi.
const offline = { get: async () => Promise.reject(new TypeError('Failed to fetch')) } as unknown as ApiClient;

let db: EddyDatabase | undefined;
afterEach(async () => {
  gate.hold = undefined;
  await db?.close();
  db = undefined;
  forgetLocalWrites();
  await clearOutbox();
  await destroyDataKey();
});

async function openOffline(): Promise<EddyDatabase> {
  db = await openEddyDatabase({ name: `local-writes-${randomUUID()}`, storage: getRxStorageMemory() });
  noteLocalWrites(db.glucose);
  return db;
}

const reading = () => ({ _id: randomUUID(), type: 'Fasting' as const, value: 111, recordedAt: new Date(Date.now() - 60_000).toISOString() });

describe('local saves on their way to the outbox', () => {
  it('counts a reading saved offline until it is in the outbox, then leaves the count to the outbox', async () => {
    const d = await openOffline();
    let release!: () => void;
    gate.hold = new Promise<void>((r) => (release = r));
    const r = replicate({ collection: d.glucose, mapping: glucoseMapping, api: offline, owner: '100001', afterPush: () => undefined });
    await d.glucose.insert(reading());
    // Saved, not yet queued: the outbox says 0, and a logout now must still count it.
    expect(await pendingOps()).toHaveLength(0);
    expect(unqueued()).toBe(1);
    expect(await whenQueued(200)).toBe(1);
    release();
    expect(await whenQueued(5_000)).toBe(0);
    expect(await pendingOps()).toHaveLength(1);
    await r.cancel();
  });

  it('keeps the note of a change made while the handler queued the one before it', async () => {
    const d = await openOffline();
    const r = replicate({ collection: d.glucose, mapping: glucoseMapping, api: offline, owner: '100001', afterPush: () => undefined });
    const doc = await d.glucose.insert(reading());
    expect(await whenQueued(5_000)).toBe(0);
    // The handler queues the edit to 120 while a second edit (to 130) lands: 130 must stay noted
    // until its own push has queued it.
    let release!: () => void;
    gate.hold = new Promise<void>((res) => (release = res));
    await doc.incrementalPatch({ value: 120 });
    await new Promise((res) => setTimeout(res, 50));
    await d.glucose.findOne(doc._id).incrementalPatch({ value: 130 });
    expect(unqueued()).toBe(1);
    gate.hold = undefined;
    release();
    expect(await whenQueued(5_000)).toBe(0);
    const values = (await pendingOps()).map((op) => op.body['gvalue'] ?? op.body['value']);
    expect(values.at(-1)).toBe(130);
    await r.cancel();
  });

  it('drops the note of a save that changed nothing (nothing to send), and only that one', async () => {
    const d = await openOffline();
    const r = replicate({ collection: d.glucose, mapping: glucoseMapping, api: offline, owner: '100001', afterPush: () => undefined });
    const doc = await d.glucose.insert(reading());
    expect(await whenQueued(5_000)).toBe(0);
    // Saved as it was: RxDB's push side has nothing to hand over.
    await d.glucose.findOne(doc._id).incrementalModify((data) => data);
    await settleUnchangedNotes();
    expect(unqueued()).toBe(0);
    await r.cancel();
  });

  it('counts a save still being written, and stops counting one that never lands', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const hooks: Record<string, (d: { _id: string }) => void> = {};
      const keep = (k: string) => (fn: (d: { _id: string }) => void) => void (hooks[k] = fn);
      noteLocalWrites({
        name: 'symptoms',
        preInsert: keep('preInsert'),
        preSave: keep('preSave'),
        preRemove: keep('preRemove'),
        postInsert: keep('postInsert'),
        postSave: keep('postSave'),
        postRemove: keep('postRemove'),
      });
      hooks['preInsert']?.({ _id: 's1' });
      expect(unqueued()).toBe(1);
      hooks['postInsert']?.({ _id: 's1' });
      expect(unqueued()).toBe(1);
      // A second save that fails (never lands): counted while it may still land, not after.
      hooks['preInsert']?.({ _id: 's2' });
      expect(unqueued()).toBe(2);
      vi.setSystemTime(Date.now() + 3_100);
      expect(unqueued()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never drops a note for a state that is not the current one', async () => {
    const docs = new Map([['a', { _id: 'a', value: 2 }]]);
    noteLocalWrites({
      name: 'glucose',
      preInsert: () => undefined,
      preSave: () => undefined,
      preRemove: () => undefined,
      postInsert: () => undefined,
      postSave: (fn) => fn({ _id: 'a' }),
      postRemove: () => undefined,
    });
    expect(unqueued()).toBe(1);
    await markQueued('glucose', [{ docId: 'a', state: { _id: 'a', value: 1, _deleted: false } }], async () => docs);
    expect(unqueued()).toBe(1);
    // Removed on the device, and the removal queued: the note goes.
    await markQueued('glucose', [{ docId: 'a', state: { _id: 'a', value: 2, _deleted: true } }], async () => new Map());
    expect(unqueued()).toBe(0);
  });
});
