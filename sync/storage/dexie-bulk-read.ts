// RxDB's Dexie storage answers a query by walking an IndexedDB cursor: one `continue()` and one
// success event per document. The dashboard's 90-day query of a patient with years of readings
// reads thousands of documents that way, and the cursor steps were the largest single cost in its
// profile (bench: dashboard10kListsMs). This storage answers the same query plan with one
// `getAll()` over the same index range, then matches, sorts and pages exactly as RxDB's own query
// does (rxdb/src/plugins/storage-dexie/dexie-query.ts). Only a query whose sort the index satisfies,
// that has a limit and needs a matcher keeps the cursor: it can stop early, a getAll cannot.
import {
  getQueryMatcher,
  getSortComparator,
  type PreparedQuery,
  type RxStorage,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
  type RxStorageQueryResult,
  type DexieStorageInternals,
} from 'rxdb';
import {
  DEXIE_DOCS_TABLE_NAME,
  dexieQuery,
  dexieReplaceIfStartsWithPipe,
  fromDexieToStorage,
  getKeyRangeByQueryPlan,
  getRxStorageDexie,
  type RxStorageInstanceDexie,
} from 'rxdb/plugins/storage-dexie';
import { Dexie } from 'dexie';
import { parseGroupRef, provideSealedGroups, SEALED_FIELD, type SealedGroupStore } from './sealed-groups.ts';

type DexieState = Awaited<DexieStorageInternals>;
const fastReads = new WeakSet<object>();

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** The IDBKeyRange RxDB opened this database with (the browser's, or fake-indexeddb's in tests); Dexie types its options loosely. */
function keyRangeOf(state: DexieState): typeof IDBKeyRange {
  const KeyRange = state.dexieDb._options.IDBKeyRange;
  if (!KeyRange) throw new Error('RxDB opened this Dexie database without IDBKeyRange');
  return KeyRange as typeof IDBKeyRange;
}

