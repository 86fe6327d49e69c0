import 'fake-indexeddb/auto';
import {
  createRevision,
  fillWithDefaultSettings,
  normalizeMangoQuery,
  now,
  prepareQuery,
  randomToken,
  type MangoQuery,
  type RxDocumentData,
} from 'rxdb';
import { dexieQuery, type RxStorageInstanceDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieBulkQuery, getRxStorageDexieBulkRead } from './dexie-bulk-read.ts';

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

async function filledInstance(): Promise<RxStorageInstanceDexie<Reading>> {
  const storage = getRxStorageDexieBulkRead();
  const instance = (await storage.createStorageInstance<Reading>({
    databaseInstanceToken: randomToken(10),
    databaseName: `bulk-${randomToken(6)}`,
    collectionName: 'readings',
    schema,
    options: {},
    multiInstance: false,
    devMode: false,
  })) as unknown as RxStorageInstanceDexie<Reading>;
  toClose.push(instance);
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
  const result = await instance.bulkWrite(docs.map((document) => ({ document })), 'test');
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
      expect((await instance.query(prepared)).documents.map((d) => d.id), JSON.stringify(query)).toEqual(expected);
    }
    // The queries are not trivial: most return several documents.
    const sizes = await Promise.all(queries.map(async (q) => (await instance.query(prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, q)))).documents.length));
    expect(sizes.filter((n) => n > 3).length).toBeGreaterThan(10);
  });

  it('still refuses a query on a closed instance', async () => {
    const instance = await filledInstance();
    await instance.close();
    toClose.pop();
    const prepared = prepareQuery<Reading>(schema, normalizeMangoQuery<Reading>(schema, { selector: {} }));
    await expect(Promise.resolve().then(() => instance.query(prepared))).rejects.toThrow(/closed/);
  });
});
