import 'fake-indexeddb/auto';
import {
  createRevision,
  createRxDatabase,
  fillWithDefaultSettings,
  normalizeMangoQuery,
  now,
  prepareQuery,
  randomToken,
  type EventBulk,
  type RxDocumentData,
  type RxStorageChangeEvent,
  type RxStorageInstance,
  type RxStorageWriteErrorConflict,
} from 'rxdb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DecryptionError } from './crypto.ts';
import { getRxStorageDexieBulkRead, GROUP_GRACE_MS } from './dexie-bulk-read.ts';
import { GROUP_MAX, GROUP_MIN, wrappedAesGcmStorage } from './encrypted-storage.ts';
import { parseGroupRef, SEALED_FIELD, sealedGroupsOf } from './sealed-groups.ts';
import { replicateForTest } from './test-replication.ts';

// Documents sealed in groups (sealed-groups.ts): the encryption wrapper over the app's own Dexie
// storage, which keeps the groups beside the rows, on fake-indexeddb.

interface Reading {
  id: string;
  at: string;
  value: number;
  note?: string;
}

const schema = fillWithDefaultSettings<Reading>({
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, at: { type: 'string', maxLength: 30 }, value: { type: 'number' }, note: { type: 'string' } },
  required: ['id', 'at', 'value'],
  indexes: ['at'],
  encrypted: ['value', 'note'],
});

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
const TOKEN = randomToken(10);
const doc = (r: Reading, previous?: RxDocumentData<Reading>): RxDocumentData<Reading> => ({
  ...r,
  _deleted: false,
  _attachments: {},
  _rev: createRevision(TOKEN, previous),
  _meta: { lwt: now() },
});
const readings = (count: number, from = 0): Reading[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `r${String(from + i).padStart(5, '0')}`,
    at: `2026-01-01T00:${String((from + i) % 60).padStart(2, '0')}`,
    value: 100 + from + i,
    note: `secret note ${from + i}`,
  }));

type Instance = RxStorageInstance<Reading, unknown, unknown>;
const toClose: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (toClose.length > 0) await toClose.pop()?.close();
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const req = indexedDB.deleteDatabase(info.name);
    await new Promise((resolve) => (req.onsuccess = resolve));
  }
});

/** A storage instance as the app makes one; a second call with the same name is a reload. */
async function open(key: CryptoKey, databaseName: string): Promise<Instance> {
  const storage = wrappedAesGcmStorage({ storage: getRxStorageDexieBulkRead(), getKey: () => Promise.resolve(key) });
  const instance = await storage.createStorageInstance<Reading>({
    databaseInstanceToken: randomToken(10),
    databaseName,
    collectionName: 'readings',
    schema,
    options: {},
    multiInstance: false,
    devMode: false,
  });
  toClose.push(instance);
  return instance;
}

/** Every row of the instance's IndexedDB database, by store. */
async function raw(databaseName: string): Promise<{ docs: Record<string, unknown>[]; attachments: { id: string; data: string; rows: number }[] }> {
  const req = indexedDB.open(`rxdb-dexie-${databaseName}--0--readings`);
  const idb = await new Promise<IDBDatabase>((resolve) => (req.onsuccess = () => resolve(req.result)));
  try {
    const all = <T>(store: string) => {
      const get = idb.transaction(store).objectStore(store).getAll();
      return new Promise<T[]>((resolve) => (get.onsuccess = () => resolve(get.result as T[])));
    };
    return { docs: await all('docs'), attachments: await all('attachments') };
  } finally {
    idb.close();
  }
}
async function putRaw(databaseName: string, store: string, row: object): Promise<void> {
  const req = indexedDB.open(`rxdb-dexie-${databaseName}--0--readings`);
  const idb = await new Promise<IDBDatabase>((resolve) => (req.onsuccess = () => resolve(req.result)));
  try {
    const put = idb.transaction(store, 'readwrite').objectStore(store).put(row);
    await new Promise((resolve) => (put.onsuccess = resolve));
  } finally {
    idb.close();
  }
}
const groupsOf = (rows: Record<string, unknown>[]) => new Set(rows.map((r) => parseGroupRef(r[SEALED_FIELD])?.groupId));
const storedGroups = (attachments: { id: string; rows: number }[]) => attachments.filter((a) => a.id.includes('sealed-group:'));
const byAt = prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, { selector: {}, sort: [{ at: 'asc' }, { id: 'asc' }] }));