/** `dexieQuery` with one getAll() instead of a cursor walk; the same documents in the same order. */
export async function dexieBulkQuery<RxDocType>(
  instance: RxStorageInstanceDexie<RxDocType>,
  prepared: PreparedQuery<RxDocType>,
): Promise<RxStorageQueryResult<RxDocType>> {
  const query = prepared.query;
  const plan = prepared.queryPlan;
  const skip = query.skip ?? 0;
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  const skipPlusLimit = skip + limit;
  const matcher = plan.selectorSatisfiedByIndex ? undefined : getQueryMatcher(instance.schema, query);
  // A cursor that may stop after `limit` matches reads less than a getAll of the whole range.
  if (matcher && plan.sortSatisfiedByIndex && Number.isFinite(limit)) return dexieQuery(instance, prepared);

  const state: DexieState = await instance.internals;
  let keyRange: IDBKeyRange;
  try {
    keyRange = getKeyRangeByQueryPlan(state.booleanIndexes, plan, keyRangeOf(state));
  } catch (err) {
    if (err instanceof Error && err.name === 'DataError') return { documents: [] };
    throw err;
  }
  const indexName = `[${plan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
  // Without a matcher and in index order, the first skip + limit rows are the answer.
  const count = !matcher && plan.sortSatisfiedByIndex && Number.isFinite(skipPlusLimit) ? skipPlusLimit : undefined;
  let stored: unknown[] = [];
  await state.dexieDb.transaction('r', state.dexieTable, async (tx) => {
    const index = tx.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName);
    stored = await request(index.getAll(keyRange, count));
  });
  let rows = stored.map((row) => fromDexieToStorage<RxDocType>(state.booleanIndexes, row));
  if (matcher) rows = rows.filter((doc) => matcher(doc));
  if (!plan.sortSatisfiedByIndex) rows = rows.sort(getSortComparator(instance.schema, query));
  return { documents: rows.slice(skip, skipPlusLimit) };
}

/** Below this many keys, one get() per key costs less than finding out which keys are stored. */
const KEYS_BEFORE_RANGE_READ = 16;
/** A range read of the stored keys is used while it holds at most this many keys per key asked for. */
const STORED_KEYS_PER_KEY = 32;

/**
 * Dexie's bulkGet() sends one IndexedDB get() per key, and every write of RxDB's Dexie storage and
 * every look-up by id (the replication's fork and meta documents) goes through it: the first pull
 * of 10,000 readings made some 40,000 of them, the largest cost in its profile (bench:
 * firstSync10kMs), although a pulled reading is mostly new. This reads which of the keys are stored
 * with one getAllKeys() over the range they span (when that range is not much larger than the keys
 * asked for) and then gets only those: the same answer, undefined for a key not stored, in the order
 * asked. Runs inside the caller's transaction, as Dexie's does.
 */
export async function dexieBulkGet(
  state: DexieState,
  keys: readonly unknown[],
  fallback: (keys: readonly unknown[]) => Promise<unknown[]>,
): Promise<unknown[]> {
  if (keys.length < KEYS_BEFORE_RANGE_READ || !keys.every((k): k is string => typeof k === 'string')) return fallback(keys);
  const sorted = [...keys].sort();
  const KeyRange = keyRangeOf(state);
  const range = KeyRange.bound(sorted[0], sorted[sorted.length - 1]);
  let rows: unknown[] | undefined;
  await state.dexieDb.transaction('r', state.dexieTable, async (tx) => {
    const store = tx.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME);
    const storedInRange = await request(store.count(range));
    if (storedInRange > keys.length * STORED_KEYS_PER_KEY) return;
    const stored = new Set(storedInRange === 0 ? [] : await request(store.getAllKeys(range)));
    const found = keys.filter((key) => stored.has(key));
    const values = await getEach(store, found);
    const byKey = new Map(found.map((key, i) => [key, values[i]]));
    rows = keys.map((key) => byKey.get(key));
  });
  return rows ?? fallback(keys);
}

/**
 * The stored value of each key, in order, with one promise for all of them: the requests of a
 * transaction complete in the order they were made, so the last one's success means all are done.
 * A promise per key inside Dexie's transaction zone cost the first pull of 10,000 readings some
 * 200 ms of Dexie's zone bookkeeping for reads that mostly found nothing (bench: firstSync10kMs).
 */
function getEach(store: IDBObjectStore, keys: readonly string[]): Promise<unknown[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const requests = keys.map((key) => store.get(key));
    for (const req of requests) req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
    const last = requests[requests.length - 1];
    if (last) last.onsuccess = () => resolve(requests.map((req): unknown => req.result));
  });
}

/** The title of the schema RxDB gives a replication's meta storage (rxdb/src/replication-protocol/meta-instance.ts). */
export const REPLICATION_META_TITLE = 'RxReplicationProtocolMetaData';

/** Rows put in one step of a large write; the next step is sent once the step before begins to be stored. */
export const PUT_STEP = 500;

/**
 * Dexie's bulkPut() sends every put() of a write in one go. After RxDB has written a first pull of
 * 10,000 readings, it writes its replication's copies of them (its meta storage) the same way: a
 * single task of some 350 ms in which the page could neither answer nor draw the readings just
 * written (bench: firstSync10kMs). This sends the puts in steps of PUT_STEP, each from the success
 * of the first put of the step before, so the browser runs other tasks in between while the
 * database always has puts queued. Runs inside the caller's transaction, as Dexie's does: the
 * write stays one transaction, and a put that fails aborts it. The collections' own writes keep
 * Dexie's single burst: their readings can show only once they are stored, and in steps the same
 * write took twice as long (the database's thread and the page's compete for the two cores).
 */
export async function dexieBulkPut(state: DexieState, rows: readonly unknown[], fallback: (rows: readonly unknown[]) => Promise<unknown>): Promise<void> {
  if (rows.length <= PUT_STEP) {
    await fallback(rows);
    return;
  }
  await state.dexieDb.transaction('rw', state.dexieTable, (tx) => {
    const idbtrans = tx.idbtrans;
    const store = idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME);
    return new Promise<void>((resolve, reject) => {
      // A put that fails, or one that cannot be sent, aborts the whole write.
      idbtrans.addEventListener('abort', () => reject(idbtrans.error ?? new Error('IndexedDB write aborted')));
      let next = 0;
      const step = () => {
        try {
          const end = Math.min(next + PUT_STEP, rows.length);
          const first = store.put(rows[next]);
          let last = first;
          for (next++; next < end; next++) last = store.put(rows[next]);
          // Requests of a transaction complete in order: the last put of the last step is the last one.
          if (next < rows.length) first.onsuccess = step;
          else last.onsuccess = () => resolve();
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          idbtrans.abort();
        }
      };
      step();
    });
  });
}

// Sealed groups (sealed-groups.ts) are kept in the instance's attachments table, which the app's
// collections do not otherwise use and which every write of RxDB's Dexie storage already holds in
// its transaction: a group is stored by the very transaction that stores the first rows referring
// to it, and each group counts the rows that refer to it, kept exact in the same transactions.
// A group no row refers to any more is deleted GROUP_GRACE_MS later, by a later write: a change
// event or a read that began before may still have to open it.
const GROUP_KEY = '\u0000sealed-group:';
const UNUSED_KEY = '\u0000sealed-unused:';
export const GROUP_GRACE_MS = 10 * 60_000;
const stamp = (ms: number) => String(ms).padStart(15, '0');

interface GroupRecord {
  id: string;
  data: string;
  /** Rows of the table that refer to the group. */
  rows: number;
}

interface GroupTable {
  state: DexieState;
  staged: Map<string, string>;
  /** Stored rows by key, in the caller's transaction. */
  get: (keys: readonly unknown[]) => Promise<unknown[]>;
}

/**
 * Brings the groups' row counts up to date for a write that puts `added` and replaces or deletes
 * the rows stored under `replacedKeys`, and deletes groups unused for GROUP_GRACE_MS. Runs inside
 * the write's transaction, which holds the attachments table: a write whose rows refer to a group
 * neither stored nor staged throws, and so stores nothing.
 */
export async function countGroupRows(t: GroupTable, added: readonly unknown[], replacedKeys: readonly unknown[], now = Date.now()): Promise<void> {
  const delta = new Map<string, number>();
  const count = (row: unknown, by: number) => {
    const ref = row ? parseGroupRef((row as Record<string, unknown>)[SEALED_FIELD]) : undefined;
    if (ref) delta.set(ref.groupId, (delta.get(ref.groupId) ?? 0) + by);
  };
  for (const row of added) count(row, 1);
  for (const row of await t.get(replacedKeys)) count(row, -1);
  const table = t.state.dexieAttachmentsTable;
  const expired = (await table
    .where(':id')
    .between(UNUSED_KEY, `${UNUSED_KEY}${stamp(now - GROUP_GRACE_MS)};`, true, true)
    .primaryKeys()) as string[];
  const changed = [...delta].filter(([, by]) => by !== 0);
  if (changed.length === 0 && expired.length === 0) return;
  const expiredIds = expired.map((marker) => marker.slice(marker.lastIndexOf(':') + 1));
  const ids = [...changed.map(([id]) => id), ...expiredIds];
  const stored = (await table.bulkGet(ids.map((id) => GROUP_KEY + id))) as (GroupRecord | undefined)[];
  const puts: GroupRecord[] = [];
  const deletes: string[] = [...expired];
  changed.forEach(([id, by], i) => {
    const record = stored[i];
    const data = record?.data ?? t.staged.get(id);
    if (data === undefined) throw new Error(`a row refers to sealed group ${id}, which is neither stored nor being written`);
    const rows = Math.max(0, (record?.rows ?? 0) + by);
    puts.push({ id: GROUP_KEY + id, data, rows });
    if (rows === 0 && record) puts.push({ id: `${UNUSED_KEY}${stamp(now)}:${id}`, data: '', rows: 0 });
  });
  expiredIds.forEach((id, i) => {
    const record = stored[changed.length + i];
    // Unused since the marker was set (a group's id is never referred to again once unused).
    if (record && record.rows === 0 && !puts.some((p) => p.id === GROUP_KEY + id)) deletes.push(GROUP_KEY + id);
  });
  await table.bulkPut(puts);
  await table.bulkDelete(deletes);
}

function keepSealedGroups(state: DexieState, primaryKey: string, dexieGet: (keys: readonly unknown[]) => Promise<unknown[]>): void {
  const staged = new Map<string, string>();
  const t: GroupTable = { state, staged, get: (keys) => (keys.length === 0 ? Promise.resolve([]) : dexieBulkGet(state, keys, dexieGet)) };
  // The table's own methods, replaced by ones that count group rows first (Dexie's typings do not allow assigning them).
  // eslint-disable-next-line no-restricted-syntax -- the same methods, called with the same arguments
  const table = state.dexieTable as unknown as {
    bulkPut: (rows: readonly unknown[]) => Promise<unknown>;
    bulkDelete: (keys: readonly unknown[]) => Promise<unknown>;
  };
  const put = table.bulkPut.bind(table);
  table.bulkPut = async (rows) => {
    await countGroupRows(
      t,
      rows,
      rows.map((row) => (row as Record<string, unknown>)[primaryKey]),
    );
    return put(rows);
  };
  const remove = table.bulkDelete.bind(table);
  table.bulkDelete = async (keys) => {
    // RxDB's cleanup of old deletions holds only the rows' table: the groups those rows referred
    // to then keep counting them (space, never a wrong read). The app does not run that cleanup.
    if (Dexie.currentTransaction?.storeNames.includes(state.dexieAttachmentsTable.name)) await countGroupRows(t, [], keys);
    return remove(keys);
  };
  groupStores.set(state.dexieTable, {
    stage: (id, sealed) => staged.set(id, sealed),
    unstage: (id) => staged.delete(id),
    read: async (ids) =>
      ((await state.dexieAttachmentsTable.bulkGet(ids.map((id) => GROUP_KEY + id))) as (GroupRecord | undefined)[]).map((record) => record?.data),
  });
}
const groupStores = new WeakMap<object, SealedGroupStore>();

/** RxDB's Dexie storage whose queries read with getAll(), whose reads by id skip absent keys and whose large writes go in steps (see above). */
export function getRxStorageDexieBulkRead(settings: Parameters<typeof getRxStorageDexie>[0] = {}): RxStorage<DexieStorageInternals, unknown> {
  const dexie = getRxStorageDexie(settings);
  return {
    ...dexie,
    async createStorageInstance<RxDocType>(
      params: RxStorageInstanceCreationParams<RxDocType, unknown>,
    ): Promise<RxStorageInstance<RxDocType, DexieStorageInternals, unknown>> {
      const instance = await dexie.createStorageInstance<RxDocType>(params as RxStorageInstanceCreationParams<RxDocType, never>);
      const state: DexieState = await instance.internals;
      // One Dexie database (and table) may serve several instances of the same collection.
      if (!fastReads.has(state.dexieTable)) {
        fastReads.add(state.dexieTable);
        // The table's own methods, replaced by the faster ones above (Dexie's typings do not allow assigning them).
        // eslint-disable-next-line no-restricted-syntax -- the same methods, called with the same arguments
        const table = state.dexieTable as unknown as {
          bulkGet: (keys: readonly unknown[]) => Promise<unknown[]>;
          bulkPut: (rows: readonly unknown[]) => Promise<unknown>;
        };
        const dexieGet = table.bulkGet.bind(table);
        table.bulkGet = (keys) => dexieBulkGet(state, keys, dexieGet);
        if (params.schema.title === REPLICATION_META_TITLE) {
          const dexiePut = table.bulkPut.bind(table);
          table.bulkPut = (rows) => dexieBulkPut(state, rows, dexiePut);
        }
        // Instances whose rows have a sealed field (encrypted-storage.ts) keep their groups here.
        if (SEALED_FIELD in (params.schema.properties as object)) keepSealedGroups(state, instance.primaryPath, dexieGet);
      }
      const groups = groupStores.get(state.dexieTable);
      if (groups) provideSealedGroups(instance, groups);
      const cursorQuery = instance.query.bind(instance);
      instance.query = (prepared) => (instance.closed ? cursorQuery(prepared) : dexieBulkQuery(instance, prepared));
      return instance;
    },
  };
}
