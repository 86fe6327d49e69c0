import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { destroyDataKey, findDataKey } from '../../../sync/crypto.ts';
import { STAFF_DATABASE_NAME, destroyStaffCache, forgetReview, loadReview, reviewId, saveReview } from './staff-cache.ts';

// The real stack: RxDB, its Dexie storage, the AES-GCM wrapper and IndexedDB (fake-indexeddb).

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}
async function dumpAllRows(): Promise<string[]> {
  const lines: string[] = [];
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const idb = await request(indexedDB.open(info.name));
    try {
      for (const store of Array.from(idb.objectStoreNames)) {
        const rows = await request(idb.transaction(store).objectStore(store).getAll());
        for (const row of rows) lines.push(`${info.name}/${store}: ${JSON.stringify(row)}`);
      }
    } finally {
      idb.close();
    }
  }
  return lines;
}
const staffDbNames = async () =>
  (await indexedDB.databases()).flatMap((i) => (i.name?.includes(STAFF_DATABASE_NAME) ? [i.name] : []));

afterEach(async () => {
  await destroyStaffCache();
  await destroyDataKey();
});

const bundle = (name: string) => ({ profile: { name, hospNum: '100001' }, glucose: { fasting: [{ value: 148 }] } });

describe('staff cache', () => {
  it('saves and loads a bundle; a patient never opened has none', async () => {
    await saveReview('100001', bundle('Maria Lopez'), 1_700_000_000_000);
    expect(await loadReview('100001')).toEqual({ fetchedAt: 1_700_000_000_000, data: bundle('Maria Lopez') });
    expect(await loadReview('100002')).toBeUndefined();
  });

  it('a second save replaces the first', async () => {
    await saveReview('100001', bundle('Maria Lopez'), 1);
    await saveReview('100001', bundle('Maria L.'), 2);
    expect(await loadReview('100001')).toEqual({ fetchedAt: 2, data: bundle('Maria L.') });
  });

  it('forgetReview removes one patient only', async () => {
    await saveReview('100001', bundle('Maria Lopez'), 1);
    await saveReview('100002', bundle('John Doe'), 1);
    await forgetReview('100001');
    expect(await loadReview('100001')).toBeUndefined();
    expect((await loadReview('100002'))?.data).toEqual(bundle('John Doe'));
  });

  it('stores neither the hospital number nor the data in plain text', async () => {
    await saveReview('100001', bundle('Maria Lopez'), 1_700_000_000_000);
    const rows = (await dumpAllRows()).filter((l) => l.includes(STAFF_DATABASE_NAME));
    const text = rows.join('\n');
    expect(text).toContain(await reviewId('100001'));
    expect(text).toContain('1700000000000');
    expect(text).not.toMatch(/(^|[^A-Za-z0-9_.-])100001($|[^A-Za-z0-9_.-])/);
    expect(text).not.toContain('Maria');
    expect(text).not.toMatch(/\b148\b/);
  });

  it('destroy removes the database and its IndexedDB but keeps the shared data key', async () => {
    await saveReview('100001', bundle('Maria Lopez'));
    expect(await staffDbNames()).not.toEqual([]);
    await destroyStaffCache();
    expect(await staffDbNames()).toEqual([]);
    expect(await findDataKey()).toBeDefined();
    // It opens again afresh after the removal.
    expect(await loadReview('100001')).toBeUndefined();
  });

  it('destroy works when this tab never opened the database', async () => {
    await destroyStaffCache();
    expect(await staffDbNames()).toEqual([]);
  });
});
