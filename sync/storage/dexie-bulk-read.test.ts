import 'fake-indexeddb/auto';
import { createRevision, fillWithDefaultSettings, normalizeMangoQuery, now, prepareQuery, randomToken, type MangoQuery, type RxDocumentData } from 'rxdb';
import { dexieQuery, type RxStorageInstanceDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieBulkGet, dexieBulkPut, dexieBulkQuery, getRxStorageDexieBulkRead, PUT_STEP, REPLICATION_META_TITLE } from './dexie-bulk-read.ts';

// The getAll() query must answer every query exactly as RxDB's cursor query does: the same
// documents in the same order, with skip, limit, deleted rows, a boolean index, sorts the index
// satisfies and sorts it does not, and selectors that need a matcher.

interface Reading {
  id: string;
  type: string;
  at: string;
  value: number;
  flagged: boolean;
}

const schema = fillWithDefaultSettings<Reading>({
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    type: { type: 'string', maxLength: 20 },
    at: { type: 'string', maxLength: 30 },
    value: { type: 'number', minimum: 0, maximum: 1000, multipleOf: 1 },
    flagged: { type: 'boolean' },
  },
  required: ['id', 'type', 'at', 'value', 'flagged'],
  indexes: ['at', ['type', 'at'], 'flagged'],
});

const TYPES = ['Fasting', 'Postprandial', 'Random'];
const TOKEN = randomToken(10);

const toClose: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  while (toClose.length > 0) await toClose.pop()?.close();
});

async function emptyInstance(title?: string): Promise<RxStorageInstanceDexie<Reading>> {
  const storage = getRxStorageDexieBulkRead();
  const instance = (await storage.createStorageInstance<Reading>({
    databaseInstanceToken: randomToken(10),
    databaseName: `bulk-${randomToken(6)}`,
    collectionName: 'readings',
    schema: title ? { ...schema, title } : schema,
    options: {},
    multiInstance: false,
    devMode: false,
  })) as unknown as RxStorageInstanceDexie<Reading>;
  toClose.push(instance);
  return instance;
}

async function filledInstance(): Promise<RxStorageInstanceDexie<Reading>> {
  const instance = await emptyInstance();
  const docs: RxDocumentData<Reading>[] = Array.from({ length: 240 }, (_, i) => ({
    id: `r${String(i).padStart(3, '0')}`,
    type: TYPES[(i * 7) % 3] ?? 'Random',
    // Some readings share a time, so ties are broken by the primary key.
    at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 3_600_000).toISOString(),
    value: 60 + ((i * 37) % 300),
    flagged: i % 5 === 0,
    _deleted: i % 11 === 0,
    _attachments: {},
    _rev: createRevision(TOKEN),
    _meta: { lwt: now() },
  }));
  const result = await instance.bulkWrite(
    docs.map((document) => ({ document })),
    'test',
  );
  expect(result.error).toEqual([]);
  return instance;
}

const queries: MangoQuery<Reading>[] = [
  { selector: {} },
  { selector: {}, sort: [{ at: 'desc' }] },
  { selector: { at: { $gte: '2026-01-03T00:00:00.000Z' } }, sort: [{ at: 'desc' }] },
  { selector: { at: { $gte: '2026-01-03T00:00:00.000Z' } }, sort: [{ at: 'asc' }] },
  { selector: { at: { $gte: '2026-01-02T00:00:00.000Z', $lt: '2026-01-04T00:00:00.000Z' } }, sort: [{ at: 'asc' }], limit: 7 },
  { selector: { at: { $gte: '2026-01-02T00:00:00.000Z' } }, sort: [{ at: 'asc' }], skip: 5, limit: 10 },
  { selector: { type: 'Fasting' }, sort: [{ at: 'desc' }], limit: 5 },
  { selector: { type: 'Random', at: { $lte: '2026-01-04T00:00:00.000Z' } }, sort: [{ at: 'asc' }] },
  { selector: { value: { $gt: 200 } }, sort: [{ at: 'asc' }], limit: 6 },
  { selector: { value: { $gt: 200 } }, sort: [{ value: 'desc' }] },
  { selector: { flagged: true } },
  { selector: { flagged: false, at: { $gt: '2026-01-05T00:00:00.000Z' } }, sort: [{ at: 'desc' }], skip: 2 },
  { selector: { _deleted: { $eq: true } } as unknown as NonNullable<MangoQuery<Reading>['selector']> },
  { selector: { at: { $gt: '2027-01-01T00:00:00.000Z' } } },
  { selector: { $or: [{ type: 'Fasting' }, { value: { $lt: 80 } }] }, sort: [{ at: 'desc' }], limit: 12 },
];

