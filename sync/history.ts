// A restored server is healed by its devices (docs/sync-protocol.md, "A restored server").
//
// After each sync the device asks the server whether it still holds what the device has seen: the
// mark the server gave it last time, and the writes the server acknowledged since (POST
// /api/sync/history). A database restored from a backup taken before either, or replaced, does
// not. The device then sends again every write it has journaled (the outbox keeps what the server
// acknowledged for JOURNAL_KEEP_MS), ahead of what waits, each with its own mutation id: the server
// applies the ones it lacks and answers the others as repeats, so each is on the server exactly
// once. And it pulls everything once (a new epoch: sync/replication.ts), since the versions it had
// pulled up to belong to the history that is gone.
//
// The drain asks too, at once, when the server answers 404 to a change of a record it had
// acknowledged to this device (sync/drain.ts): an edit made after a restore, sent before any sync
// got to the check, would otherwise be refused as "not found" while its record's add waits in the
// journal (randomized fault runs, fault "restore"); when it answers 409 base-version-unknown (an
// edit on a version the restore lost); and before the first write it sends under a new session.
import type { Answer, historyAnswer } from '../schemas/api.ts';
import { HISTORY_ACKED_MAX, type HistoryCheck } from '../schemas/history.ts';
import { log } from './log.ts';
import { withOutboxLock } from './outbox-lock.ts';
import { ackedSince, readHistory, resendJournal, writeHistory } from './outbox.ts';

export type HistoryVerdict = 'intact' | 'healed';
export type HistoryAnswer = Answer<typeof historyAnswer>;

/**
 * Asks the server through `ask` (undefined: no answer) and heals it when its history went back.
 * `locked`: the caller holds the outbox lock (the drain); otherwise it is taken for the heal.
 * `session`: the digest of the session asking (sessionDigest), noted as checked.
 */
export async function checkHistoryWith(
  ask: (body: HistoryCheck) => Promise<HistoryAnswer | undefined>,
  locked: boolean,
  session?: string,
): Promise<HistoryVerdict | undefined> {
  const state = await readHistory();
  const { ids, top } = await ackedSince(state.fence, HISTORY_ACKED_MAX);
  const answer = await ask({ ...(state.mark ? { seen: state.mark } : {}), ...(ids.length > 0 ? { acked: ids } : {}) });
  if (!answer) return undefined;
  const checkedUnder = session ?? state.session;
  if (answer.known) {
    await writeHistory({ ...state, mark: answer.mark, fence: top, ...(checkedUnder ? { session: checkedUnder } : {}) });
    return 'intact';
  }
  const resent = locked ? await resendJournal() : await withOutboxLock(() => resendJournal());
  // The writes sent again are journaled anew when acknowledged, after `top`: the next check names them.
  await writeHistory({ mark: answer.mark, fence: top, epoch: crypto.randomUUID(), ...(checkedUnder ? { session: checkedUnder } : {}) });
  log.warn(`The server's history went back (a restored or replaced database): ${resent} acknowledged write(s) sent again, everything pulled once`);
  return 'healed';
}

/** What the page's check needs of its API client (sync/api-client.ts; the worker has none). */
export interface HistoryApi {
  post<T>(path: string, body?: unknown, ro?: { quiet?: boolean }): Promise<T>;
}

/** The page's check after a sync (sync/controller.ts); a failed request throws. */
export async function checkServerHistory(api: HistoryApi): Promise<HistoryVerdict> {
  return (await checkHistoryWith((body) => api.post<HistoryAnswer>('/sync/history', body, { quiet: true }), false)) ?? 'intact';
}

/** A digest of a session's token: which session the history was last checked under, not the token. */
export async function sessionDigest(token: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`eddy-history:${token}`)));
  return Array.from(hash.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}
