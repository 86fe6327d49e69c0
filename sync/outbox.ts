// The one outbox (docs/sync-protocol.md). Every write a device makes becomes a named mutation here,
// sealed with the data key, and leaves only when the server has answered it. The page drains it
// while open; the service worker drains it (Background Sync) when the page is closed; a Web Lock
// makes sure only one of them sends at a time (sync/drain.ts).
//
// Each mutation carries an id `<deviceId>:<seq>`; the server applies an id at most once and answers
// a repeat with its first answer, so an entry sent twice (crash between send and delete, a lost
// response) still has its effect once, for adds, updates and deletes alike. The counter that makes
// `seq` is never reset (not by a logout, not by clearing the outbox): a reused id would be answered
// with an old write's answer and the new write would be lost.
//
// What the server refused for good is not dropped: it moves to `refused`, sealed like the entries,
// and stays there until the patient keeps, retries or discards it (sync/refusals.ts).
import { Dexie, liveQuery, type EntityTable, type Table } from 'dexie';
import { decryptJson, DecryptionError, encryptJson, findDataKey, getDataKey, keyTag } from './storage/crypto.ts';

export interface OutboxOp {
  /** Which local collection the write came from, and the document's id. */
  collection: string;
  docId: string;
  kind: 'add' | 'update' | 'delete';
  /**
   * The mutation's name in the registry (schemas/mutations.ts: "glucose.update", "dose.markTaken"),
   * or, on an entry an older version of the app queued, the intent it named ("glucose.changeValue").
   */
  name: string;
  /** API path under /api, e.g. "/glucose/add". Always POST (docs/requirements.md §7). */
  path: string;
  body: Record<string, unknown>;
  /** When the write was made on the device (ms since epoch). */
  madeAt: number;
  /** `<deviceId>:<seq>`: applied at most once by the server. */
  mutationId: string;
  /**
   * The body carries `baseVersion` (a stated-conflict check): once an earlier mutation of the same
   * document has been applied, this one is based on that result (see rebase in sync/drain.ts).
   */
  versioned?: boolean;
}

export type OpInput = Omit<OutboxOp, 'mutationId' | 'name'> & { name?: string; mutationId?: string };

export interface Entry {
  /** Given by IndexedDB when the entry is added (`++seq`). */
  seq: number;
  sealed: string;
  attempts: number;
  /** A failing entry is not tried again before this time (ms); see the dead-letter rule in drain.ts. */
  nextAttemptAt?: number;
  /**
   * Queued or journaled before the server's history went back (resendJournal): the version it was
   * based on belongs to a history the server no longer has, so it is sent on none (openEntry).
   */
  unbased?: true;
  /**
   * Journaled (the lost server had acknowledged it) and sent again by resendJournal: it was right
   * where it was made, and goes as it was, ordered by when it was made. Only a write the server
   * never acknowledged and that goes on no version says what it was made on (`madeOn`, openEntry).
   */
  resent?: true;
  /**
   * An entry sent again after a heal whose record the server did not have (404): another device
   * may still be healing its add. Since when it waits for that (drain.ts, HEAL_WAIT_MS), and how
   * many times it was found missing.
   */
  awaitingRecordSince?: number;
  awaitingRecordTries?: number;
}

/** A write the server refused for good, kept until the patient decides (sealed as a whole). */
export interface Refusal {
  op: OutboxOp;
  /** 400, 403, 404, 409, …; 0 for a write held back behind an earlier refused write of the same record. */
  status: number;
  message: string;
  /** 409: the record as the server has it (null: deleted there). */
  current?: unknown;
  /** 409 on the profile: the fields someone else changed. */
  fields?: string[];
  code?: string;
  at: number;
}

export interface StoredRefusal extends Refusal {
  id: number;
}

/** A document the next pull hands to the local database as the server's state. */
export interface Override {
  collection: string;
  docId: string;
  /** The server's copy; null: gone on the server; 'refetch': ask the server for it. */
  doc: Record<string, unknown> | null | 'refetch';
}

interface Sealed {
  /** Given by IndexedDB when the row is added (`++id`). */
  id: number;
  sealed: string;
}

interface Meta {
  id: string;
  sealed: string;
}

/** Plain on purpose: a random id and a count are no patient data, and must outlive every key. */
interface Counter {
  id: 'mutations';
  deviceId: string;
  next: number;
}

/**
 * The version the server answered for this device's last applied write of a record (collection|id).
 * Plain on purpose: an id and a number are no patient data.
 */
