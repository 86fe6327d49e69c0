// History marks (docs/sync-protocol.md, "A restored server"). A device asks, after each sync,
// whether the server still holds what it has seen: the mark it was given last, and the writes the
// server acknowledged to it since. A database restored from an earlier backup (or replaced) lacks
// one of them: the device then sends again what it has written and pulls everything once. Each
// check is answered with a new mark, committed after everything the device had seen, so the next
// check covers this one's history.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { historyMarkRepo } from '../repositories/history-marks.ts';
import type { HistoryCheck } from '../../schemas/history.ts';

/** How long a mark is kept: as long as the mutation ids it is checked with (services/mutations.ts). */
export const HISTORY_MARK_TTL_MS = 90 * 24 * 3600_000;

/**
 * A known mark younger than this, with no write acknowledged since, is answered again instead of a
 * new one: a device syncs after every change, and a row each time would grow the table by the
 * thousands a day per ward. What the device pulled in that minute is covered by the next mark.
 */
export const HISTORY_MARK_REUSE_MS = 60_000;

export async function checkHistory(db: Db, patientId: string, check: HistoryCheck, now = new Date()): Promise<{ known: boolean; mark: string }> {
  const seenAt = check.seen === undefined ? undefined : await historyMarkRepo.givenAt(db, patientId, check.seen);
  let known = check.seen === undefined || seenAt !== undefined;
  const acked = [...new Set(check.acked ?? [])];
  if (known && acked.length > 0) known = (await historyMarkRepo.appliedCount(db, patientId, acked)) === acked.length;
  if (known && acked.length === 0 && check.seen !== undefined && seenAt && now.getTime() - seenAt.getTime() < HISTORY_MARK_REUSE_MS)
    return { known, mark: check.seen };
  const mark = randomUUID();
  await historyMarkRepo.insert(db, patientId, mark);
  return { known, mark };
}