describe('the Dexie storage that reads with getAll()', () => {
  it('answers every query with the same documents in the same order as the cursor', async () => {
    const instance = await filledInstance();
    for (const query of queries) {
      const prepared = prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, query));
      const expected = (await dexieQuery(instance, prepared)).documents.map((d) => d.id);
      const bulk = (await dexieBulkQuery(instance, prepared)).documents.map((d) => d.id);
      expect(bulk, JSON.stringify(query)).toEqual(expected);
      // And through the instance, as RxDB calls it.
      expect(
        (await instance.query(prepared)).documents.map((d) => d.id),
        JSON.stringify(query),
      ).toEqual(expected);
    }
    // The queries are not trivial: most return several documents.
    const sizes = await Promise.all(
      queries.map(async (q) => (await instance.query(prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, q)))).documents.length),
    );
    expect(sizes.filter((n) => n > 3).length).toBeGreaterThan(10);
  });

  it('still refuses a query on a closed instance', async () => {
    const instance = await filledInstance();
    await instance.close();
    toClose.pop();
    const prepared = prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, { selector: {} }));
    await expect(Promise.resolve().then(() => instance.query(prepared))).rejects.toThrow(/closed/);
  });

  it('finds documents by id as Dexie does: stored ones (deleted too), undefined for the others, in the order asked', async () => {
    const instance = await filledInstance();
    const state = await instance.internals;
    const dexieGet = (keys: readonly unknown[]) => state.dexieTable.bulkGet(keys as string[]) as Promise<unknown[]>;
    let fallbacks = 0;
    const countingGet = (keys: readonly unknown[]) => {
      fallbacks++;
      return Promise.resolve(keys.map(() => 'fallback'));
    };
    // Stored and absent ids mixed, out of order, some asked twice; few keys; a wide sparse range.
    const asks = [
      ['r239', 'x-new-1', 'r000', 'r011', 'r120', 'r120', 'a-new', 'r121', 'r122', 'zz-new', 'r005', 'r006', 'r007', 'r008', 'r009', 'r010', 'r012'],
      Array.from({ length: 40 }, (_, i) => `r${String(i * 6).padStart(3, '0')}${i % 2 === 0 ? '' : '-new'}`),
      Array.from({ length: 30 }, (_, i) => `new-${i}`),
      ['r001', 'r002', 'nope'],
    ];
    for (const keys of asks) {
      const expected = (await state.dexieDb.transaction('r', state.dexieTable, () => dexieGet(keys))).map((row) => (row as { id?: string } | undefined)?.id);
      const got = (await dexieBulkGet(state, keys, dexieGet)).map((row) => (row as { id?: string } | undefined)?.id);
      expect(got, keys.join()).toEqual(expected);
      expect(got.filter(Boolean).length).toBeGreaterThan(keys === asks[2] ? -1 : 0);
    }
    // Three keys: one get each (Dexie's own). 17 keys over a range of 18 stored: one range read.
    await dexieBulkGet(state, ['r001', 'r002', 'nope'], countingGet);
    expect(fallbacks).toBe(1);
    await dexieBulkGet(state, asks[0] ?? [], countingGet);
    expect(fallbacks).toBe(1);
    // 16 keys spread over the 240 stored ones: at most 32 stored keys per key asked, so a range read.
    const wide = Array.from({ length: 16 }, (_, i) => `r${String(i * 15).padStart(3, '0')}`);
    await dexieBulkGet(state, wide, countingGet);
    expect(fallbacks).toBe(1);
  });

  it('falls back to one get per key when the keys span far more stored documents than asked for', async () => {
    const instance = await emptyInstance();
    const docs = Array.from({ length: 600 }, (_, i) => ({
      id: `d${String(i).padStart(4, '0')}`,
      type: 'Fasting',
      at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      value: 100,
      flagged: false,
      _deleted: false,
      _attachments: {},
      _rev: createRevision(TOKEN),
      _meta: { lwt: now() },
    }));
    expect(
      (
        await instance.bulkWrite(
          docs.map((document) => ({ document })),
          'test',
        )
      ).error,
    ).toEqual([]);
    const state = await instance.internals;
    let fallbacks = 0;
    const keys = ['d0000', ...Array.from({ length: 14 }, (_, i) => `gone-${i}`), 'd0599'];
    const got = await dexieBulkGet(state, keys, (k) => {
      fallbacks++;
      return state.dexieTable.bulkGet(k as string[]) as Promise<unknown[]>;
    });
    expect(fallbacks).toBe(1);
    expect(got.map((row) => (row as { id?: string } | undefined)?.id)).toEqual(['d0000', ...Array<undefined>(14).fill(undefined), 'd0599']);
    // The same inside a write: 16 updates spread over the 600 stored documents take the fallback
    // within the write's own transaction, and the write still lands (and refuses a stale one).
    const spread = await instance.findDocumentsById(
      Array.from({ length: 16 }, (_, i) => `d${String(i * 37).padStart(4, '0')}`),
      false,
    );
    expect(spread).toHaveLength(16);
    const writes = spread.map((previous, i) => ({
      previous: i === 0 ? { ...previous, _rev: '1-stale' } : previous,
      document: { ...previous, value: 555, _rev: createRevision(TOKEN, previous), _meta: { lwt: now() } },
    }));
    const result = await instance.bulkWrite(writes, 'test');
    expect(result.error.map((e) => [e.documentId, e.status])).toEqual([['d0000', 409]]);
    const after = await instance.findDocumentsById(
      spread.map((d) => d.id),
      false,
    );
    expect(after.filter((d) => d.value === 555)).toHaveLength(15);
  });

  it('keeps writes exact through the faster look-up: inserts, updates, and a conflict refused', async () => {
    const instance = await filledInstance();
    const [stored] = await instance.findDocumentsById(['r001'], false);
    if (!stored) throw new Error('r001 missing');
    const fresh = Array.from({ length: 20 }, (_, i) => ({
      ...stored,
      id: `n${String(i).padStart(3, '0')}`,
      _rev: createRevision(TOKEN),
      _meta: { lwt: now() },
    }));
    const update = { ...stored, value: 999, _rev: createRevision(TOKEN, stored), _meta: { lwt: now() } };
    // A write that claims another previous state than the stored one is a conflict.
    const [other] = await instance.findDocumentsById(['r002'], false);
    if (!other) throw new Error('r002 missing');
    const stale = { ...other, value: 1, _rev: createRevision(TOKEN, other), _meta: { lwt: now() } };
    const result = await instance.bulkWrite(
      [...fresh.map((document) => ({ document })), { previous: stored, document: update }, { previous: { ...other, _rev: '1-stale' }, document: stale }],
      'test',
    );
    expect(result.error.map((e) => [e.documentId, e.status])).toEqual([['r002', 409]]);
    const read = await instance.findDocumentsById(['r001', 'r002', ...fresh.map((d) => d.id)], false);
    expect(read.find((d) => d.id === 'r001')?.value).toBe(999);
    expect(read.find((d) => d.id === 'r002')?.value).toBe(other.value);
    expect(read).toHaveLength(22);
    // Writing the same new ids again without their previous state is refused, not overwritten.
    const again = await instance.bulkWrite(
      fresh.map((document) => ({ document: { ...document, value: 1 } })),
      'test',
    );
    expect(again.error).toHaveLength(20);
  });

  const manyReadings = (count: number, from = 0): RxDocumentData<Reading>[] =>
    Array.from({ length: count }, (_, i) => ({
      id: `m${String(from + i).padStart(5, '0')}`,
      type: TYPES[i % 3] ?? 'Random',
      at: new Date(Date.UTC(2026, 0, 1) + (from + i) * 60_000).toISOString(),
      value: 60 + (i % 300),
      flagged: false,
      _deleted: false,
      _attachments: {},
      _rev: createRevision(TOKEN),
      _meta: { lwt: now() },
    }));

  /** A large write into a new instance, and the numbers of puts sent within one task, task after task. */
  async function burstsOfWrite(instance: RxStorageInstanceDexie<Reading>, count: number): Promise<number[]> {
    const bursts: number[] = [];
    const put = IDBObjectStore.prototype.put;
    let inTask = false;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (!inTask) {
        inTask = true;
        bursts.push(0);
        setTimeout(() => (inTask = false), 0);
        queueMicrotask(() => (inTask = false));
      }
      bursts[bursts.length - 1] = (bursts[bursts.length - 1] ?? 0) + 1;
      return put.apply(this, args);
    };
    try {
      const result = await instance.bulkWrite(
        manyReadings(count).map((document) => ({ document })),
        'test',
      );
      expect(result.error).toEqual([]);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    return bursts;
  }

  it("stores a large write of a replication's meta storage whole, its puts sent in steps with other tasks in between", async () => {
    const instance = await emptyInstance(REPLICATION_META_TITLE);
    const count = PUT_STEP * 4 + 17;
    const bursts = await burstsOfWrite(instance, count);
    expect(bursts.reduce((a, b) => a + b, 0)).toBe(count);
    expect(Math.max(...bursts)).toBe(PUT_STEP);
    expect(bursts).toHaveLength(5);
    const stored = await instance.findDocumentsById(
      manyReadings(count).map((d) => d.id),
      false,
    );
    expect(stored).toHaveLength(count);
    expect(stored.find((d) => d.id === 'm02016')?.value).toBe(60 + (2016 % 300));
    // A collection's own write goes in one burst: its documents can show only once all are stored.
    expect(await burstsOfWrite(await emptyInstance(), count)).toEqual([count]);
  });

  it('stores nothing of a large write whose put fails', async () => {
    const instance = await emptyInstance();
    const state = await instance.internals;
    const rows = manyReadings(PUT_STEP * 2 + 3).map((d): Record<string, unknown> => ({ ...d }));
    // A row without its key cannot be put: the write is refused whole.
    delete rows[PUT_STEP + 1]?.['id'];
    await expect(dexieBulkPut(state, rows, () => Promise.reject(new Error('not for large writes')))).rejects.toThrow();
    expect(await state.dexieTable.count()).toBe(0);
    // A small write goes through Dexie's own bulkPut.
    let fallback = 0;
    await dexieBulkPut(state, rows.slice(0, 3), () => Promise.resolve(fallback++));
    expect(fallback).toBe(1);
  });
});
