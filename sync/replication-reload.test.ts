import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { RxStorageInstance } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import { openEddyDatabase, type EddyDatabase } from './storage/database.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { clearOutbox, pendingOps } from './outbox.ts';
import { replicate } from './replication.ts';

// A reload while RxDB writes what a pull brought: it writes the records in one step and notes them
// as the server's state in a second. When the page goes away between the two, the next start found
// pulled records with no note, took them for the device's own new ones and sent every one back as
// an add (a browser test reloading during a patient's first pull: 123 readings sent back, and the
// log-out dialog then warned of 123 entries not yet at the hospital).

const serverReading = (i: number): GlucoseReading => ({
  _id: `00000000-0000-4000-8000-00000000000${i}`,
  type: 'Fasting',
  value: 100 + i,
  recordedAt: new Date(Date.UTC(2026, 10, 1, 7, i)).toISOString(),
  version: 10 + i,
});

let db: EddyDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await clearOutbox();
  await destroyDataKey();
});

/** A replication of glucose whose pull answers with `docs`; `until` holds the first list request. */
function start(database: EddyDatabase, docs: GlucoseReading[], until?: Promise<void>, reached?: () => void) {
  const api = {
    get: async () => {
      reached?.();
      await until;
      return { fasting: docs, deleted: [], checkpoint: 50 };
    },
  } as unknown as ApiClient;
  return replicate({ collection: database.glucose, mapping: glucoseMapping, api, owner: '100001', afterPush: () => undefined });
}

/** A whole pull of `docs`, noted, and the replication stopped. */
async function pullOnce(database: EddyDatabase, docs: GlucoseReading[]) {
  const replication = start(database, docs);
  await replication.awaitInitialReplication();
  await replication.awaitInSync();
  await replication.cancel();
}

/** Pulls `docs` and then "reloads" before RxDB notes them: no write to the replication's own store lands. */
async function pullThenLoseTheNote(
  database: EddyDatabase,
  docs: GlucoseReading[],
  written = async () => (await database.glucose.count().exec()) === docs.length,
) {
  let reached!: () => void;
  const inPull = new Promise<void>((r) => (reached = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const first = start(database, docs, gate, reached);
  await inPull;
  // The store of the replication's notes and checkpoints exists once the pull runs: from here on
  // nothing written to it is kept, as when the page is gone before the writes land.
  const meta = first.metaInstance as RxStorageInstance<unknown, unknown, unknown>;
  meta.bulkWrite = () => Promise.resolve({ error: [] });
  release();
  await waitFor(written);
  // Not waited for: a page that goes away does not wait for its replication to stop, and the next
  // start runs beside it. A cancel that fails then changes nothing the test looks at.
  first.cancel().catch(() => undefined);
}

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a reload between writing pulled records and noting them', () => {
  it('sends nothing for records still exactly as pulled', async () => {
    db = await openEddyDatabase({ name: `reload-${randomUUID()}`, storage: getRxStorageMemory() });
    const docs = Array.from({ length: 5 }, (_, i) => serverReading(i));
    await pullThenLoseTheNote(db, docs);

    const again = start(db, docs);
    await again.awaitInitialReplication();
    await again.awaitInSync();
    expect(await pendingOps()).toEqual([]);
    await again.cancel();
  });

  it('sends nothing for records a later pull changed', async () => {
    db = await openEddyDatabase({ name: `reload-${randomUUID()}`, storage: getRxStorageMemory() });
    const docs = Array.from({ length: 3 }, (_, i) => serverReading(i));
    await pullOnce(db, docs);
    // Another device changed them all; this one pulls the changes and is reloaded before noting them.
    const changed = docs.map((d, i) => ({ ...d, value: 300 + i, version: 60 + i }));
    const glucose = db.glucose;
    await pullThenLoseTheNote(db, changed, async () => (await glucose.find().exec()).every((d) => d.value >= 300));

    const again = start(db, changed);
    await again.awaitInitialReplication();
    await again.awaitInSync();
    expect(await pendingOps()).toEqual([]);
    await again.cancel();
  });

  it('bases a change made after a later pull on the version that pull brought', async () => {
    db = await openEddyDatabase({ name: `reload-${randomUUID()}`, storage: getRxStorageMemory() });
    const docs = [serverReading(0)];
    await pullOnce(db, docs);
    const changed = [{ ...docs[0]!, value: 300, version: 60 }];
    const glucose = db.glucose;
    await pullThenLoseTheNote(db, changed, async () => (await glucose.findOne(docs[0]!._id).exec())?.value === 300);
    await (await glucose.findOne(docs[0]!._id).exec())?.incrementalPatch({ value: 333 });

    const again = start(db, changed);
    await again.awaitInitialReplication();
    await waitFor(async () => (await pendingOps()).length >= 1);
    expect((await pendingOps()).map((o) => ({ kind: o.kind, body: o.body }))).toEqual([
      { kind: 'update', body: expect.objectContaining({ glucoseId: docs[0]!._id, gvalue: 333, baseVersion: 60 }) },
    ]);
    await again.cancel();
  });

  it('sends a record changed or removed since as an update or delete based on the version pulled, never as an add', async () => {
    db = await openEddyDatabase({ name: `reload-${randomUUID()}`, storage: getRxStorageMemory() });
    const docs = Array.from({ length: 3 }, (_, i) => serverReading(i));
    await pullThenLoseTheNote(db, docs);
    // The patient changes one and removes another before the replication starts again.
    await (await db.glucose.findOne(docs[1]!._id).exec())?.incrementalPatch({ value: 222 });
    await (await db.glucose.findOne(docs[2]!._id).exec())?.incrementalRemove();
    const mine = { _id: randomUUID(), type: 'Random' as const, value: 140, recordedAt: new Date().toISOString() };
    await db.glucose.insert(mine);

    const again = start(db, docs);
    await again.awaitInitialReplication();
    await waitFor(async () => (await pendingOps()).length >= 3);
    const ops = (await pendingOps()).map((o) => ({ docId: o.docId, kind: o.kind, body: o.body }));
    expect(ops).toHaveLength(3);
    expect(ops).toContainEqual({
      docId: docs[1]!._id,
      kind: 'update',
      body: expect.objectContaining({ glucoseId: docs[1]!._id, gvalue: 222, baseVersion: 11 }),
    });
    expect(ops).toContainEqual({ docId: docs[2]!._id, kind: 'delete', body: { glucoseId: docs[2]!._id, baseVersion: 12 } });
    expect(ops).toContainEqual({ docId: mine._id, kind: 'add', body: expect.objectContaining({ _id: mine._id, value: 140 }) });
    await again.cancel();
  });
});
