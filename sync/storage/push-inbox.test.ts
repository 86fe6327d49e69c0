// The push inbox on real IndexedDB semantics (fake-indexeddb) and the real data key.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { destroyDataKey, getDataKey } from './crypto.ts';
import { addToInbox, clearInbox, INBOX_MAX_AGE_MS, INBOX_MAX_ITEMS, readInbox, removeFromInbox, type InboxItem } from './push-inbox.ts';

const reminder = (id: string, receivedAt: number): InboxItem => ({
  kind: 'reminder',
  id,
  receivedAt,
  notification: { title: 'Time for your medicine', tag: `med-${id}` },
  data: { type: 'medicine', prescrNo: 'RX-100001-01', medicineName: 'Metformin 500 mg tablet', dose: '1-0-1', time: '08:00' },
});

/** Every row of the inbox as stored, bypassing Dexie. */
function rawRows(): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('eddy-push-inbox');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction('items').objectStore('items').getAll();
      req.onsuccess = () => {
        resolve(req.result as unknown[]);
        open.result.close();
      };
    };
  });
}

beforeEach(async () => {
  await getDataKey();
});
afterEach(async () => {
  await clearInbox();
  await destroyDataKey();
});

describe('push inbox', () => {
  it('keeps items sealed: no medicine, prescription or dose readable in storage', async () => {
    const now = Date.now();
    await addToInbox(reminder('a', now));
    const raw = JSON.stringify(await rawRows());
    expect(raw).toContain('sealed');
    for (const plain of ['Metformin', 'RX-100001-01', '1-0-1', 'Time for your medicine']) expect(raw).not.toContain(plain);
    expect(await readInbox(now)).toEqual([reminder('a', now)]);
  });

  it('returns items oldest first and deletes the ones taken', async () => {
    const now = Date.now();
    await addToInbox(reminder('late', now));
    await addToInbox(reminder('early', now - 60_000));
    const intake = { _id: '0193a1c2-7b5e-7c3d-8e9f-0123456789ab', prescrNo: 'RX-1', medicineName: 'M', dose: '1', takenAt: new Date(now).toISOString() };
    await addToInbox({ kind: 'taken', id: 'dose', receivedAt: now + 1, intake });
    expect((await readInbox(now)).map((i) => i.id)).toEqual(['early', 'late', 'dose']);
    await removeFromInbox(['early', 'dose']);
    expect((await readInbox(now)).map((i) => i.id)).toEqual(['late']);
  });

  it('keeps nothing without a data key (nobody logged in) and never creates one', async () => {
    await destroyDataKey();
    expect(await addToInbox(reminder('a', Date.now()))).toBe(false);
    expect(await rawRows()).toEqual([]);
    const { findDataKey } = await import('./crypto.ts');
    expect(await findDataKey()).toBeUndefined();
  });

  it('drops what a destroyed key sealed (an earlier session) instead of failing', async () => {
    await addToInbox(reminder('old', Date.now()));
    await destroyDataKey();
    await getDataKey();
    expect(await readInbox()).toEqual([]);
    expect(await rawRows()).toEqual([]);
  });

  it('holds at most INBOX_MAX_ITEMS, dropping the oldest, and forgets items older than a day', async () => {
    const now = Date.now();
    for (let i = 0; i < INBOX_MAX_ITEMS + 3; i++) await addToInbox(reminder(`r${i}`, now - (INBOX_MAX_ITEMS + 3 - i) * 1000));
    const kept = await readInbox(now);
    expect(kept).toHaveLength(INBOX_MAX_ITEMS);
    expect(kept[0]?.id).toBe('r3');

    await clearInbox();
    await addToInbox(reminder('stale', now - INBOX_MAX_AGE_MS - 1));
    await addToInbox(reminder('fresh', now - 1000));
    expect((await readInbox(now)).map((i) => i.id)).toEqual(['fresh']);
    expect(await rawRows()).toHaveLength(1);
  });

  it('is emptied by clearInbox (logout, 401)', async () => {
    await addToInbox(reminder('a', Date.now()));
    await clearInbox();
    expect(await rawRows()).toEqual([]);
  });
});
