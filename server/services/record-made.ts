// Which of two devices' changes of one record is the later, when both are sent again after a heal
// (docs/sync-protocol.md, "A restored server"). A change sent on a version is ordered by it (a
// stale base is a conflict the patient decides); a change sent again on none, after the device
// healed a restored server, has lost its version, and two devices heal in the order they come
// back, not in the order their patient made the changes. Each change of a record notes when it
// was made (`madeAt`, the device's clock, never later than the server's); one sent on no version
// whose record already holds a change made later is refused with 409 `superseded`, and nothing
// changes: the later change stays, whichever device healed last.
import { conflict } from '../http/errors.ts';
import { recordMadeRepo } from '../repositories/record-made.ts';
import { SUPERSEDED, SUPERSEDED_MESSAGE } from '../../schemas/history.ts';
import type { Db } from '../db/client.ts';

/** What a change says of itself: the version it was made on, and when. */
export interface MadeChange {
  baseVersion?: number | undefined;
  madeAt?: string | undefined;
}

export const supersededConflict = () => conflict(SUPERSEDED_MESSAGE, { code: SUPERSEDED });

const instant = (at: string | undefined): Date | undefined => {
  const time = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(time) ? undefined : new Date(time);
};

/**
 * Notes `change` as the one `record` holds, in the writing transaction; false, noting nothing, when
 * it goes on no version, says when it was made, and the record holds a change made after it. A
 * change that does not say (a client of the spec's API) is noted at the server's time and applies
 * as the spec says, whatever was noted before.
 */
export function noteChange(db: Db, patientId: string, record: string, change: MadeChange): Promise<boolean> {
  const madeAt = instant(change.madeAt);
  return recordMadeRepo.note(db, patientId, record, madeAt, change.baseVersion === undefined && madeAt !== undefined);
}

/** noteChange, refusing a change made before the one the record holds (409 superseded). */
export async function claimChange(db: Db, patientId: string, record: string, change: MadeChange): Promise<void> {
  if (!(await noteChange(db, patientId, record, change))) throw supersededConflict();
}

/** Notes a change made now, on the server (by staff): later than anything a device made before it. */
export async function noteMadeNow(db: Db, patientId: string, record: string): Promise<void> {
  await recordMadeRepo.note(db, patientId, record, undefined, false);
}
