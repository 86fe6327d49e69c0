import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { createRevision, now } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { destroyDataKey } from './crypto.ts';
import { openEddyDatabase, type EddyDatabase } from './database.ts';
import { removeRecord } from './remove.ts';

let db: EddyDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await destroyDataKey();
});

describe('removeRecord', () => {
  it('deletes a record that a pull rewrote between the read and the deletion', async () => {
    db = await openEddyDatabase({ name: `remove-${randomUUID()}`, storage: getRxStorageMemory() });
    const glucose = db.glucose;
    const id = randomUUID();
    await glucose.insert({ _id: id, type: 'Random', value: 266, recordedAt: new Date().toISOString() });
    // Once, just before the deletion is written: a pull writes the server's copy (a new revision),
    // straight to the storage as RxDB's replication does.
    let pulled = false;
    glucose.preRemove(async () => {
      if (pulled) return;
      pulled = true;
      const [current] = await glucose.storageInstance.findDocumentsById([id], false);
      if (!current) throw new Error('missing');
      const next = { ...current, version: 7, _meta: { ...current._meta, lwt: now() } };
      await glucose.storageInstance.bulkWrite([{ previous: current, document: { ...next, _rev: createRevision(db!.token, current) } }], 'pull');
    }, false);

    expect(await removeRecord(glucose, id)).toBe(true);
    expect(pulled).toBe(true);
    expect(await glucose.findOne(id).exec()).toBeNull();
    // Already gone: nothing to do, and no error.
    expect(await removeRecord(glucose, id)).toBe(false);
  });
});
