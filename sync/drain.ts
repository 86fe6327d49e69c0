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
//   since they were made on top of a change the server does not have.
// - 401: the session is over; everything stays for the same patient's next login.
// - no answer at all (offline): stop; everything stays in order.
// - 5xx, 408, 429 or a request that timed out: the entry failed. Up to STUCK_AFTER failures the
//   drain stops there, keeping strict order (a server restarting is the usual cause). After that the
//   entry is "stuck" (the dead-letter rule): it is retried with a growing pause (at most
//   MAX_BACKOFF_MS), the patient is told, and the entries of OTHER records go on past it. Entries of
//   the same record wait behind it, so an update never overtakes its add. Nothing is ever dropped.
import { findDataKey } from './crypto.ts';
import { log } from './log.ts';
import { addRefusal, appliedVersion, getReplaySession, listRefusals, noteApplied, openEntry, outboxDatabase, pendingCount, type Entry, type OutboxOp, type Refusal } from './outbox.ts';

/** Failures of one entry after which it stops holding up the others. */
export const STUCK_AFTER = 5;
export const MAX_BACKOFF_MS = 15 * 60_000;
const FIRST_BACKOFF_MS = 10_000;

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

// Without Web Locks (older browsers) two drains in one context would still send the same entries
// twice; queueing them on a promise chain at least serialises this context.
let localTail: Promise<unknown> = Promise.resolve();

export async function withOutboxLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks) return locks.request('eddy-outbox', fn) as Promise<T>;
  const run = localTail.then(fn);
  localTail = run.catch(() => undefined);
  return run;
}

const docKey = (op: Pick<OutboxOp, 'collection' | 'docId'>) => `${op.collection}|${op.docId}`;

interface Answer {
  status: number;
  json: Record<string, unknown>;
  timedOut: boolean;
}

async function send(op: OutboxOp, session: { token: string; deviceId: string }, opts: DrainOptions): Promise<Answer> {
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
      body: JSON.stringify({ ...op.body, mutationId: op.mutationId }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: res.status, json, timedOut: false };
  } catch (err) {
    const timedOut = err instanceof DOMException ? err.name === 'TimeoutError' : (err as { name?: string } | null)?.name === 'TimeoutError';
    return { status: 0, json: {}, timedOut };
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
    const db = outboxDatabase();
    const now = opts.now ?? Date.now;
    const result: DrainResult = { sent: [], rejected: [], kept: 0, stuck: 0, unauthorized: false };
    const key = await findDataKey();
    const session = await getReplaySession();
    if (!key || !session) {
      result.kept = await pendingCount();
      return result;
    }
    const entries = await db.entries.orderBy('seq').toArray();
    const ops = await Promise.all(entries.map((e) => openEntry(key, e)));
    // Records with a refusal the patient has not resolved: what follows waits with it.
    const refusedDocs = new Set((await listRefusals()).map((r) => docKey(r.op)));
    // Records held up in this drain (a stuck or paused entry): later entries of theirs must wait.
    const waitingDocs = new Set<string>();

    const keep = async (entry: Entry, patch: Partial<Entry>) => db.entries.update(entry.seq as number, patch);

    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as Entry;
      const op = ops[i];
      if (!op) {
        log.warn('Outbox entry that no longer decrypts dropped');
        await db.entries.delete(entry.seq as number);
        continue;
      }
      const doc = docKey(op);
      if (refusedDocs.has(doc)) {
        await addRefusal(key, { op, status: 0, message: '', at: now() });
        await db.entries.delete(entry.seq as number);
        continue;
      }
      if (waitingDocs.has(doc) || (entry.nextAttemptAt !== undefined && entry.nextAttemptAt > now())) {
        waitingDocs.add(doc);
        if (entry.attempts >= STUCK_AFTER) result.stuck++;
        result.kept++;
        continue;
      }
      const answer = await send(await onOwnVersion(op, doc), session, opts);
      const { status } = answer;
      if (status >= 200 && status < 300) {
        await db.entries.delete(entry.seq as number);
        result.sent.push(op);
        const version = answeredVersion(answer.json);
        if (version !== undefined) await noteApplied(doc, version);
      } else if (isFinalRefusal(status)) {
        await addRefusal(key, refusalOf(op, status, answer.json, now()));
        await db.entries.delete(entry.seq as number);
        refusedDocs.add(doc);
        result.rejected.push({ op, status, message: typeof answer.json['message'] === 'string' ? answer.json['message'] : '' });
      } else if (status === 401) {
        result.unauthorized = true;
        result.kept += entries.length - i;
        break;
      } else if (status === 0 && !answer.timedOut) {
        // No answer at all: the device (or the server) is offline. Not this entry's fault.
        result.kept += entries.length - i;
        break;
      } else {
        const attempts = entry.attempts + 1;
        if (attempts < STUCK_AFTER) {
          await keep(entry, { attempts });
          result.kept += entries.length - i;
          break;
        }
        log.warn(`Outbox entry failed ${attempts} times (status ${status}); retried later, the others go on`);
        await keep(entry, { attempts, nextAttemptAt: now() + backoffMs(attempts) });
        waitingDocs.add(doc);
        result.stuck++;
        result.kept++;
      }
    }
    return result;
  });
}

/**
 * A versioned write (an update or delete stating `baseVersion`) as it goes out: based on at least
 * the version of this device's last applied write of the same record. It was made on the device on
 * top of that write, whether or not a pull had brought the write's version back when it was queued
 * (a write made right after another, or queued while the drain was sending the first). A repeat of
 * an entry already applied carries its mutation id, so the server answers it with its first answer
 * whatever its base says.
 */
async function onOwnVersion(op: OutboxOp, doc: string): Promise<OutboxOp> {
  if (!op.versioned) return op;
  const base = typeof op.body['baseVersion'] === 'number' ? op.body['baseVersion'] : undefined;
  // The first meal times a device sets are a whole set, stated on no version (sync/profile-sync.ts).
  if (base === undefined && op.name === 'profile.setMealTimes') return op;
  const own = await appliedVersion(doc);
  if (own === undefined || (base !== undefined && base >= own)) return op;
  return { ...op, body: { ...op.body, baseVersion: own } };
}
