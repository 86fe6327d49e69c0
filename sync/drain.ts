// Sending the outbox (docs/sync-protocol.md). Entries go in the order they were made, each with its
// mutation id, so a repeat is answered by the server without a second effect. What happens to an
// entry depends on the answer:
//
// - 2xx: removed. The version the server answered is remembered for the record (noteApplied), and
//   every later write of that record is sent on at least that version (onOwnVersion), however late it
//   was queued: this device's own consecutive edits never conflict with each other, even before a
//   pull has brought the record's new version to the device. An edit by someone else in between
//   still conflicts, as it must: the remembered version is this device's, not the server's latest.
// - 400, 403, 404, 409, …: refused for good. Moved, sealed, to the refused list with the server's
//   reason (and its current copy on a 409); later entries of that record are held there behind it,
//   since they were made on top of a change the server does not have. Two of them may instead
//   mean a restored server (historyMayHaveGoneBack): its history is checked and healed first.
//   A write sent again after a heal (Entry.unbased) that the server answers 404 is an edit or
//   removal of a record another device added, which the server lost and that device has not yet
//   healed: it waits for it (HEAL_WAIT_MS), tried again with a growing pause, instead of being
//   refused as "not found". A 409 `superseded`: the record
//   already holds a later change (another device healed it first); the write is dropped and the
//   record pulled again.
// - 401: the session is over; everything stays for the same patient's next login.
// - no answer at all (offline), or one that is not the API's (not JSON: a captive portal's page,
//   whatever its status below 500; an answer cut on the way): stop; everything stays in order.
// - 5xx, 408, 429 or a request that timed out: the entry failed. Up to STUCK_AFTER failures the
//   drain stops there, keeping strict order (a server restarting is the usual cause). After that the
//   entry is "stuck" (the dead-letter rule): it is retried with a growing pause (at most
//   MAX_BACKOFF_MS), the patient is told, and the entries of OTHER records go on past it. Entries of
//   the same record wait behind it, so an update never overtakes its add. Nothing is ever dropped.
//
// Consecutive entries that can be sent go together, up to BATCH_MAX, in one POST /api/batch (a day
// of offline writes in a handful of requests instead of a thousand): the server runs them in order,
// each as its own route would, and stops at the first it refuses. Each result is handled as the
// answer to that entry's own request; entries after a refused one did not run and go in the next
// request. A batch holds one entry per record, so a later write of a record is sent once the earlier
// one's version is known. A batch request that fails as a whole counts as the answer to its first
// entry; a server that refuses batches gets the entries one at a time.
import { findDataKey } from './storage/crypto.ts';
import { log } from './log.ts';
import { BATCH_MAX, BATCH_PATHS } from '../schemas/batch.ts';
import { BASE_VERSION_UNKNOWN, SUPERSEDED } from '../schemas/history.ts';
import { MADE_AT_PATHS, mutationNamed } from '../schemas/mutations.ts';
import { checkHistoryWith, sessionDigest } from './history.ts';
import { withOutboxLock } from './outbox-lock.ts';
import {
  addOverride,
  addRefusal,
  appliedVersion,
  JOURNAL_KEEP_MS,
  getReplaySession,
  listRefusals,
  openEntry,
  outboxDatabase,
  pendingCount,
  readHistory,
  removeApplied,
  type Entry,
  type OutboxOp,
  type Refusal,
} from './outbox.ts';

/** Failures of one entry after which it stops holding up the others. */
export const STUCK_AFTER = 5;
export const MAX_BACKOFF_MS = 15 * 60_000;
/** How long one write's request may take; a batch gets this plus BATCH_TIMEOUT_PER_WRITE_MS per write. */
const REQUEST_TIMEOUT_MS = 15_000;
const BATCH_TIMEOUT_PER_WRITE_MS = 200;
const FIRST_BACKOFF_MS = 10_000;
/** How long a write sent again after a heal waits for another device to heal its record's add (as long as a journal keeps it). */
export const HEAL_WAIT_MS = JOURNAL_KEEP_MS;
const FIRST_HEAL_WAIT_MS = 5_000;

export interface Rejection {
  op: OutboxOp;
  status: number;
  message: string;
}