describe('documents sealed in groups', () => {
  it('seals a large write in groups of at most GROUP_MAX, stores no plain value, and reads it back after a reload', async () => {
    const key = await newKey();
    const name = `groups-${randomToken(6)}`;
    const written = readings(GROUP_MAX + 10);
    const first = await open(key, name);
    expect(
      (
        await first.bulkWrite(
          written.map((r) => ({ document: doc(r) })),
          'test',
        )
      ).error,
    ).toEqual([]);
    await first.close();

    const stored = await raw(name);
    expect(JSON.stringify(stored)).not.toMatch(/secret note|"value"|"note"/);
    const groups = groupsOf(stored.docs);
    // Two groups of 130, not one of 250 and one of 10.
    expect(groups.size).toBe(2);
    expect(groups.has(undefined)).toBe(false);
    expect(
      storedGroups(stored.attachments)
        .map((g) => g.rows)
        .sort(),
    ).toEqual([130, 130]);

    const again = await open(key, name);
    // The groups a read needs are read from storage together, once: not once per row.
    const store = sealedGroupsOf((again as Instance & { originalStorageInstance: object }).originalStorageInstance);
    if (!store) throw new Error('the storage keeps no groups');
    const reads = vi.spyOn(store, 'read');
    const found = await again.findDocumentsById(['r00003', 'r00200'], false);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(new Set(reads.mock.calls[0]?.[0])).toEqual(groups);
    expect(found.map((d) => [d.id, d.value, d.note]).sort()).toEqual([
      ['r00003', 103, 'secret note 3'],
      ['r00200', 300, 'secret note 200'],
    ]);
    const all = (await again.query(byAt)).documents;
    expect(all).toHaveLength(written.length);
    for (const d of all) expect(d).not.toHaveProperty(SEALED_FIELD);
    expect(all.map((d) => d.value).sort()).toEqual(written.map((r) => r.value).sort());
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads more groups at once than it keeps opened (100), every row whole', async () => {
    const key = await newKey();
    const name = `many-${randomToken(6)}`;
    const first = await open(key, name);
    for (let g = 0; g < 105; g++)
      await first.bulkWrite(
        readings(GROUP_MIN, g * GROUP_MIN).map((r) => ({ document: doc(r) })),
        'test',
      );
    await first.close();
    const again = await open(key, name);
    // Some opened first, so that the read of all evicts groups it found opened as well as its own.
    expect((await again.findDocumentsById(['r00000', 'r00100', 'r00400'], false)).map((d) => d.value)).toEqual([100, 200, 500]);
    const all = (await again.query(byAt)).documents;
    expect(all).toHaveLength(105 * GROUP_MIN);
    expect(all.map((d) => d.value).sort((a, b) => a - b)).toEqual(Array.from({ length: 105 * GROUP_MIN }, (_, i) => 100 + i));
  });

  it('seals a small write one document at a time, as a patient enters readings', async () => {
    const key = await newKey();
    const name = `alone-${randomToken(6)}`;
    const instance = await open(key, name);
    await instance.bulkWrite(
      readings(GROUP_MIN - 1).map((r) => ({ document: doc(r) })),
      'test',
    );
    const stored = await raw(name);
    expect(groupsOf(stored.docs)).toEqual(new Set([undefined]));
    expect(storedGroups(stored.attachments)).toEqual([]);
  });

  it('counts the rows that refer to each group, and deletes a group none refers to once its grace has passed', async () => {
    const key = await newKey();
    const name = `count-${randomToken(6)}`;
    const instance = await open(key, name);
    const inserted = readings(20).map((r) => doc(r));
    await instance.bulkWrite(
      inserted.map((document) => ({ document })),
      'test',
    );
    const [group] = storedGroups((await raw(name)).attachments);
    expect(group?.rows).toBe(20);

    // Five changed one by one: each moves to a ciphertext of its own.
    for (const previous of inserted.slice(0, 5)) {
      expect((await instance.bulkWrite([{ previous, document: doc({ ...previous, value: 1 }, previous) }], 'test')).error).toEqual([]);
    }
    expect(storedGroups((await raw(name)).attachments)[0]?.rows).toBe(15);
    // The other fifteen changed in one write of their own: a new group, and the old one is unused.
    const rest = inserted.slice(5);
    await instance.bulkWrite(
      rest.map((previous) => ({ previous, document: doc({ ...previous, value: 2 }, previous) })),
      'test',
    );
    let groups = storedGroups((await raw(name)).attachments);
    expect(groups.map((g) => g.rows).sort()).toEqual([0, 15]);

    // Kept through the grace (a change event may still open it), deleted by a write after it.
    const later = Date.now() + GROUP_GRACE_MS + 1000;
    await instance.bulkWrite([{ document: doc({ id: 'x1', at: '2026-02-01', value: 5 }) }], 'test');
    expect(storedGroups((await raw(name)).attachments)).toHaveLength(2);
    vi.spyOn(Date, 'now').mockReturnValue(later);
    await instance.bulkWrite([{ document: doc({ id: 'x2', at: '2026-02-01', value: 6 }) }], 'test');
    vi.restoreAllMocks();
    const left = await raw(name);
    groups = storedGroups(left.attachments);
    expect(groups.map((g) => g.rows)).toEqual([15]);
    expect(left.attachments.filter((a) => a.id.includes('sealed-unused:'))).toEqual([]);
    const values = (await instance.query(byAt)).documents.map((d) => d.value);
    expect(values.filter((v) => v === 1)).toHaveLength(5);
    expect(values.filter((v) => v === 2)).toHaveLength(15);
  });

  it('stores a group with the rows a write stored, and hands back conflicts and events as the caller wrote them', async () => {
    const key = await newKey();
    const name = `conflict-${randomToken(6)}`;
    const instance = await open(key, name);
    const events: EventBulk<RxStorageChangeEvent<Reading>, unknown>[] = [];
    const sub = instance.changeStream().subscribe((bulk) => events.push(bulk));
    const existing = doc({ id: 'r00000', at: '2026-01-01T00:00', value: 42, note: 'already here' });
    await instance.bulkWrite([{ document: existing }], 'test');

    const rows = readings(10).map((r) => ({ document: doc(r) }));
    const result = await instance.bulkWrite(rows, 'test');
    expect(result.error).toHaveLength(1);
    const conflict = result.error[0] as RxStorageWriteErrorConflict<Reading>;
    expect(conflict.status).toBe(409);
    expect(conflict.writeRow).toBe(rows[0]);
    expect(conflict.documentInDb).toMatchObject({ id: 'r00000', value: 42, note: 'already here' });
    expect(conflict.documentInDb).not.toHaveProperty(SEALED_FIELD);
    // Nine rows were stored, and their group counts nine.
    expect(storedGroups((await raw(name)).attachments).map((g) => g.rows)).toEqual([9]);

    const inserted = events.flatMap((b) => b.events).filter((e) => e.documentId === 'r00004');
    expect(inserted).toHaveLength(1);
    expect(inserted[0]?.documentData).toBe(rows[4]?.document);
    const [stored] = await instance.findDocumentsById(['r00004'], false);
    if (!stored) throw new Error('not stored');
    await instance.bulkWrite([{ previous: stored, document: doc({ ...stored, value: 7 }, stored) }], 'test');
    const updated = events.flatMap((b) => b.events).filter((e) => e.documentId === 'r00004' && e.operation === 'UPDATE');
    expect(updated[0]?.previousDocumentData).toBe(stored);
    expect(updated[0]?.documentData).toMatchObject({ value: 7, note: 'secret note 4' });
    sub.unsubscribe();
  });

  it('refuses a reference moved to another row or place, and a group altered or swapped for another', async () => {
    const key = await newKey();
    const name = `tamper-${randomToken(6)}`;
    const first = await open(key, name);
    await first.bulkWrite(
      readings(10).map((r) => ({ document: doc(r) })),
      'test',
    );
    await first.bulkWrite(
      readings(10, 100).map((r) => ({ document: doc(r) })),
      'test',
    );
    // Two sealed alone, so that a read of everything also waits on WebCrypto for single rows.
    await first.bulkWrite(
      readings(2, 200).map((r) => ({ document: doc(r) })),
      'test',
    );
    await first.close();
    const { docs, attachments } = await raw(name);
    const row = (id: string) => docs.find((d) => d['id'] === id) ?? {};
    const [groupA, groupB] = storedGroups(attachments) as { id: string; data: string; rows: number }[];
    if (!groupA || !groupB) throw new Error('two groups expected');

    // r00001 given r00002's reference; r00003 given another place in its own group.
    await putRaw(name, 'docs', { ...row('r00001'), [SEALED_FIELD]: row('r00002')[SEALED_FIELD] });
    const ref3 = String(row('r00003')[SEALED_FIELD]);
    await putRaw(name, 'docs', { ...row('r00003'), [SEALED_FIELD]: ref3.replace(/\.\d+$/, '.9') });
    // r00201, sealed alone, given r00200's ciphertext (bound to r00200's id).
    await putRaw(name, 'docs', { ...row('r00201'), [SEALED_FIELD]: row('r00200')[SEALED_FIELD] });
    const again = await open(key, name);
    await expect(again.findDocumentsById(['r00001'], false)).rejects.toBeInstanceOf(DecryptionError);
    await expect(again.findDocumentsById(['r00003'], false)).rejects.toBeInstanceOf(DecryptionError);
    expect((await again.findDocumentsById(['r00002'], false))[0]?.value).toBe(102);
    // A read fails whole on a tampered row, and leaves no refused decryption unhandled.
    await expect(again.findDocumentsById(['r00201', 'r00001'], false)).rejects.toBeInstanceOf(DecryptionError);
    await expect(again.query(byAt)).rejects.toBeInstanceOf(DecryptionError);
    expect((await again.findDocumentsById(['r00200'], false)).map((d) => d.value)).toEqual([300]);
    await again.close();

    // One group's ciphertext altered, the other's replaced by the first's (under its own id).
    const flip = (s: string) => s.slice(0, -3) + (s.endsWith('AAA') ? 'BBB' : 'AAA');
    await putRaw(name, 'attachments', { ...groupA, data: flip(groupA.data) });
    await putRaw(name, 'attachments', { ...groupB, data: groupA.data });
    const third = await open(key, name);
    await expect(third.findDocumentsById(['r00005'], false)).rejects.toThrow(/decryption failed/);
    await expect(third.findDocumentsById(['r00105'], false)).rejects.toThrow(/decryption failed/);
  });

  it('refuses to store rows that refer to a group neither stored nor written with them', async () => {
    const key = await newKey();
    const name = `dangling-${randomToken(6)}`;
    const instance = (await open(key, name)) as Instance & { originalStorageInstance: RxStorageInstance<Record<string, unknown>, unknown, unknown> };
    const row = {
      id: 'd1',
      at: '2026-01-01',
      [SEALED_FIELD]: '~0123456789abcdef0123456789abcdef.0',
      _deleted: false,
      _attachments: {},
      _rev: createRevision(TOKEN),
      _meta: { lwt: now() },
    };
    await expect(instance.originalStorageInstance.bulkWrite([{ document: row }], 'test')).rejects.toThrow(/neither stored nor being written/);
    expect((await raw(name)).docs).toEqual([]);
  });

  it("seals a first pull's documents and the replication's copies of them in groups of their own, and pushes a change after a reload with the right server state", async () => {
    const key = await newKey();
    const served = readings(30);
    async function replicated(live: boolean, serve: Reading[]) {
      const storage = wrappedAesGcmStorage({ storage: getRxStorageDexieBulkRead(), getKey: () => Promise.resolve(key) });
      const db = await createRxDatabase({ name: 'pulled', storage, multiInstance: false });
      toClose.push(db);
      const { readings: collection } = await db.addCollections({ readings: { schema } });
      const { replication, pushed } = await replicateForTest(collection, 'readings-groups', () => serve, live);
      return { db, collection, replication, pushed };
    }
    const first = await replicated(false, served);
    await first.replication.cancel();
    await first.db.close();

    const dump: { name: string; docs: Record<string, unknown>[]; groups: number }[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name?.includes('pulled') || info.name.includes('_rxdb_internal')) continue;
      const req = indexedDB.open(info.name);
      const idb = await new Promise<IDBDatabase>((resolve) => (req.onsuccess = () => resolve(req.result)));
      const all = (store: string) => {
        const get = idb.transaction(store).objectStore(store).getAll();
        return new Promise<Record<string, unknown>[]>((resolve) => (get.onsuccess = () => resolve(get.result as Record<string, unknown>[])));
      };
      dump.push({ name: info.name, docs: await all('docs'), groups: storedGroups((await all('attachments')) as { id: string; rows: number }[]).length });
      idb.close();
    }
    expect(JSON.stringify(dump)).not.toMatch(/secret note|"value"|"note"/);
    const fork = dump.find((d) => d.name.endsWith('--readings'));
    const meta = dump.find((d) => d.name.includes('rx-replication-meta'));
    expect(fork?.groups).toBe(1);
    expect(meta?.groups).toBe(1);
    const copies = meta?.docs.filter((r) => r['isCheckpoint'] === '0') ?? [];
    expect(copies).toHaveLength(30);
    for (const copy of copies) expect(parseGroupRef(copy[SEALED_FIELD])).toBeDefined();

    // A reload (nothing cached): a change is pushed with the copy, opened from its group, as the server's state.
    const again = await replicated(true, []);
    await (await again.collection.findOne('r00007').exec())?.incrementalPatch({ value: 250 });
    await again.replication.reSync();
    await again.replication.awaitInSync();
    expect(again.pushed).toHaveLength(1);
    expect(again.pushed[0]?.doc).toMatchObject({ id: 'r00007', value: 250, note: 'secret note 7' });
    expect(again.pushed[0]?.assumed).toMatchObject({ id: 'r00007', value: 107, note: 'secret note 7' });
    await again.replication.cancel();
  });

  it('hands another tab the change events of a write, the versions before included, in a form it can open (chaos seed 676317062)', async () => {
    // Two tabs: two storages (nothing cached in common) over one database, told of each other's
    // writes through the browser's broadcast. Without the fix, the other tab got each update's
    // version before without its sealed data, and its change stream died on it.
    const key = await newKey();
    const databaseName = `tabs-${randomToken(6)}`;
    const tab = async () => {
      const storage = wrappedAesGcmStorage({ storage: getRxStorageDexieBulkRead(), getKey: () => Promise.resolve(key) });
      const instance = await storage.createStorageInstance<Reading>({
        databaseInstanceToken: randomToken(10),
        databaseName,
        collectionName: 'readings',
        schema,
        options: {},
        multiInstance: true,
        devMode: false,
      });
      toClose.push(instance);
      return instance;
    };
    const writer = await tab();
    const other = await tab();
    const seen: RxStorageChangeEvent<Reading>[] = [];
    let failed: unknown;
    const sub = other.changeStream().subscribe({ next: (bulk) => seen.push(...bulk.events), error: (err: unknown) => (failed = err) });

    const one = doc({ id: 'one', at: '2026-03-01', value: 90, note: 'alone' });
    const many = readings(GROUP_MIN);
    const inserted = many.map((r) => doc(r));
    await writer.bulkWrite([{ document: one }], 'test');
    await writer.bulkWrite(
      inserted.map((document) => ({ document })),
      'test',
    );
    // Updates of a document sealed alone and of documents sealed in a group; the first one read
    // back from storage by the writer, as the app does, the others as written.
    const [stored] = await writer.findDocumentsById(['one'], false);
    if (!stored) throw new Error('not stored');
    await writer.bulkWrite([{ previous: stored, document: doc({ ...stored, value: 91 }, stored) }], 'test');
    await writer.bulkWrite(
      inserted.map((previous) => ({ previous, document: doc({ ...previous, value: previous.value + 1000 }, previous) })),
      'test',
    );

    await vi.waitFor(() => expect([failed, seen.filter((e) => e.operation === 'UPDATE').length]).toEqual([undefined, 1 + GROUP_MIN]), { timeout: 5000 });
    sub.unsubscribe();
    expect(failed).toBeUndefined();
    const updates = seen.filter((e) => e.operation === 'UPDATE');
    expect(updates[0]?.previousDocumentData).toMatchObject({ id: 'one', value: 90, note: 'alone' });
    expect(updates[0]?.documentData).toMatchObject({ id: 'one', value: 91, note: 'alone' });
    for (const [i, event] of updates.slice(1).entries()) {
      expect(event.previousDocumentData).toMatchObject({ id: many[i]?.id, value: many[i]?.value, note: many[i]?.note });
      expect(event.documentData).toMatchObject({ id: many[i]?.id, value: (many[i]?.value ?? 0) + 1000 });
    }
  });
});
