import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { destroyDataKey, findDataKey } from './crypto.ts';
import { STAFF_DATABASE_NAME, destroyStaffCache, forgetReview, listReviews, loadList, loadReview, reviewId, saveList, saveReview } from './staff-cache.ts';

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
const staffDbNames = async () => (await indexedDB.databases()).flatMap((i) => (i.name?.includes(STAFF_DATABASE_NAME) ? [i.name] : []));

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

  it('lists the patients kept, newest first, and keeps worklist pages sealed under hashed keys (issue 18)', async () => {
    await saveReview('100001', bundle('Maria Lopez'), 1);
    await saveReview('301201', bundle('Aisha Rahman'), 2);
    expect(await listReviews()).toEqual([
      { hospNo: '301201', name: 'Aisha Rahman', fetchedAt: 2 },
      { hospNo: '100001', name: 'Maria Lopez', fetchedAt: 1 },
    ]);
    const key = '/admin/worklist?hospitalId=h-1&days=14&page=1&limit=20';
    const page = { patients: [{ hospNo: '301201', name: 'Aisha Rahman', reasons: [{ code: 'severe-low', value: 45 }] }], days: 14 };
    await saveList(key, page, 3);
    expect(await loadList(key)).toEqual({ fetchedAt: 3, data: page });
    expect(await loadList(key.replace('days=14', 'days=30'))).toBeUndefined();
    // Neither the key, the names nor the figures are readable in IndexedDB.
    const rows = (await dumpAllRows()).join('\n');
    for (const plain of ['Aisha Rahman', 'severe-low', 'hospitalId', '301201']) expect(rows).not.toContain(plain);
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
    expect(text).not.toMatch(/(?<![A-Za-z0-9_.-])148(?![A-Za-z0-9_.-])/);
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