export interface DrainResult {
  sent: OutboxOp[];
  rejected: Rejection[];
  /** Entries left for later (offline, server error, stuck, waiting behind one of those). */
  kept: number;
  /** Entries past the dead-letter limit (kept and retried, never dropped). */
  stuck: number;
  unauthorized: boolean;
  /** The session token the entries were sent with: a 401 is about that session, not a later one. */
  token?: string;
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
  /** Per-request timeout; a request that hangs counts as a failure of that entry. */
  timeoutMs?: number;
  now?: () => number;
}

/** Statuses after which retrying cannot help: the write is refused for good and kept for the patient. */
export const isFinalRefusal = (status: number) => status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;

export const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - STUCK_AFTER));

const docKey = (op: Pick<OutboxOp, 'collection' | 'docId'>) => `${op.collection}|${op.docId}`;

interface Answer {
  status: number;
  json: Record<string, unknown>;
  timedOut: boolean;
}

async function send(
  op: Pick<OutboxOp, 'path' | 'body'> & { mutationId?: string },
  session: { token: string; deviceId: string },
  opts: DrainOptions,
): Promise<Answer> {
  const doFetch = opts.fetchImpl ?? fetch;
  try {
    const res = await doFetch(`${opts.baseUrl ?? ''}/api${op.path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-Device-Id': session.deviceId,
        Authorization: `Bearer ${session.token}`,
      },
      body: JSON.stringify(op.mutationId === undefined ? op.body : { ...op.body, mutationId: op.mutationId }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    const json = await jsonOf(res);
    // Not our API's answer (a captive portal's login page, an answer cut on the way): for the outbox
    // that is no answer at all, the same as offline. Taken as a 2xx, the portal's page removed the
    // entry as sent; as a 401 or 403, it ended the session or refused the entry for good (issue 44).
    if (json === undefined && (res.status < 500 || res.status === 511)) return { status: 0, json: {}, timedOut: false };
    return { status: res.status, json: json ?? {}, timedOut: false };
  } catch (err) {
    const timedOut = err instanceof DOMException ? err.name === 'TimeoutError' : (err as { name?: string } | null)?.name === 'TimeoutError';
    return { status: 0, json: {}, timedOut };
  }
}

/** The body of an answer from the API (JSON, read whole), or undefined for anything else. */
async function jsonOf(res: Response): Promise<Record<string, unknown> | undefined> {
  if (!(res.headers.get('content-type') ?? '').toLowerCase().includes('application/json')) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  try {
    const json: unknown = await res.json();
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The version a successful answer reports for the record it wrote, if any. */
function answeredVersion(json: Record<string, unknown>): number | undefined {
  const data = json['data'] as { version?: unknown } | undefined;
  const v = data?.version ?? json['version'];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function refusalOf(op: OutboxOp, status: number, json: Record<string, unknown>, now: number): Refusal {
  const message = typeof json['message'] === 'string' ? json['message'] : '';
  return {
    op,
    status,
    message,
    at: now,
    ...('current' in json ? { current: json['current'] } : {}),
    ...(Array.isArray(json['fields']) ? { fields: (json['fields'] as unknown[]).map(String) } : {}),
    ...(typeof json['code'] === 'string' ? { code: json['code'] } : {}),
  };
}

/** Sends pending writes in the order they were made; see the header for what each answer does. */
export function drainOutbox(opts: DrainOptions = {}): Promise<DrainResult> {
  return withOutboxLock(async () => {
    const first = await drainPass(opts, true);
    if (!first.healed && !first.again) return first.result;
    // The server's history went back and its journal is queued again, ahead of what waits (or a
    // write goes again on no version): once more.
    const second = await drainPass(opts, !first.healed);
    return { ...second.result, sent: [...first.result.sent, ...second.result.sent], rejected: [...first.result.rejected, ...second.result.rejected] };
  });
}

/**
 * Whether the server's history went back (sync/history.ts), asked when an answer may mean so
 * (historyMayHaveGoneBack). Asked here, under the lock this drain holds; the verdict, or undefined
 * when the server did not answer.
 */
async function historyVerdict(session: { token: string; deviceId: string }, opts: DrainOptions, digest?: string): Promise<'intact' | 'healed' | undefined> {
  // A server that refuses the question (one without it) cannot say its history went back: the 404
  // is then its answer, as before; one that did not answer is asked again next time.
  let refused = false;
  const verdict = await checkHistoryWith(
    async (body) => {
      const answer = await send({ path: '/sync/history', body }, session, opts);
      refused = isFinalRefusal(answer.status);
      if (answer.status !== 200 || typeof answer.json['known'] !== 'boolean' || typeof answer.json['mark'] !== 'string') return undefined;
      return { known: answer.json['known'], mark: answer.json['mark'] };
    },
    true,
    digest,
  );
  return refused ? 'intact' : verdict;
}

/**
 * Answers that may mean the server's history went back rather than what they say: a 404 to a change
 * of a record the server had acknowledged to this device (lost, not "not found"), and a 409 saying
 * the write's base version was never given for its record (BASE_VERSION_UNKNOWN: the device knows a
 * newer history than the server's). Sent on, the write would land before this device's earlier
 * writes that the restore lost, and reorder the patient's own changes.
 */
async function historyMayHaveGoneBack(op: OutboxOp, doc: string, answer: Answer): Promise<boolean> {
  if (answer.status === 409) return answer.json['code'] === BASE_VERSION_UNKNOWN;
  return answer.status === 404 && op.kind !== 'add' && (await appliedVersion(doc)) !== undefined;
}

/** One pass over the outbox (see the header); `mayHeal`: an answer that may mean a restored server asks its history. */
async function drainPass(opts: DrainOptions, mayHeal: boolean): Promise<{ result: DrainResult; healed: boolean; again?: boolean }> {
  let healed = false;
  let again = false;
  const db = outboxDatabase();
  const now = opts.now ?? Date.now;
  const result: DrainResult = { sent: [], rejected: [], kept: 0, stuck: 0, unauthorized: false };
  const key = await findDataKey();
  const session = await getReplaySession();
  if (!key || !session) {
    result.kept = await pendingCount();
    return { result, healed };
  }
  const entries = await db.entries.orderBy('seq').toArray();
  const ops = await Promise.all(entries.map((e) => openEntry(key, e)));
  // A new session may meet another database than the one these writes' base versions came from (a
  // replaced database ends every session, a restored one those made after its backup): its history
  // is checked before the first write stated on a version goes out under it, so a base from a lost
  // history never meets the new one's versions (a 409 with nobody, or a write landing before the
  // device's earlier one the heal sends again).
  if (mayHeal && ops.some((op) => op?.versioned === true)) {
    const digest = await sessionDigest(session.token);
    if ((await readHistory()).session !== digest) {
      const verdict = await historyVerdict(session, opts, digest).catch(() => undefined);
      if (verdict === 'healed') {
        result.kept = entries.length;
        return { result, healed: true };
      }
    }
  }
  // Records with a refusal the patient has not resolved: what follows waits with it.
  const refusedDocs = new Set((await listRefusals()).map((r) => docKey(r.op)));
  // Records held up in this drain (a stuck or paused entry): later entries of theirs must wait.
  const waitingDocs = new Set<string>();
  // Applied entries not yet removed: removed together, before anything else is written.
  let applied: { seq: number; doc: string; version?: number }[] = [];
  const flush = async () => {
    await removeApplied(applied);
    applied = [];
  };
  /** Whether entry `i` can be sent now (it decrypts, nothing of its record waits, no pause). */
  const sendable = (i: number): boolean => {
    const op = ops[i];
    const entry = entries[i] as Entry;
    if (!op) return false;
    const doc = docKey(op);
    return !refusedDocs.has(doc) && !waitingDocs.has(doc) && !(entry.nextAttemptAt !== undefined && entry.nextAttemptAt > now());
  };

  /** What the answer to entry `i` does (see the header); 'stop' ends this drain. */
  const settle = async (i: number, answer: Answer): Promise<'next' | 'stop'> => {
    const entry = entries[i] as Entry;
    const op = ops[i] as OutboxOp;
    const doc = docKey(op);
    const { status } = answer;
    if (status >= 200 && status < 300) {
      applied.push({ seq: entry.seq, doc, ...optional(answeredVersion(answer.json)) });
      result.sent.push(op);
      return 'next';
    }
    await flush();
    if (status === 409 && answer.json['code'] === SUPERSEDED) {
      // The record holds a change made after this one (another device healed first): that stays,
      // and the device takes it at its next pull. The pull is asked for first: a drain cut between
      // the two sends the write again, and is answered the same.
      await addOverride({ collection: op.collection, docId: op.docId, doc: 'refetch' }, [], key);
      await db.entries.delete(entry.seq);
      result.sent.push(op);
      return 'next';
    }
    if (mayHeal && !healed && (await historyMayHaveGoneBack(op, doc, answer))) {
      const verdict = await historyVerdict(session, opts).catch(() => undefined);
      if (verdict !== 'intact') {
        // Healed: the journal goes first, then this entry again. No answer: kept, asked next time.
        healed = verdict === 'healed';
        result.kept += entries.length - i;
        return 'stop';
      }
      // The server holds this device's history: the record is gone for another reason.
    }
    if (status === 409 && answer.json['code'] === BASE_VERSION_UNKNOWN && entry.unbased !== true) {
      // The server holds this device's history (healed already, maybe by this very drain), yet the
      // base is a version it never gave the record: one of the lost history, which the device's copy
      // still carried when the patient changed it (after the heal, before a pull brought the
      // record's new version). The write goes again on no
      // version, ordered by when it was made, like the others the heal sent.
      await db.entries.update(entry.seq, { unbased: true });
      again = true;
      result.kept += entries.length - i;
      return 'stop';
    }
    if (status === 404 && entry.unbased === true && op.kind !== 'add' && now() - (entry.awaitingRecordSince ?? now()) < HEAL_WAIT_MS) {
      // Sent again after a heal, to a record the server lacks: another device may still have to heal
      // its add. The write waits for it, and the others go on.
      const tries = (entry.awaitingRecordTries ?? 0) + 1;
      const pause = Math.min(MAX_BACKOFF_MS, FIRST_HEAL_WAIT_MS * 2 ** (tries - 1));
      await db.entries.update(entry.seq, { awaitingRecordSince: entry.awaitingRecordSince ?? now(), awaitingRecordTries: tries, nextAttemptAt: now() + pause });
      log.warn(`A write sent again after a heal waits for its record (${tries} time(s) not on the server yet)`);
      waitingDocs.add(doc);
      result.kept++;
      return 'next';
    }
    if (isFinalRefusal(status)) {
      await addRefusal(key, refusalOf(op, status, answer.json, now()));
      await db.entries.delete(entry.seq);
      refusedDocs.add(doc);
      result.rejected.push({ op, status, message: typeof answer.json['message'] === 'string' ? answer.json['message'] : '' });
      return 'next';
    }
    if (status === 401) {
      result.unauthorized = true;
      result.token = session.token;
      result.kept += entries.length - i;
      return 'stop';
    }
    if (status === 0 && !answer.timedOut) {
      // No answer at all: the device (or the server) is offline. Not this entry's fault.
      result.kept += entries.length - i;
      return 'stop';
    }
    const attempts = entry.attempts + 1;
    if (attempts < STUCK_AFTER) {
      await db.entries.update(entry.seq, { attempts });
      result.kept += entries.length - i;
      return 'stop';
    }
    log.warn(`Outbox entry failed ${attempts} times (status ${status}); retried later, the others go on`);
    await db.entries.update(entry.seq, { attempts, nextAttemptAt: now() + backoffMs(attempts) });
    waitingDocs.add(doc);
    result.stuck++;
    result.kept++;
    return 'next';
  };

  let batching = true;
  try {
    for (let i = 0; i < entries.length;) {
      const entry = entries[i] as Entry;
      const op = ops[i];
      if (!op) {
        log.warn('Outbox entry that no longer decrypts dropped');
        await db.entries.delete(entry.seq);
        i++;
        continue;
      }
      const doc = docKey(op);
      if (refusedDocs.has(doc)) {
        await flush();
        await addRefusal(key, { op, status: 0, message: '', at: now() });
        await db.entries.delete(entry.seq);
        i++;
        continue;
      }
      if (!sendable(i)) {
        waitingDocs.add(doc);
        if (entry.attempts >= STUCK_AFTER) result.stuck++;
        result.kept++;
        i++;
        continue;
      }
      // The entries from here that can go together: sendable, of batchable routes, one per record
      // (a later write of a record is based on the version the earlier one gets: onOwnVersion).
      const run = [i];
      if (batching && BATCHABLE.has(op.path)) {
        const docs = new Set([doc]);
        for (let k = i + 1; k < entries.length && run.length < BATCH_MAX; k++) {
          const next = ops[k];
          if (!next || !BATCHABLE.has(next.path) || docs.has(docKey(next)) || !sendable(k)) break;
          docs.add(docKey(next));
          run.push(k);
        }
      }
      // What was applied is noted first: a later write of the same record is based on its version.
      await flush();
      if (run.length === 1) {
        if ((await settle(i, await send(await outgoing(op, doc, entry.unbased === true), session, opts))) === 'stop') break;
        i++;
        continue;
      }
      const sent = await Promise.all(run.map((k) => outgoing(ops[k] as OutboxOp, docKey(ops[k] as OutboxOp), entries[k]?.unbased === true)));
      const answer = await sendBatch(sent, session, opts);
      if (answer.results === undefined) {
        // A server that does not know batches (or refuses this one as such): one at a time.
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 408 && answer.status !== 429) {
          batching = false;
          continue;
        }
        // The request itself failed: as the answer to its first write.
        if ((await settle(i, answer)) === 'stop') break;
        i++;
        continue;
      }
      let stopped = false;
      for (const [t, r] of answer.results.entries()) {
        if ((await settle(i + t, r)) === 'stop') {
          stopped = true;
          break;
        }
      }
      if (stopped) break;
      // Writes after a refused one did not run: they are looked at again, and sent next.
      i += Math.max(1, answer.results.length);
    }
  } finally {
    await flush();
  }
  return { result, healed, again };
}

const optional = (version: number | undefined) => (version === undefined ? {} : { version });

const BATCHABLE = new Set<string>(BATCH_PATHS);

/**
 * Sends writes as one batch (POST /api/batch, docs/sync-protocol.md). `results` holds the answer of
 * each write that ran, in order; without it, the request as a whole failed and `status` says how.
 */
async function sendBatch(ops: OutboxOp[], session: { token: string; deviceId: string }, opts: DrainOptions): Promise<Answer & { results?: Answer[] }> {
  // A slow server takes longer over a hundred writes than over one: the time limit grows with them.
  const timeoutMs = (opts.timeoutMs ?? REQUEST_TIMEOUT_MS) + ops.length * BATCH_TIMEOUT_PER_WRITE_MS;
  const answer = await send(
    { path: '/batch', body: { mutations: ops.map((op) => ({ path: op.path, body: { ...op.body, mutationId: op.mutationId } })) } },
    session,
    { ...opts, timeoutMs },
  );
  const results = answer.status === 200 ? answer.json['results'] : undefined;
  if (!Array.isArray(results) || results.length === 0 || results.length > ops.length) return answer.status === 200 ? { ...answer, status: 502 } : answer;
  return {
    ...answer,
    results: results.map((r: { status?: unknown; body?: unknown }) => ({
      status: typeof r.status === 'number' ? r.status : 502,
      json: typeof r.body === 'object' && r.body !== null ? (r.body as Record<string, unknown>) : {},
      timedOut: false,
    })),
  };
}

/**
 * A versioned write (an update or delete stating `baseVersion`) as it goes out: based on at least
 * the version of this device's last applied write of the same record. It was made on the device on
 * top of that write, whether or not a pull had brought the write's version back when it was queued
 * (a write made right after another, or queued while the drain was sending the first). A repeat of
 * an entry already applied carries its mutation id, so the server answers it with its first answer
 * whatever its base says.
 */
async function outgoing(op: OutboxOp, doc: string, unbased: boolean): Promise<OutboxOp> {
  // Sent again after a heal, a write goes on no version, and is ordered by when it was made: the
  // version its re-sent predecessor gets (maybe a repeat's, older than another device's change made
  // after this one) says nothing of which came last.
  const based = unbased ? op : await onOwnVersion(op, doc);
  // When the patient made it: a write sent again after a heal is ordered by it (schemas/history.ts).
  if (!MADE_AT_PATHS.has(op.path) || typeof op.madeAt !== 'number' || !Number.isFinite(op.madeAt)) return based;
  return { ...based, body: { ...based.body, madeAt: new Date(op.madeAt).toISOString() } };
}

async function onOwnVersion(op: OutboxOp, doc: string): Promise<OutboxOp> {
  if (!op.versioned) return op;
  const base = typeof op.body['baseVersion'] === 'number' ? op.body['baseVersion'] : undefined;
  // The first meal times a device sets are a whole set, stated on no version (schemas/mutations.ts `wholeSet`).
  if (base === undefined && mutationNamed(op.name)?.wholeSet) return op;
  const own = await appliedVersion(doc);
  if (own === undefined || (base !== undefined && base >= own)) return op;
  return { ...op, body: { ...op.body, baseVersion: own } };
}
