// Which of two devices' changes of one record is the later, when both are sent again after a heal
// (docs/sync-protocol.md, "A restored server"). A change sent on a version is ordered by it (a
// stale base is a conflict the patient decides); a change sent again on none, after the device
// healed a restored server, has lost its version, and two devices heal in the order they come
// back, not in the order their patient made the changes. Each change of a record notes when it
// was made (`madeAt`, the device's clock, never later than the server's); one sent on no version
// whose record already holds a change made later is refused with 409 `superseded`, and nothing
// changes: the later change stays, whichever device healed last. A device's own earlier change
// never supersedes its later one (it sends them in the order made, whatever its clock said).
import { conflict } from '../http/errors.ts';
import { recordMadeRepo } from '../repositories/record-made.ts';
import { SUPERSEDED, SUPERSEDED_MESSAGE } from '../../schemas/history.ts';
import type { Db } from '../db/client.ts';

/** What a change says of itself: the version it was made on, and when. */
export interface MadeChange {
  baseVersion?: number | undefined;
  madeAt?: string | undefined;
  /** `<device>:<sequence>`: which device made it. */
  mutationId?: string | undefined;
}

/** The device a mutation id names (`<device>:<sequence>`), or null. */
export function deviceOf(change: MadeChange): string | null {
  const id = change.mutationId;
  const at = id?.lastIndexOf(':') ?? -1;
  return id !== undefined && at > 0 ? id.slice(0, at) : null;
}

/**
 * Whether `record` holds a change the device making `change` made itself (sent again ahead of it
 * after a heal, say). What a write on no version was made on (`madeOn`) is then no test of a
 * concurrent change: nobody else's change is in between, and the device's later change stands
 * (otherwise a device's own meal time sent again by its heal is taken for another device's change,
 * and its next change refused as a conflict with itself).
 */
export async function holdsOwnChange(db: Db, patientId: string, record: string, change: MadeChange): Promise<boolean> {
  const device = deviceOf(change);
  return device !== null && (await recordMadeRepo.deviceOf(db, patientId, record)) === device;
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
export async function noteChange(db: Db, patientId: string, record: string, change: MadeChange): Promise<boolean> {
  return (await noted(db, patientId, record, change)).noted;
}

function noted(db: Db, patientId: string, record: string, change: MadeChange) {
  const madeAt = instant(change.madeAt);
  return recordMadeRepo.note(db, patientId, record, madeAt, change.baseVersion === undefined && madeAt !== undefined, deviceOf(change));
}

/**
 * noteChange, refusing a change made before the one the record holds (409 superseded). `own`: the
 * record held a change of the same device (holdsOwnChange), read before this one was noted.
 */
export async function claimChange(db: Db, patientId: string, record: string, change: MadeChange): Promise<{ own: boolean }> {
  const { noted: made, before } = await noted(db, patientId, record, change);
  if (!made) throw supersededConflict();
  const device = deviceOf(change);
  return { own: device !== null && before?.device === device };
}

/** Notes a change made now, on the server (by staff): later than anything a device made before it. */
export async function noteMadeNow(db: Db, patientId: string, record: string): Promise<void> {
  await recordMadeRepo.note(db, patientId, record, undefined, false);
}
