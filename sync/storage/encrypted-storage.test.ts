import 'fake-indexeddb/auto';
import {
  createRevision,
  createRxDatabase,
  fillWithDefaultSettings,
  getChangedDocumentsSince,
  getRxReplicationMetaInstanceSchema,
  normalizeMangoQuery,
  now,
  prepareQuery,
  randomToken,
  type EventBulk,
  type MangoQuery,
  type RxDocumentData,
  type RxJsonSchema,
  type RxStorageChangeEvent,
  type RxStorageInstance,
  type RxStorageWriteErrorConflict,
} from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { DecryptionError } from './crypto.ts';
import { SEALED_FIELD, wrappedAesGcmStorage } from './encrypted-storage.ts';
import { replicateForTest } from './test-replication.ts';

// The storage wrapper on its own, over RxDB's real Dexie storage and IndexedDB (fake-indexeddb),
// with a schema that has a nested encrypted path, an index and a plain nested field.

interface Note {
  id: string;
  at: string;
  title: string;
  body?: { text?: string; tags?: string[] };
  score?: number;
}

const noteSchema = fillWithDefaultSettings<Note>({
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    at: { type: 'string', maxLength: 30 },
    title: { type: 'string' },
    body: { type: 'object', properties: { text: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
    score: { type: 'number' },
  },
  required: ['id', 'at', 'title'],
  indexes: ['at'],
  encrypted: ['title', 'body.text', 'score'],
});

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

type Instance = RxStorageInstance<Note, unknown, unknown>;
type Inner = RxStorageInstance<Record<string, unknown>, unknown, unknown>;
const toClose: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  while (toClose.length > 0) await toClose.pop()?.close();
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const req = indexedDB.deleteDatabase(info.name);
    await new Promise((resolve) => (req.onsuccess = resolve));
  }
});

async function createInstance(key: CryptoKey, databaseName = `notes-${randomToken(6)}`, schema: RxJsonSchema<RxDocumentData<Note>> = noteSchema) {
  const storage = wrappedAesGcmStorage({ storage: getRxStorageDexie(), getKey: () => Promise.resolve(key) });
  const instance = (await storage.createStorageInstance<Note>({
    databaseInstanceToken: randomToken(10),
    databaseName,
    collectionName: 'notes',
    schema,
    options: {},
    multiInstance: false,
    devMode: false,
  })) as Instance & { originalStorageInstance: Inner };
  toClose.push(instance);
  return { instance, inner: instance.originalStorageInstance, databaseName };
}

const TOKEN = randomToken(10);
function noteDoc(note: Note, previous?: RxDocumentData<Note>): RxDocumentData<Note> {
  return { ...note, _deleted: false, _attachments: {}, _rev: createRevision(TOKEN, previous), _meta: { lwt: now() } };
}
const prepared = (query: MangoQuery<Note>) => prepareQuery<Note>(noteSchema, normalizeMangoQuery<Note>(noteSchema, query));
const notes: Note[] = [
  { id: 'n1', at: '2025-06-01', title: 'Blurred vision', body: { text: 'since Monday', tags: ['eyes'] }, score: 347 },
  { id: 'n2', at: '2025-06-02', title: 'Thirst', body: { tags: ['mouth'] }, score: 12 },
  { id: 'n3', at: '2025-06-03', title: 'Headache', score: 200 },
];

async function rawRowOf(databaseName: string, id: string): Promise<Record<string, unknown>> {
  const open = indexedDB.open(`rxdb-dexie-${databaseName}--0--notes`);
  const idb = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
  try {
    const get = idb.transaction('docs').objectStore('docs').get(id);
    return await new Promise((resolve) => (get.onsuccess = () => resolve(get.result as Record<string, unknown>)));
  } finally {
    idb.close();
  }
}
async function putRawRow(databaseName: string, row: Record<string, unknown>): Promise<void> {
  const open = indexedDB.open(`rxdb-dexie-${databaseName}--0--notes`);
  const idb = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
  try {
    const put = idb.transaction('docs', 'readwrite').objectStore('docs').put(row);
    await new Promise((resolve) => (put.onsuccess = resolve));
  } finally {
    idb.close();
  }
}

