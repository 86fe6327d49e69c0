// Stated conflicts for one-person records (docs/sync-protocol.md): a glucose reading, lab test or
// appointment edited on a version that has moved on is refused with 409 {message, current}, so a
// stale edit never silently reverts a newer one; an edit that changes nothing is accepted as is.
import type { Db } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';

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

/** True when writing `values` would leave the row as it is (instants compared by time). */
export function sameValues(row: object, values: object): boolean {
  const current = new Map<string, unknown>(Object.entries(row));
  return Object.entries(values).every(([key, value]) => {
    const now = current.get(key);
    if (value instanceof Date && now instanceof Date) return value.getTime() === now.getTime();
    return value === now;
  });
}

/**
 * Updates the patient's row under its lock. Without `baseVersion` the spec's rules apply (a
 * deleted or unknown row is 404). With it: a deleted row is 409 with current null; a row whose
 * version moved past `baseVersion` is 409 with the current row, unless the values are the same.
 * `values` may be a function of the locked row, for a field whose new value depends on the old one.
 */
export async function guardedUpdate<Row extends VersionedRow, Insert, Dto>(
  db: Db,
  repo: LockingRepo<Row, Insert>,
  target: { patientId: string; id: string; baseVersion: number | undefined },
  valuesOf: Partial<Insert> | ((current: Row) => Partial<Insert>),
  dto: (row: Row) => Dto,
  words: ConflictWords,
): Promise<Row> {
  const current = await repo.lockOwn(db, target.patientId, target.id);
  if (!current) throw notFound(words.notFound);
  const values = typeof valuesOf === 'function' ? valuesOf(current) : valuesOf;
  if (target.baseVersion !== undefined) {
    if (current.deletedAt !== null) throw conflict(words.deleted, { current: null });
    if (current.version > target.baseVersion) {
      if (sameValues(current, values)) return current;
      throw conflict(words.changed, { current: dto(current) });
    }
  }
  const row = await repo.updateOwn(db, target.patientId, target.id, values);
  if (!row) throw notFound(words.notFound); // deleted, and no baseVersion: as the spec answers
  return row;
}

/**
 * Soft-deletes the patient's row under its lock. Deleting a deleted row is accepted (a repeat);
 * with `baseVersion`, a live row that moved on since is 409 with the current row.
 */
export async function guardedDelete<Row extends VersionedRow, Insert, Dto>(
  db: Db,
  repo: LockingRepo<Row, Insert>,
  target: { patientId: string; id: string; baseVersion: number | undefined },
  dto: (row: Row) => Dto,
  words: ConflictWords,
): Promise<void> {
  const current = await repo.lockOwn(db, target.patientId, target.id);
  if (!current) throw notFound(words.notFound);
  if (current.deletedAt !== null) return;
  if (target.baseVersion !== undefined && current.version > target.baseVersion) throw conflict(words.changedNotDeleted, { current: dto(current) });
  await repo.softDeleteOwn(db, target.patientId, target.id);
}
