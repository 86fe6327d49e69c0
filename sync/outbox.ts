// The one outbox (DESIGN.md §1). Every write a device makes becomes an entry here, sealed with the
// data key, and leaves only when the server has answered it. The page drains it while open; the
// service worker drains it (Background Sync) when the page is closed. A Web Lock makes sure only
// one of them sends at a time, and since every add carries a client id and updates and deletes are
// idempotent on the server, an entry that is sent twice (crash between send and delete) still has
// its effect once.
import { Dexie, type Table } from 'dexie';
import { decryptJson, DecryptionError, encryptJson, findDataKey, getDataKey } from './crypto.ts';
import { log } from './log.ts';

export interface OutboxOp {
  /** Which local collection the write came from, and the document's id. */
  collection: string;
  docId: string;
  kind: 'add' | 'update' | 'delete';
  /** API path under /api, e.g. "/glucose/add". Always POST (spec §7). */
  path: string;
  body: Record<string, unknown>;
  /** When the write was made on the device (ms since epoch). */
  madeAt: number;
}

interface Entry {
  seq?: number;
  sealed: string;
  attempts: number;
}

interface Meta {
  id: string;
  sealed: string;
}

export interface SessionForReplay {
  token: string;
  deviceId: string;
}

class OutboxDatabase extends Dexie {
  entries!: Table<Entry, number>;
  meta!: Table<Meta, string>;
  constructor() {
    super('eddy-outbox');
    this.version(1).stores({ entries: '++seq', meta: 'id' });
  }
}

let outboxDb: OutboxDatabase | undefined;
const db = () => (outboxDb ??= new OutboxDatabase());

export async function enqueue(op: OutboxOp): Promise<void> {
  const key = await getDataKey();
  await db().entries.add({ sealed: await encryptJson(key, op, 'outbox'), attempts: 0 });
}

export async function pendingCount(): Promise<number> {
  return db().entries.count();
}

/** The decrypted pending operations, oldest first (e.g. to show what is waiting). */
export async function pendingOps(): Promise<OutboxOp[]> {
  const key = await findDataKey();
  if (!key) return [];
  const entries = await db().entries.orderBy('seq').toArray();
  const ops = await Promise.all(entries.map((e) => openEntry(key, e)));
  return ops.filter((op): op is OutboxOp => op !== undefined);
}

/**
 * An entry sealed under an earlier key (destroyed by a logout or 401 that did not get to clear the
 * outbox) can never be opened again, and must not be: it belongs to an ended session. Such an entry
 * reads as undefined instead of failing every caller after it.
 */
async function openEntry(key: CryptoKey, entry: Entry): Promise<OutboxOp | undefined> {
  try {
    return await decryptJson<OutboxOp>(key, entry.sealed, 'outbox');
  } catch (err) {
    if (err instanceof DecryptionError) return undefined;
    throw err;
  }
}

/** The page stores the session sealed here, so the service worker can replay without the page. */
export async function setReplaySession(session: SessionForReplay): Promise<void> {
  const key = await getDataKey();
  await db().meta.put({ id: 'session', sealed: await encryptJson(key, session, 'session') });
}

export async function getReplaySession(): Promise<SessionForReplay | undefined> {
  const key = await findDataKey();
  const row = await db().meta.get('session');
  if (!key || !row) return undefined;
  try {
    return await decryptJson<SessionForReplay>(key, row.sealed, 'session');
  } catch (err) {
    // Sealed under a destroyed key: that session is over, the page must hand over a new one.
    if (err instanceof DecryptionError) return undefined;
    throw err;
  }
}

/** Logout, 401: nothing of this patient may stay behind. */
export async function clearOutbox(): Promise<void> {
  await db().transaction('rw', db().entries, db().meta, async () => {
    await db().entries.clear();
    await db().meta.clear();
  });
}

export interface Rejection {
  op: OutboxOp;
  status: number;
  message: string;
}

export interface DrainResult {
  sent: OutboxOp[];
  rejected: Rejection[];
  /** Entries left for later (offline, server error). */
  kept: number;
  unauthorized: boolean;
}

/** What the service worker posts to every open page after replaying the outbox (counts only). */
export interface ReplayDoneMessage {
  type: 'replay-done';
  sent: number;
  kept: number;
  rejected: number;
  unauthorized: boolean;
  /** The replay itself failed (e.g. storage error); the page's own replication tries again. */
  failed?: true;
}

export interface DrainOptions {
  baseUrl?: string;
  fetchImpl?: typeof fetch;
  /** Per-request timeout; a request that hangs is treated like a network failure. */
  timeoutMs?: number;
}

/** Statuses after which retrying cannot help: the write is refused for good and reported. */
const isFinalRefusal = (status: number) => status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;

// Without Web Locks (older browsers) two drains in one context would still send the same entries
// twice; queueing them on a promise chain at least serialises this context.
let localTail: Promise<unknown> = Promise.resolve();

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks) return locks.request('eddy-outbox', fn) as Promise<T>;
  const run = localTail.then(fn);
  localTail = run.catch(() => undefined);
  return run;
}

/**
 * Sends pending writes in the order they were made. Stops at the first network failure, 5xx or
 * 401 and keeps that entry and all later ones: order matters (an update must not overtake its add).
 */
export function drainOutbox(opts: DrainOptions = {}): Promise<DrainResult> {
  return withLock(async () => {
    const result: DrainResult = { sent: [], rejected: [], kept: 0, unauthorized: false };
    const key = await findDataKey();
    const session = await getReplaySession();
    if (!key || !session) {
      result.kept = await pendingCount();
      return result;
    }
    const doFetch = opts.fetchImpl ?? fetch;
    const entries = await db().entries.orderBy('seq').toArray();
    for (const [i, entry] of entries.entries()) {
      const op = await openEntry(key, entry);
      if (!op) {
        log.warn('Outbox entry that no longer decrypts dropped');
        await db().entries.delete(entry.seq as number);
        continue;
      }
      let status: number;
      let message = '';
      try {
        const res = await doFetch(`${opts.baseUrl ?? ''}/api${op.path}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Requested-With': 'XMLHttpRequest',
            'X-Device-Id': session.deviceId,
            Authorization: `Bearer ${session.token}`,
          },
          body: JSON.stringify(op.body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
        });
        status = res.status;
        if (!res.ok) message = await res.json().then((j: { message?: unknown }) => String(j.message ?? ''), () => '');
        // An unread body would hold its keep-alive connection until garbage collection.
        else await res.body?.cancel().catch(() => undefined);
      } catch {
        status = 0; // offline or timed out
      }
      if (status >= 200 && status < 300) {
        await db().entries.delete(entry.seq as number);
        result.sent.push(op);
      } else if (isFinalRefusal(status)) {
        await db().entries.delete(entry.seq as number);
        result.rejected.push({ op, status, message });
      } else {
        if (status === 401) result.unauthorized = true;
        await db().entries.update(entry.seq as number, { attempts: entry.attempts + 1 });
        result.kept = entries.length - i;
        break;
      }
    }
    return result;
  });
}