describe('wrappedAesGcmStorage', () => {
  it('hands the inner storage a schema with one sealed field instead of the encrypted ones', async () => {
    const { inner } = await createInstance(await newKey());
    const schema = inner.schema as unknown as { properties: Record<string, { properties?: object }>; required: string[]; encrypted?: unknown };
    expect(schema.encrypted).toBeUndefined();
    expect(schema.properties[SEALED_FIELD]).toEqual({ type: 'string' });
    expect(Object.keys(schema.properties)).not.toContain('title');
    expect(Object.keys(schema.properties)).not.toContain('score');
    expect(schema.properties['body']?.properties).toEqual({ tags: { type: 'array', items: { type: 'string' } } });
    expect(schema.required).toContain(SEALED_FIELD);
    expect(schema.required).not.toContain('title');
  });

  it('stores only ciphertext for encrypted paths and returns the documents whole from every read path', async () => {
    const { instance, inner } = await createInstance(await newKey());
    const events: EventBulk<RxStorageChangeEvent<Note>, unknown>[] = [];
    const sub = instance.changeStream().subscribe((bulk) => events.push(bulk));

    const written = notes.map((n) => noteDoc(n));
    const result = await instance.bulkWrite(
      written.map((document) => ({ document })),
      'test',
    );
    expect(result.error).toEqual([]);

    // What the inner storage holds.
    const [raw] = await inner.findDocumentsById(['n1'], false);
    expect(raw).toBeDefined();
    expect(raw).not.toHaveProperty('title');
    expect(raw).not.toHaveProperty('score');
    expect(raw?.['body']).toEqual({ tags: ['eyes'] });
    expect(raw?.['at']).toBe('2025-06-01');
    expect(JSON.stringify(raw)).not.toMatch(/Blurred vision|since Monday|[^A-Za-z0-9_.-]347[^A-Za-z0-9_.-]/);
    expect(typeof raw?.[SEALED_FIELD]).toBe('string');

    // What comes back.
    const strip = (d: RxDocumentData<Note>) => ({ id: d.id, at: d.at, title: d.title, body: d.body, score: d.score });
    const byId = await instance.findDocumentsById(['n1', 'n2', 'n3'], false);
    expect(byId.map(strip).sort((a, b) => a.id.localeCompare(b.id))).toEqual(notes.map((n) => ({ body: undefined, score: undefined, ...n })));
    for (const doc of byId) expect(doc).not.toHaveProperty(SEALED_FIELD);

    const all = await instance.query(prepared({ selector: {}, sort: [{ at: 'asc' }] }));
    expect(all.documents.map((d) => d.title)).toEqual(['Blurred vision', 'Thirst', 'Headache']);

    const changed = await getChangedDocumentsSince(instance, 10);
    expect(changed?.documents.map((d) => d.title).sort()).toEqual(['Blurred vision', 'Headache', 'Thirst']);

    expect(events.flatMap((b) => b.events.map((e) => e.documentData.title)).sort()).toEqual(['Blurred vision', 'Headache', 'Thirst']);
    expect(JSON.stringify(events)).not.toContain(SEALED_FIELD);

    // An update: the change event carries both states decrypted.
    const first = written[0];
    if (!first) throw new Error('no document');
    const updated = noteDoc({ ...notes[0], id: 'n1', at: '2025-06-01', title: 'Blurred vision, worse', score: 351 }, first);
    expect((await instance.bulkWrite([{ previous: first, document: updated }], 'test')).error).toEqual([]);
    const update = events.at(-1)?.events[0];
    expect(update?.operation).toBe('UPDATE');
    expect(update?.documentData.title).toBe('Blurred vision, worse');
    expect(update?.previousDocumentData?.title).toBe('Blurred vision');

    // A conflicting write: the error carries the stored document and the rejected row, decrypted.
    const stale = noteDoc({ id: 'n1', at: '2025-06-01', title: 'stale edit' }, first);
    const conflict = await instance.bulkWrite([{ previous: first, document: stale }], 'test');
    const err = conflict.error[0] as RxStorageWriteErrorConflict<Note> | undefined;
    expect(err?.status).toBe(409);
    expect(err?.documentInDb.title).toBe('Blurred vision, worse');
    expect(err?.documentInDb.score).toBe(351);
    expect(err?.writeRow.document.title).toBe('stale edit');
    expect(err?.writeRow.previous?.title).toBe('Blurred vision');
    sub.unsubscribe();
  });

  it('answers selectors, sorts and counts on encrypted paths, also mixed with plain ones', async () => {
    const { instance } = await createInstance(await newKey());
    await instance.bulkWrite(
      notes.map((n) => ({ document: noteDoc(n) })),
      'test',
    );
    const titles = async (q: MangoQuery<Note>) => (await instance.query(prepared(q))).documents.map((d) => d.title);

    expect(await titles({ selector: { title: 'Thirst' } })).toEqual(['Thirst']);
    expect(await titles({ selector: { 'body.text': { $regex: '^since' } } })).toEqual(['Blurred vision']);
    expect(await titles({ selector: { at: { $gte: '2025-06-02' }, score: { $gt: 100 } } })).toEqual(['Headache']);
    expect(await titles({ selector: { $or: [{ score: { $lt: 20 } }, { at: '2025-06-01' }] }, sort: [{ at: 'desc' }] })).toEqual(['Thirst', 'Blurred vision']);
    expect(await titles({ selector: { $and: [{ at: { $lte: '2025-06-03' } }, { score: { $gte: 200 } }] }, sort: [{ score: 'asc' }] })).toEqual([
      'Headache',
      'Blurred vision',
    ]);
    expect(await titles({ selector: {}, sort: [{ score: 'desc' }], skip: 1, limit: 1 })).toEqual(['Headache']);
    expect(await titles({ selector: { 'body.tags': { $in: ['mouth'] } } })).toEqual(['Thirst']);

    expect(await instance.count(prepared({ selector: { score: { $gt: 100 } } }))).toEqual({ count: 2, mode: 'slow' });
    // Plain selectors still reach the inner storage's index.
    expect(await instance.count(prepared({ selector: { _deleted: { $eq: false }, at: { $gt: '2025-06-01' } } } as MangoQuery<Note>))).toEqual({
      count: 2,
      mode: 'fast',
    });
  });

  it('fails with a DecryptionError under another key, never with wrong values', async () => {
    const { instance, databaseName } = await createInstance(await newKey());
    await instance.bulkWrite(
      notes.map((n) => ({ document: noteDoc(n) })),
      'test',
    );
    await instance.close();

    const other = await createInstance(await newKey(), databaseName);
    await expect(other.instance.findDocumentsById(['n1'], false)).rejects.toBeInstanceOf(DecryptionError);
    await expect(other.instance.query(prepared({ selector: {} }))).rejects.toBeInstanceOf(DecryptionError);
    await expect(other.instance.query(prepared({ selector: { title: 'Thirst' } }))).rejects.toBeInstanceOf(DecryptionError);
  });

  it('detects a sealed field that was altered, moved from another document or removed, and ignores injected plain values', async () => {
    const key = await newKey();
    const { instance, databaseName } = await createInstance(key);
    await instance.bulkWrite(
      notes.map((n) => ({ document: noteDoc(n) })),
      'test',
    );
    await instance.close();

    const n1 = await rawRowOf(databaseName, 'n1');
    const n2 = await rawRowOf(databaseName, 'n2');
    const n3 = await rawRowOf(databaseName, 'n3');
    const sealed = String(n1[SEALED_FIELD]);
    await putRawRow(databaseName, { ...n1, [SEALED_FIELD]: sealed.slice(0, -3) + (sealed.endsWith('AAA') ? 'BBB' : 'AAA') });
    await putRawRow(databaseName, { ...n2, [SEALED_FIELD]: n3[SEALED_FIELD] });
    const n3WithoutSeal = { ...n3 };
    delete n3WithoutSeal[SEALED_FIELD];
    await putRawRow(databaseName, n3WithoutSeal);

    const { instance: again } = await createInstance(key, databaseName);
    for (const id of ['n1', 'n2', 'n3']) await expect(again.findDocumentsById([id], false)).rejects.toBeInstanceOf(DecryptionError);

    // A value written in plain form next to an intact seal is discarded in favour of the sealed one.
    await putRawRow(databaseName, { ...n1, title: 'INJECTED', score: 1 });
    const [doc] = await again.findDocumentsById(['n1'], false);
    expect(doc?.title).toBe('Blurred vision');
    expect(doc?.score).toBe(347);
  });

  it('passes collections without encrypted fields through untouched', async () => {
    const plainSchema = { ...noteSchema };
    delete plainSchema.encrypted;
    const { instance, databaseName } = await createInstance(await newKey(), undefined, plainSchema);
    expect(instance).not.toHaveProperty('originalStorageInstance');
    await instance.bulkWrite([{ document: noteDoc(notes[1] ?? { id: 'x', at: 'x', title: 'x' }) }], 'test');
    expect(await rawRowOf(databaseName, 'n2')).toMatchObject({ title: 'Thirst', score: 12 });
  });

  it('refuses to encrypt an indexed field or the primary key', async () => {
    const indexedSecret = { ...noteSchema, encrypted: ['at'] };
    await expect(createInstance(await newKey(), undefined, indexedSecret)).rejects.toThrow(/"at" is indexed/);
  });

  it('seals the copies of documents that RxDB replication keeps in its meta storage', async () => {
    const key = await newKey();
    const storage = wrappedAesGcmStorage({ storage: getRxStorageDexie(), getKey: () => Promise.resolve(key) });
    const db = await createRxDatabase({ name: 'replicated', storage, multiInstance: false });
    toClose.push(db);
    const { notes: collection } = await db.addCollections({ notes: { schema: { ...noteSchema, encrypted: ['title', 'body', 'score'] } } });
    const pushed: string[] = [];
    const replication = replicateRxCollection<Note, number>({
      collection,
      replicationIdentifier: 'notes-test',
      live: false,
      pull: {
        handler: (checkpoint) =>
          Promise.resolve(
            checkpoint
              ? { documents: [], checkpoint }
              : { documents: [{ id: 'p1', at: '2025-06-05', title: 'Pulled secret', score: 598, _deleted: false }], checkpoint: 1 },
          ),
      },
      push: {
        handler: (rows) => {
          pushed.push(...rows.map((r) => r.newDocumentState.title));
          return Promise.resolve([]);
        },
      },
    });
    await collection.insert({ id: 'l1', at: '2025-06-06', title: 'Local secret', score: 421 });
    await replication.awaitInitialReplication();
    await replication.cancel();
    expect(pushed).toEqual(['Local secret']);
    expect((await collection.findOne('p1').exec())?.title).toBe('Pulled secret');

    const dump: string[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name?.includes('replicated')) continue;
      const open = indexedDB.open(info.name);
      const idb = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
      for (const store of Array.from(idb.objectStoreNames)) {
        const all = idb.transaction(store).objectStore(store).getAll();
        dump.push(`${info.name}/${store} ${JSON.stringify(await new Promise((resolve) => (all.onsuccess = () => resolve(all.result))))}`);
      }
      idb.close();
    }
    expect(dump.some((line) => line.includes('rx-replication-meta') && line.includes(SEALED_FIELD))).toBe(true);
    expect(dump.join('\n')).not.toMatch(/Pulled secret|Local secret|[^A-Za-z0-9_.-](598|421)[^A-Za-z0-9_.-]/);
    // Field names appear in the stored schemas only, never as keys of a stored document.
    const documents = dump.filter((line) => !line.includes('_rxdb_internal')).join('\n');
    expect(documents).not.toMatch(/"(title|score|body)":/);
    // A copy keeps in plain form only what its document keeps in plain form.
    for (const copy of documents.matchAll(/"docData":(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})/g)) {
      expect(Object.keys(JSON.parse(copy[1] ?? '{}') as object).sort()).toEqual(
        ['_attachments', '_deleted', '_meta', '_rev', 'at', 'id'].filter((k) => (copy[1] ?? '').includes(`"${k}":`)),
      );
    }
  });

  /** A replicated notes collection whose pulls hand out `served`; its meta storage's rows read raw. */
  async function replicatedNotes(key: CryptoKey, name: string, served: () => Note[], live = false) {
    const storage = wrappedAesGcmStorage({ storage: getRxStorageDexie(), getKey: () => Promise.resolve(key) });
    const db = await createRxDatabase({ name, storage, multiInstance: false });
    const { notes: collection } = await db.addCollections({ notes: { schema: noteSchema } });
    const { replication, pushed } = await replicateForTest(collection, 'notes-copies', served, live);
    return { db, collection, replication, pushed };
  }

  async function rowsOf(nameIncludes: string): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name?.includes(nameIncludes)) continue;
      const open = indexedDB.open(info.name);
      const idb = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
      const all = idb.transaction('docs').objectStore('docs').getAll();
      rows.push(...(await new Promise<Record<string, unknown>[]>((resolve) => (all.onsuccess = () => resolve(all.result as Record<string, unknown>[])))));
      idb.close();
    }
    return rows;
  }

  it("seals a pulled document's copy with the document's own ciphertext, and reads it back after a reload", async () => {
    const key = await newKey();
    const first = await replicatedNotes(key, 'copies', () => notes);
    await first.replication.cancel();
    const forkRows = await rowsOf('copies--0--notes');
    const copies = (await rowsOf('rx-replication-meta')).filter((r) => r['isCheckpoint'] === '0');
    expect(copies).toHaveLength(notes.length);
    for (const copy of copies) {
      // No second encryption: the copy holds the very ciphertext of its document.
      expect(copy[SEALED_FIELD]).toBe(forkRows.find((r) => r['id'] === copy['itemId'])?.[SEALED_FIELD]);
      expect(copy['docData']).toMatchObject({ id: copy['itemId'] });
      expect(JSON.stringify(copy)).not.toMatch(/Blurred|Thirst|Headache|since Monday|(?<![A-Za-z0-9_.-])347(?![A-Za-z0-9_.-])/);
    }
    await first.db.close();

    // A reload (nothing cached): a change of a pulled note is pushed with the copy as the server's state.
    const again = await replicatedNotes(key, 'copies', () => [], true);
    await (await again.collection.findOne('n1').exec())?.incrementalPatch({ title: 'Blurred vision, worse' });
    await again.replication.reSync();
    await again.replication.awaitInSync();
    expect(again.pushed).toHaveLength(1);
    expect(again.pushed[0]?.doc.title).toBe('Blurred vision, worse');
    expect(again.pushed[0]?.assumed).toMatchObject({ id: 'n1', title: 'Blurred vision', body: { text: 'since Monday', tags: ['eyes'] }, score: 347 });
    await again.replication.cancel();
    await again.db.close();
  });

  it('still reads copies sealed whole, as stored before copies were sealed as their documents', async () => {
    const key = await newKey();
    const storage = wrappedAesGcmStorage({ storage: getRxStorageDexie(), getKey: () => Promise.resolve(key) });
    const metaOf = (schema: RxJsonSchema<RxDocumentData<Note>>) =>
      storage.createStorageInstance<Record<string, unknown>>({
        databaseInstanceToken: randomToken(10),
        databaseName: 'legacy',
        collectionName: 'rx-replication-meta-notes',
        schema: getRxReplicationMetaInstanceSchema(schema, true) as unknown as RxJsonSchema<RxDocumentData<Record<string, unknown>>>,
        options: {},
        multiInstance: false,
        devMode: false,
      });
    const copyRow = {
      id: 'n1|0',
      isCheckpoint: '0',
      itemId: 'n1',
      docData: { ...notes[0], _deleted: false },
      _deleted: false,
      _attachments: {},
      _rev: createRevision(TOKEN),
      _meta: { lwt: now() },
    };
    // A collection this storage did not make: its copies are sealed whole, as before.
    const unlinked = await metaOf({ ...noteSchema, properties: { ...noteSchema.properties } });
    await unlinked.bulkWrite([{ document: copyRow }], 'test');
    await unlinked.close();
    const [raw] = (await rowsOf('rx-replication-meta-notes')) as { docData?: unknown }[];
    expect(raw?.docData).toBeUndefined();

    const parent = await storage.createStorageInstance<Note>({
      databaseInstanceToken: randomToken(10),
      databaseName: 'legacy',
      collectionName: 'notes',
      schema: noteSchema,
      options: {},
      multiInstance: false,
      devMode: false,
    });
    toClose.push(parent);
    const linked = await metaOf(noteSchema);
    toClose.push(linked);
    // Linked: a copy written now is sealed as its document (its plain fields stay in the row).
    await linked.bulkWrite([{ document: { ...copyRow, id: 'n2|0', itemId: 'n2', docData: { ...notes[1], _deleted: false } } }], 'test');
    expect((await rowsOf('rx-replication-meta-notes')).find((r) => r['itemId'] === 'n2')?.['docData']).toEqual({
      id: 'n2',
      at: '2025-06-02',
      body: { tags: ['mouth'] },
      _deleted: false,
    });
    const [copy] = await linked.findDocumentsById(['n1|0'], false);
    expect(copy?.['docData']).toMatchObject({ id: 'n1', title: 'Blurred vision', body: { text: 'since Monday', tags: ['eyes'] }, score: 347 });
  });

  it('refuses a copy whose ciphertext was moved from another document, and discards plain values injected into a copy', async () => {
    const key = await newKey();
    const first = await replicatedNotes(key, 'moved', () => notes);
    await first.replication.cancel();
    await first.db.close();
    const copies = (await rowsOf('rx-replication-meta')).filter((r) => r['isCheckpoint'] === '0');
    const n1 = copies.find((r) => r['itemId'] === 'n1');
    const n2 = copies.find((r) => r['itemId'] === 'n2');
    const metaDb = (await indexedDB.databases()).find((i) => i.name?.includes('rx-replication-meta'))?.name ?? '';
    const put = async (row: Record<string, unknown>) => {
      const open = indexedDB.open(metaDb);
      const idb = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
      const req = idb.transaction('docs', 'readwrite').objectStore('docs').put(row);
      await new Promise((resolve) => (req.onsuccess = resolve));
      idb.close();
    };
    await put({ ...n1, [SEALED_FIELD]: n2?.[SEALED_FIELD] });
    await put({ ...n2, docData: { ...(n2?.['docData'] as object), title: 'INJECTED', score: 1 } });

    const again = await replicatedNotes(key, 'moved', () => [], true);
    const meta = again.replication.metaInstance;
    if (!meta) throw new Error('no meta storage');
    const idOf = (itemId: string) => `${itemId}|0`;
    await expect(meta.findDocumentsById([idOf('n1')], false)).rejects.toBeInstanceOf(DecryptionError);
    const [copy] = await meta.findDocumentsById([idOf('n2')], false);
    expect((copy as unknown as { docData: Note }).docData).toMatchObject({ id: 'n2', title: 'Thirst', score: 12 });
    await again.replication.cancel();
    await again.db.close();
  });
});
