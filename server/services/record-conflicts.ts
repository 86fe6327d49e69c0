// Stated conflicts for one-person records (docs/sync-protocol.md): a glucose reading, lab test or
// appointment edited on a version that has moved on is refused with 409 {message, current}, so a
// stale edit never silently reverts a newer one; an edit that changes nothing is accepted as is. An
// edit on a version the record never had (a restored server) is refused with its own code. One
// sent on no version with what it was made on (`madeOn`: a write sent again after a heal) is a
// stated conflict when the record no longer holds that.
import type { Db } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';
import { BASE_VERSION_UNKNOWN } from '../../schemas/history.ts';

interface VersionedRow {
  version: number;
  deletedAt: Date | null;
}

interface LockingRepo<Row, Insert> {
  lockOwn(db: Db, patientId: string, id: string): Promise<Row | undefined>;
  updateOwn(db: Db, patientId: string, id: string, values: Partial<Insert>): Promise<Row | undefined>;
  softDeleteOwn(db: Db, patientId: string, id: string): Promise<boolean>;
}

/** What a person is told, per kind of record. */
export interface ConflictWords {
  notFound: string;
  /** The row changed after the device's base version; the edit was not applied. */
  changed: string;
  /** The row was deleted; the edit was not applied. */
  deleted: string;
  /** The row changed after the device's base version; the delete was not applied. */
  changedNotDeleted: string;
}

export const BASE_VERSION_UNKNOWN_MESSAGE =
  'This change was made on a version of the entry that the server does not have: its data was probably restored from an earlier backup. Keep yours to apply it to what the server has now.';

/**
 * A `baseVersion` above the version the record has now was never given for it: versions only grow,
 * and a device learns one from the server. The device's history is newer than the server's (a
 * restored or replaced database). Accepted, the write would land before the device's earlier
 * writes that the restore lost and that it sends again after its history check; refused with
 * BASE_VERSION_UNKNOWN, the device heals the server first (sync/drain.ts).
 */
export const baseUnknown = (baseVersion: number | undefined, current: { version: number }): boolean =>
  baseVersion !== undefined && baseVersion > current.version;

/** The refusal of such a write, with the record as the server has it (null: deleted). */
export const baseUnknownConflict = (current: unknown) => conflict(BASE_VERSION_UNKNOWN_MESSAGE, { code: BASE_VERSION_UNKNOWN, current });

/** True when writing `values` would leave the row as it is (instants compared by time). */
export function sameValues(row: object, values: object): boolean {
  const current = new Map<string, unknown>(Object.entries(row));
  return Object.entries(values).every(([key, value]) => {
    const now = current.get(key);
    if (value instanceof Date && now instanceof Date) return value.getTime() === now.getTime();
    return value === now;
  });
}

/** The record a write goes to, and what it was made on: a version, or (sent again after a heal) the record's values. */
export interface WriteTarget<Insert> {
  patientId: string;
  id: string;
  baseVersion: number | undefined;
  /**
   * The record's values as the device held them when the patient made the change, read only when
   * the write states no version (docs/sync-protocol.md, "What a write sent again was made on").
   */
  madeOn?: Partial<Insert> | undefined;
}

/**
 * A write sent again on no version after a heal lost the version it was made on, not what it was
 * made on. A record that no longer holds that was changed by someone else meanwhile (another
 * device, before or after the restore): a stated conflict, as a stale version is, never a silent
 * overwrite of that change: two devices that edited one reading offline after the database was
 * replaced must not have the one that heals second overwrite the other (docs/findings.md).
 */
const changedSinceMadeOn = <Insert>(target: WriteTarget<Insert>, current: object): boolean =>
  target.baseVersion === undefined && target.madeOn !== undefined && !sameValues(current, target.madeOn);

/**
 * Updates the patient's row under its lock. Without `baseVersion` the spec's rules apply (a
 * deleted or unknown row is 404), unless the write says what it was made on (`madeOn`): then a
 * deleted row is 409 with current null, and a row that no longer holds it is 409 with the current
 * row, unless the values are the same. With `baseVersion`: a deleted row is 409 with current null;
 * a row whose version moved past `baseVersion` is 409 with the current row, unless the values are
 * the same. `values` may be a function of the locked row, for a field whose new value depends on the old one.
 */
export async function guardedUpdate<Row extends VersionedRow, Insert, Dto>(
  db: Db,
  repo: LockingRepo<Row, Insert>,
  target: WriteTarget<Insert>,
  valuesOf: Partial<Insert> | ((current: Row) => Partial<Insert>),
  dto: (row: Row) => Dto,
  words: ConflictWords,
): Promise<Row> {
  const current = await repo.lockOwn(db, target.patientId, target.id);
  if (!current) throw notFound(words.notFound);
  const values = typeof valuesOf === 'function' ? valuesOf(current) : valuesOf;
  if (target.baseVersion !== undefined) {
    if (baseUnknown(target.baseVersion, current)) throw baseUnknownConflict(current.deletedAt === null ? dto(current) : null);
    if (current.deletedAt !== null) throw conflict(words.deleted, { current: null });
    if (current.version > target.baseVersion) {
      if (sameValues(current, values)) return current;
      throw conflict(words.changed, { current: dto(current) });
    }
  } else if (target.madeOn !== undefined) {
    if (current.deletedAt !== null) throw conflict(words.deleted, { current: null });
    if (changedSinceMadeOn(target, current) && !sameValues(current, values)) throw conflict(words.changed, { current: dto(current) });
  }
  const row = await repo.updateOwn(db, target.patientId, target.id, values);
  if (!row) throw notFound(words.notFound); // deleted, and no baseVersion: as the spec answers
  return row;
}

/**
 * Soft-deletes the patient's row under its lock. Deleting a deleted row is accepted (a repeat);
 * with `baseVersion`, a live row that moved on since is 409 with the current row, and so is one
 * that no longer holds what a removal on no version was made on (`madeOn`).
 */
export async function guardedDelete<Row extends VersionedRow, Insert, Dto>(
  db: Db,
  repo: LockingRepo<Row, Insert>,
  target: WriteTarget<Insert>,
  dto: (row: Row) => Dto,
  words: ConflictWords,
): Promise<void> {
  const current = await repo.lockOwn(db, target.patientId, target.id);
  if (!current) throw notFound(words.notFound);
  if (baseUnknown(target.baseVersion, current)) throw baseUnknownConflict(current.deletedAt === null ? dto(current) : null);
  if (current.deletedAt !== null) return;
  if (target.baseVersion !== undefined && current.version > target.baseVersion) throw conflict(words.changedNotDeleted, { current: dto(current) });
  if (changedSinceMadeOn(target, current)) throw conflict(words.changedNotDeleted, { current: dto(current) });
  await repo.softDeleteOwn(db, target.patientId, target.id);
}