interface Applied {
  doc: string;
  version: number;
}

export interface SessionForReplay {
  token: string;
  deviceId: string;
}

/**
 * Unsent entries of a patient whose session ended (401) when another patient logged in on this
 * device: sealed under that patient's own key, set aside (sync/parking.ts).
 */
export interface Parked {
  /** Given by IndexedDB when the row is added (`++id`). */
  id: number;
  keyId: string;
  /** {hospNo} sealed under the parked key: only that key can say whose entries these are. */
  sealedOwner: string;
  entries: string[];
  refused: string[];
  count: number;
  parkedAt: number;
}

/**
 * A write the server acknowledged, kept sealed for a while (JOURNAL_KEEP_MS): a server restored from
 * a backup taken before it lacks it, and the device sends it again (sync/history.ts).
 */
interface Journaled {
  /** Given by IndexedDB when the row is added (`++seq`); only grows, also across clears. */
  seq: number;
  /** The outbox entry's own sealed mutation, as it was sent. */
  sealed: string;
  ackedAt: number;
}

/** Where this device stands with the server's history (sync/history.ts), sealed in `meta`. */
export interface HistoryState {
  /** The mark the server gave at the last check. */
  mark?: string;
  /** The journal's highest seq when that check was sent: writes acknowledged after it come next. */
  fence: number;
  /**
   * Set when the server's history went back: a pull checkpoint reached under another epoch pulls
   * everything once (sync/replication.ts).
   */
  epoch?: string;
  /**
   * The session (a digest of its token) the history was last checked under. A new session may
   * meet another database (a replaced one ends every session; a restored one, those made after
   * its backup): the drain checks before it sends anything on it (sync/drain.ts).
   */
  session?: string;
}

/** The collections whose acknowledged writes are journaled: the patient's own records. */
const JOURNALED = new Set(['glucose', 'symptoms', 'appointments', 'labTests', 'medicineIntakes', 'profile']);
/** How long, and how many, acknowledged writes are kept: a restore of last week's backup is healed. */
export const JOURNAL_KEEP_MS = 14 * 24 * 3600_000;
export const JOURNAL_MAX = 5_000;

class OutboxDatabase extends Dexie {
  entries!: EntityTable<Entry, 'seq'>;
  parked!: EntityTable<Parked, 'id'>;
  meta!: Table<Meta, string>;
  counter!: Table<Counter, string>;
  refused!: EntityTable<Sealed, 'id'>;
  overrides!: EntityTable<Sealed, 'id'>;
  applied!: Table<Applied, string>;
  journal!: EntityTable<Journaled, 'seq'>;
  constructor() {
    super('eddy-outbox');
    this.version(1).stores({ entries: '++seq', meta: 'id' });
    this.version(2).stores({ entries: '++seq', meta: 'id', counter: 'id', refused: '++id', overrides: '++id', parked: '++id' });
    this.version(3).stores({ entries: '++seq', meta: 'id', counter: 'id', refused: '++id', overrides: '++id', parked: '++id', applied: 'doc' });
    this.version(4).stores({
      entries: '++seq',
      meta: 'id',
      counter: 'id',
      refused: '++id',
      overrides: '++id',
      parked: '++id',
      applied: 'doc',
      journal: '++seq, ackedAt',
    });
  }
}

let outboxDb: OutboxDatabase | undefined;
export const outboxDatabase = (): OutboxDatabase => (outboxDb ??= new OutboxDatabase());
const db = outboxDatabase;

/** Takes the next mutation id; ids are never handed out twice (gaps are harmless). */
export async function nextMutationId(): Promise<string> {
  return db().transaction('rw', db().counter, async () => {
    const row = (await db().counter.get('mutations')) ?? { id: 'mutations' as const, deviceId: crypto.randomUUID(), next: 1 };
    await db().counter.put({ ...row, next: row.next + 1 });
    return `${row.deviceId}:${row.next}`;
  });
}

export async function sealOp(key: CryptoKey, op: OutboxOp): Promise<string> {
  return encryptJson(key, op, 'outbox');
}

