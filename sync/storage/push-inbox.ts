// The push inbox: where the service worker leaves what a reminder push brought, for the page to
// pick up (docs/requirements.md §4 "pending medicines"). The worker cannot write the page's RxDB database (it does
// not load RxDB), and a push often arrives while no page is open; so the worker stores the reminder
// here, sealed with the data key like the outbox, and the page moves it into the pendingMedicines
// collection the next time it runs (src/lib/push-messages.ts), then deletes it here.
//
// The worker also leaves a note here when it recorded a dose itself ("Mark as Taken" with no page
// answering): the page then shows the dose at once, before the server has handed it back.
//
// Logout and a 401 clear the inbox together with the outbox; an entry sealed under a destroyed key
// reads as nothing and is dropped.
import { Dexie, type Table } from 'dexie';
import { decryptJson, DecryptionError, encryptJson, findDataKey } from './crypto.ts';
import type { IntakeFromPush, MedicineReminderData, PushNotice } from '../push-payload.ts';

export type InboxItem =
  | { kind: 'reminder'; id: string; receivedAt: number; notification: PushNotice; data: MedicineReminderData }
  | { kind: 'taken'; id: string; receivedAt: number; intake: IntakeFromPush };

interface Row {
  id: string;
  /** Plain, so old rows can be pruned without the key; a time says nothing about the patient. */
  receivedAt: number;
  sealed: string;
}

/** A device that stays closed for long must not pile up reminders without end. */
export const INBOX_MAX_ITEMS = 50;
/** Reminders expire after 2 h (docs/requirements.md §9); a day covers a dose note waiting for a page too. */
export const INBOX_MAX_AGE_MS = 24 * 60 * 60 * 1000;

class PushInboxDatabase extends Dexie {
  items!: Table<Row, string>;
  constructor() {
    super('eddy-push-inbox');
    this.version(1).stores({ items: 'id, receivedAt' });
  }
}

let inboxDb: PushInboxDatabase | undefined;
const db = () => (inboxDb ??= new PushInboxDatabase());

const sealContext = (id: string) => `push-inbox:${id}`;

/**
 * Stores one item sealed with the data key. Never creates the key: without one nobody is logged in,
 * and the item must not be kept (returns false).
 */
export async function addToInbox(item: InboxItem): Promise<boolean> {
  const key = await findDataKey();
  if (!key) return false;
  const { id, receivedAt } = item;
  // Sealed before the transaction: an IndexedDB transaction commits while a WebCrypto call is awaited.
  const sealed = await encryptJson(key, item, sealContext(id));
  await db().transaction('rw', db().items, async () => {
    await db().items.put({ id, receivedAt, sealed });
    const excess = (await db().items.count()) - INBOX_MAX_ITEMS;
    if (excess > 0) await db().items.orderBy('receivedAt').limit(excess).delete();
  });
  return true;
}

/** Every item that still opens, oldest first; rows that cannot be opened or are too old are dropped. */
export async function readInbox(now: number = Date.now()): Promise<InboxItem[]> {
  await db()
    .items.where('receivedAt')
    .below(now - INBOX_MAX_AGE_MS)
    .delete();
  const key = await findDataKey();
  if (!key) return [];
  const rows = await db().items.orderBy('receivedAt').toArray();
  const items: InboxItem[] = [];
  for (const row of rows) {
    try {
      items.push(await decryptJson<InboxItem>(key, row.sealed, sealContext(row.id)));
    } catch (err) {
      if (!(err instanceof DecryptionError)) throw err;
      await db().items.delete(row.id);
    }
  }
  return items;
}

export async function removeFromInbox(ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db().items.bulkDelete([...ids]);
}

/** Logout, 401: nothing of this patient may stay behind. */
export async function clearInbox(): Promise<void> {
  await db().items.clear();
}
