// Local changes on their way to the outbox (issue 44). A save on the device lands in its RxDB
// collection at once; RxDB's replication hands it to the push handler, which queues it in the outbox,
// a moment later (its change stream, a read of what the server last had, a batch). A logout asked in
// that moment counted only the outbox and could wipe a change that was never queued, without asking.
//
// So every write made through a collection's own API (the app's saves: replication's pulls write to
// the storage directly and never pass here) is noted per document from the moment it begins, and the
// note goes only once the push handler has queued a state equal to the document as it is now, with no
// write since. What is still noted is what a logout must count: `unqueued()`.
import { deepEqual } from 'rxdb/plugins/utils';

/** Per collection, per document: how many local writes since its note was last cleared. */
const noted = new Map<string, Map<string, number>>();
/**
 * Saves begun and not yet landed, per `collection|docId`: how many, and since when. A logout tapped
 * while a save is still being written counts it too. A save that fails never lands: after
 * IN_FLIGHT_MAX_MS it no longer counts.
 */
const inFlight = new Map<string, { n: number; since: number }>();
export const IN_FLIGHT_MAX_MS = 3_000;
const listeners = new Set<() => void>();

const changed = () => {
  for (const listener of listeners) listener();
};

function begin(collection: string, docId: string): void {
  const key = `${collection}|${docId}`;
  inFlight.set(key, { n: (inFlight.get(key)?.n ?? 0) + 1, since: Date.now() });
}

function note(collection: string, docId: string): void {
  const key = `${collection}|${docId}`;
  const flying = inFlight.get(key);
  if (flying && flying.n > 1) flying.n--;
  else inFlight.delete(key);
  let docs = noted.get(collection);
  if (!docs) noted.set(collection, (docs = new Map()));
  docs.set(docId, (docs.get(docId) ?? 0) + 1);
  changed();
}

/**
 * Notes every write made through `collection`'s API (insert, patch, modify, remove, bulk ones),
 * once it has landed. Idempotent per collection object.
 */
const watched = new WeakSet<object>();
type Hook = (data: { _id: string }) => void;
/** The part of an RxCollection this needs, whatever its document type. */
export interface NotedCollection {
  readonly name: string;
  preInsert(fn: Hook, parallel: boolean): void;
  preSave(fn: Hook, parallel: boolean): void;
  preRemove(fn: Hook, parallel: boolean): void;
  postInsert(fn: Hook, parallel: boolean): void;
  postSave(fn: Hook, parallel: boolean): void;
  postRemove(fn: Hook, parallel: boolean): void;
}
export function noteLocalWrites(collection: NotedCollection): void {
  if (watched.has(collection)) return;
  watched.add(collection);
  const name = collection.name;
  // RxDB awaits these (parallel: false) before the save resolves: a logout tapped after a save
  // returned always finds its note.
  collection.preInsert((data) => begin(name, data._id), false);
  collection.preSave((data) => begin(name, data._id), false);
  collection.preRemove((data) => begin(name, data._id), false);
  collection.postInsert((data) => note(name, data._id), false);
  collection.postSave((data) => note(name, data._id), false);
  collection.postRemove((data) => note(name, data._id), false);
}

/** What a push handler knows of one document when it has queued (or skipped) it. */
export interface HandledRow {
  docId: string;
  /** The state the handler was given (with `_deleted`). */
  state: Record<string, unknown>;
}

/**
 * Called by the push handler once `rows` are in the outbox (or had nothing to send). `current` reads
 * the documents as they are now (a removed one is absent). A note goes only if the state handled is
 * the current one and no write came since the read: a later change keeps it (its own push comes).
 */
export async function markQueued(
  collection: string,
  rows: readonly HandledRow[],
  current: (ids: string[]) => Promise<Map<string, Record<string, unknown>>>,
): Promise<void> {
  const docs = noted.get(collection);
  if (!docs || rows.length === 0) return;
  const ids = rows.map((r) => r.docId).filter((id) => docs.has(id));
  if (ids.length === 0) return;
  const before = new Map(ids.map((id) => [id, docs.get(id)]));
  const now = await current(ids);
  let any = false;
  for (const row of rows) {
    if (!before.has(row.docId)) continue;
    const doc = now.get(row.docId);
    const same = doc === undefined ? row.state['_deleted'] === true : row.state['_deleted'] !== true && deepEqual(withoutDeleted(row.state), doc);
    if (same && docs.get(row.docId) === before.get(row.docId)) {
      docs.delete(row.docId);
      any = true;
    }
  }
  if (any) changed();
}

const withoutDeleted = (state: Record<string, unknown>): Record<string, unknown> => {
  const rest = { ...state };
  delete rest['_deleted'];
  return rest;
};

/** The documents of `collection` with a local change noted. */
export function notedIds(collection: string): string[] {
  return [...(noted.get(collection)?.keys() ?? [])];
}

/** How many documents have a local change not yet in the outbox (saves still landing included). */
export function unqueued(): number {
  let n = 0;
  for (const docs of noted.values()) n += docs.size;
  const recent = Date.now() - IN_FLIGHT_MAX_MS;
  for (const [key, { since }] of inFlight) {
    const [name = '', docId = ''] = key.split('|');
    // A save still landing on a document already noted is the same entry.
    if (since >= recent && !noted.get(name)?.has(docId)) n++;
  }
  return n;
}

/**
 * Waits until no local change is on its way to the outbox, or `timeoutMs`
 * passed; answers how many still are.
 */
export async function whenQueued(timeoutMs: number): Promise<number> {
  if (unqueued() === 0) return 0;
  return new Promise<number>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      listeners.delete(check);
      resolve(unqueued());
    };
    const check = () => {
      if (unqueued() === 0) done();
    };
    const timer = setTimeout(done, timeoutMs);
    listeners.add(check);
    // A save that never lands stops counting after IN_FLIGHT_MAX_MS: look again then.
    if (inFlight.size > 0) setTimeout(check, Math.min(timeoutMs, IN_FLIGHT_MAX_MS + 10));
  });
}

/** Forgets every note: the device's data was wiped (logout) or the database closed for good. */
export function forgetLocalWrites(): void {
  noted.clear();
  inFlight.clear();
  changed();
}