export async function enqueue(input: OpInput): Promise<OutboxOp> {
  const key = await getDataKey();
  const op: OutboxOp = { ...input, name: input.name ?? `${input.collection}.${input.kind}`, mutationId: input.mutationId ?? (await nextMutationId()) };
  await db().entries.add({ sealed: await sealOp(key, op), attempts: 0 });
  return op;
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
 * An entry sealed under an earlier key (destroyed by a confirmed logout that did not get to clear
 * the outbox) can never be opened again, and must not be: it belongs to an ended session. Such an
 * entry reads as undefined instead of failing every caller after it.
 */
export async function openEntry(key: CryptoKey, entry: Entry): Promise<OutboxOp | undefined> {
  const op = await openSealed<OutboxOp>(key, entry.sealed, 'outbox');
  if (!op) return op;
  // On no version, what it was made on goes instead (docs/sync-protocol.md, "What a write sent again
  // was made on"); on a version, or sent again as acknowledged once, the version or the time orders it.
  const drop = entry.unbased && entry.resent !== true ? ['baseVersion'] : entry.unbased ? ['baseVersion', 'madeOn'] : ['madeOn'];
  if (!drop.some((k) => k in op.body)) return op;
  const body = { ...op.body };
  for (const k of drop) delete body[k];
  return { ...op, body };
}

/**
 * What has been opened under the data key, by purpose and sealed text: a sync reads the outbox and
 * the refusals for every collection it pulls, for each push and for the drain, and each entry is
 * decrypted once, not each time (a sealed text never changes: a changed entry is sealed anew, with a
 * new nonce). Held for one key (`keyTag`): under another key (a logout and a new login, here or in
 * another tab) it starts empty, so an entry the new key cannot open is never read from memory.
 */
let opened: { tag: string; values: Map<string, unknown> } | undefined;
/** Enough for a day of offline writes and their refusals; past it the memory starts again. */
const OPENED_MAX = 5_000;
/** What is read on every sync; the session, the owner and the history are read once in a while. */
const KEPT_OPEN = new Set(['outbox', 'refusal']);

/** Opens something sealed for `purpose`; undefined when it was sealed under another key or purpose. */
export async function openSealed<T>(key: CryptoKey, sealed: string, purpose: string): Promise<T | undefined> {
  const tag = keyTag(key);
  if (!KEPT_OPEN.has(purpose) || tag === undefined) return decrypted<T>(key, sealed, purpose);
  if (opened?.tag !== tag) opened = { tag, values: new Map() };
  const seen = opened.values;
  const id = `${purpose}\n${sealed}`;
  // A copy each time: callers may change what they are given.
  if (seen.has(id)) return structuredClone(seen.get(id)) as T | undefined;
  const value = await decrypted<T>(key, sealed, purpose);
  if (seen.size >= OPENED_MAX) seen.clear();
  seen.set(id, value);
  return structuredClone(value);
}

async function decrypted<T>(key: CryptoKey, sealed: string, purpose: string): Promise<T | undefined> {
  try {
    return await decryptJson<T>(key, sealed, purpose);
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
  // Sealed under a destroyed key: that session is over, the page must hand over a new one.
  return openSealed<SessionForReplay>(key, row.sealed, 'session');
}

/** A 401 locks the app: nothing may be sent with the ended token, but the entries stay. */
export async function dropReplaySession(): Promise<void> {
  await db().meta.delete('session');
}

/** Whose entries these are (the hospital number, sealed), so a lock never hands them to someone else. */
export async function setOwner(hospNo: string): Promise<void> {
  const key = await getDataKey();
  await db().meta.put({ id: 'owner', sealed: await encryptJson(key, { hospNo }, 'owner') });
}

export async function getOwner(): Promise<string | undefined> {
  const key = await findDataKey();
  const row = await db().meta.get('owner');
  if (!key || !row) return undefined;
  return (await openSealed<{ hospNo: string }>(key, row.sealed, 'owner'))?.hospNo;
}

/** A logout the patient confirmed: nothing of this patient may stay behind (the counter stays). */
export async function clearOutbox(): Promise<void> {
  // What was opened goes first: nothing of the patient's stays in memory either.
  opened = undefined;
  await db().transaction('rw', [db().entries, db().meta, db().refused, db().overrides, db().applied, db().journal], async () => {
    await db().entries.clear();
    await db().journal.clear();
    await db().meta.clear();
    await db().refused.clear();
    await db().overrides.clear();
    await db().applied.clear();
  });
}

// ---- versions this device's own writes produced -----------------------------------------------

/**
 * Remembers that the server applied this device's write of `doc` (collection|id) at `version`.
 * A device learns its own write's version from the answer long before a pull brings the record
 * back, and an edit made in between is made on top of that write: it must be sent on that version
 * (sync/drain.ts), or the server would take it for a conflict with the device's own edit.
 */
export async function noteApplied(doc: string, version: number): Promise<void> {
  await db().transaction('rw', db().applied, async () => {
    const row = await db().applied.get(doc);
    if (!row || row.version < version) await db().applied.put({ doc, version });
  });
}

/**
 * Entries the server has applied, removed in one transaction with the versions it answered noted
 * (as noteApplied): a batch's bookkeeping costs one transaction, not two per write.
 */
export async function removeApplied(done: readonly { seq: number; doc: string; version?: number }[], now: number = Date.now()): Promise<void> {
  if (done.length === 0) return;
  await db().transaction('rw', db().entries, db().applied, db().journal, async () => {
    // The patient's records go to the journal as they were sent (sync/history.ts).
    const kept = done.filter((d) => JOURNALED.has(d.doc.slice(0, d.doc.indexOf('|'))));
    const sent = kept.length > 0 ? await db().entries.bulkGet(kept.map((d) => d.seq)) : [];
    const journaled = sent.flatMap((e) => (e ? [{ sealed: e.sealed, ackedAt: now }] : []));
    if (journaled.length > 0) {
      await db().journal.bulkAdd(journaled);
      await db()
        .journal.where('ackedAt')
        .below(now - JOURNAL_KEEP_MS)
        .delete();
      const excess = (await db().journal.count()) - JOURNAL_MAX;
      if (excess > 0) await db().journal.orderBy('seq').limit(excess).delete();
    }
    await db().entries.bulkDelete(done.map((d) => d.seq));
    const highest = new Map<string, number>();
    for (const d of done) if (d.version !== undefined) highest.set(d.doc, Math.max(d.version, highest.get(d.doc) ?? 0));
    const rows = await db().applied.bulkGet([...highest.keys()]);
    const newer = [...highest].filter(([, v], i) => (rows[i]?.version ?? -1) < v).map(([doc, version]) => ({ doc, version }));
    if (newer.length > 0) await db().applied.bulkPut(newer);
  });
}

// ---- the journal and the server's history (sync/history.ts) ------------------------------------

export async function readHistory(): Promise<HistoryState> {
  const key = await findDataKey();
  const row = await db().meta.get('history');
  const state = key && row ? await openSealed<HistoryState>(key, row.sealed, 'history') : undefined;
  return state ?? { fence: 0 };
}

export async function writeHistory(state: HistoryState): Promise<void> {
  const key = await getDataKey();
  await db().meta.put({ id: 'history', sealed: await encryptJson(key, state, 'history') });
}

/** The latest mutation ids (at most `max`, oldest first) the server acknowledged after `fence`, and the journal's top. */
export async function ackedSince(fence: number, max: number): Promise<{ ids: string[]; top: number }> {
  const rows = await db().journal.where('seq').above(fence).reverse().limit(max).toArray();
  const top = (await db().journal.orderBy('seq').last())?.seq ?? fence;
  const key = await findDataKey();
  if (!key) return { ids: [], top };
  const ops = await Promise.all(rows.reverse().map((r) => openSealed<OutboxOp>(key, r.sealed, 'outbox')));
  return { ids: ops.flatMap((op) => (op ? [op.mutationId] : [])), top: Math.max(top, fence) };
}

/** Another patient's journal is no use to this one (and could not be opened): see sync/parking.ts. */
export async function clearJournal(): Promise<void> {
  await db().journal.clear();
}

/**
 * The server's history went back: every journaled write goes back into the outbox, ahead of what
 * waits (a waiting edit may build on a journaled add), with its own mutation id, so the server
 * applies those it lacks and answers the others as repeats. The versions noted for this device's
 * writes belong to the history that is gone: forgotten, so the writes sent again state their own.
 * Call under the outbox lock (sync/drain.ts withOutboxLock). Returns how many went back.
 */
export async function resendJournal(): Promise<number> {
  return db().transaction('rw', db().entries, db().journal, db().applied, async () => {
    const journaled = await db().journal.orderBy('seq').toArray();
    const waiting = await db().entries.orderBy('seq').toArray();
    await db().entries.clear();
    // Their base versions belong to the history the server lost (a replaced database numbers its
    // versions anew: a meal time re-sent on an old base was refused as a conflict with nobody, chaos
    // "replace"). Each goes as the patient made it, ordered on the server by when it was made
    // (madeAt: docs/sync-protocol.md, "Writes sent again are ordered by when they were made").
    await db().entries.bulkAdd(journaled.map((j) => ({ sealed: j.sealed, attempts: 0, unbased: true as const, resent: true as const })));
    await db().entries.bulkAdd(waiting.map(({ seq: _seq, ...rest }) => ({ ...rest, unbased: true as const })));
    await db().journal.clear();
    await db().applied.clear();
    return journaled.length;
  });
}

/** The version of this device's last applied write of `doc`, if the server has answered one. */
export async function appliedVersion(doc: string): Promise<number | undefined> {
  return (await db().applied.get(doc))?.version;
}

// ---- refusals and overrides -------------------------------------------------------------------

export async function addRefusal(key: CryptoKey, refusal: Refusal): Promise<void> {
  await db().refused.add({ sealed: await encryptJson(key, refusal, 'refusal') });
}

/** Every refusal still waiting for the patient, oldest first. */
export async function listRefusals(): Promise<StoredRefusal[]> {
  const key = await findDataKey();
  if (!key) return [];
  const rows = await db().refused.orderBy('id').toArray();
  const out: StoredRefusal[] = [];
  for (const row of rows) {
    const r = await openSealed<Refusal>(key, row.sealed, 'refusal');
    if (r) out.push({ ...r, id: row.id });
  }
  return out;
}

export async function refusedCount(): Promise<number> {
  return db().refused.count();
}

export async function deleteRefusals(ids: number[]): Promise<void> {
  await db().refused.bulkDelete(ids);
}

export async function addOverride(override: Override, resolves: number[] = [], sealWith?: CryptoKey): Promise<void> {
  // The drain seals with the key it opened the outbox with (the service worker keeps no key of its own).
  const key = sealWith ?? (await getDataKey());
  const sealed = await encryptJson(key, override, 'override');
  // One step: a pull never sees the refusal gone without the override there (it would pull the
  // server's state of nothing), nor the override while the refusal still holds the record back.
  await db().transaction('rw', [db().overrides, db().refused], async () => {
    await db().overrides.add({ sealed });
    await db().refused.bulkDelete(resolves);
  });
}

/** The overrides of one collection, left in place. */
export async function peekOverrides(collection: string): Promise<Override[]> {
  const key = await findDataKey();
  if (!key) return [];
  const out: Override[] = [];
  for (const row of await db().overrides.toArray()) {
    const o = await openSealed<Override>(key, row.sealed, 'override');
    if (o?.collection === collection) out.push(o);
  }
  return out;
}

/**
 * The overrides of one collection, except those of records still held back (`held`); the ones
 * returned are handed out once.
 */
export async function takeOverrides(collection: string, held: ReadonlySet<string> = new Set()): Promise<Override[]> {
  const key = await findDataKey();
  if (!key) return [];
  const rows = await db().overrides.toArray();
  const out: Override[] = [];
  const taken: number[] = [];
  for (const row of rows) {
    const o = await openSealed<Override>(key, row.sealed, 'override');
    if (o?.collection === collection && !held.has(o.docId)) {
      out.push(o);
      taken.push(row.id);
    }
  }
  await db().overrides.bulkDelete(taken);
  return out;
}

/** Entries that keep failing on the server (the dead-letter rule): not dropped, retried later. */
export async function stuckCount(stuckAfter: number): Promise<number> {
  // Only failures with an answer (5xx, timeouts) count as attempts: being offline never does.
  return db()
    .entries.filter((e) => e.attempts >= stuckAfter)
    .count();
}

export interface OutboxCounts {
  pending: number;
  refused: number;
  stuck: number;
}

export async function outboxCounts(stuckAfter: number): Promise<OutboxCounts> {
  const [pending, refused, stuck] = await Promise.all([pendingCount(), refusedCount(), stuckCount(stuckAfter)]);
  return { pending, refused, stuck };
}

/**
 * Calls `listener` with the outbox's counts now and after every change, also changes made by the
 * service worker or another tab (Dexie's live queries observe those).
 */
export function watchOutboxCounts(stuckAfter: number, listener: (counts: OutboxCounts) => void): () => void {
  const subscription = liveQuery(() => outboxCounts(stuckAfter)).subscribe({ next: listener, error: () => undefined });
  return () => subscription.unsubscribe();
}

/**
 * Calls `listener` whenever overrides wait to be applied (now, and after every change, also one
 * made in another tab): only the tab that leads the replication pulls, and a patient may decide a
 * refusal in any tab.
 */
export function watchOverrides(listener: () => void): () => void {
  const subscription = liveQuery(() => db().overrides.count()).subscribe({
    next: (count) => {
      if (count > 0) listener();
    },
    error: () => undefined,
  });
  return () => subscription.unsubscribe();
}
