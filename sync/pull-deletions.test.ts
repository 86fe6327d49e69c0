import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { openEddyDatabase, type EddyDatabase } from './storage/database.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { addOverride, clearOutbox } from './outbox.ts';
import { replicate } from './replication.ts';

// Deletions reach the device's database through the real replication (RxDB with its schema checks):
// an id deleted on the server, and a refused write the patient discarded, remove the document this
// device had made. (A bare `{_id, _deleted}` fails the collection's schema and was never applied.)
let db: EddyDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await clearOutbox();
  await destroyDataKey();
});

async function setup() {
  db = await openEddyDatabase({ name: `deletions-${randomUUID()}`, storage: getRxStorageMemory() });
  const server = { deleted: [] as string[], version: 5 };
  const api = { get: async () => ({ fasting: [], postprandial: [], random: [], deleted: server.deleted, checkpoint: server.version }) } as unknown as ApiClient;
  const replication = replicate({ collection: db.glucose, mapping: glucoseMapping, api, owner: 'p', afterPush: () => undefined });
  const errors: unknown[] = [];
  replication.error$.subscribe((e) => errors.push(e));
  await replication.awaitInitialReplication();
  const id = randomUUID();
  await db.glucose.insert({ _id: id, type: 'Random', value: 434, recordedAt: new Date().toISOString() });
  await replication.awaitInSync();
  // Sent meanwhile: nothing of it is waiting any more.
  await clearOutbox();
  return { db, server, replication, id, errors };
}

const settle = async (r: { reSync(): void; awaitInSync(): Promise<unknown> }) => {
  r.reSync();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await r.awaitInSync();
};

describe('deletions pulled into the device', () => {
  it('an id the server deleted removes the device’s document', async () => {
    const s = await setup();
    s.server.deleted = [s.id, randomUUID()];
    s.server.version = 6;
    await settle(s.replication);
    expect(await s.db.glucose.findOne(s.id).exec()).toBeNull();
    expect(s.errors).toEqual([]);
    await s.replication.cancel();
  });

  it('a discarded refusal of an add removes the document at the next pull', async () => {
    const s = await setup();
    await addOverride({ collection: 'glucose', docId: s.id, doc: null });
    await settle(s.replication);
    expect(await s.db.glucose.findOne(s.id).exec()).toBeNull();
    expect(s.errors).toEqual([]);
    await s.replication.cancel();
  });
});
