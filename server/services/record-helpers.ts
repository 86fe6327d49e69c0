import { randomUUID } from 'node:crypto';
import { PULL_LIMIT_DEFAULT } from '../../schemas/common.ts';
import type { Db } from '../db/client.ts';
import { badRequest, conflict } from '../http/errors.ts';
import type { Changes, Pull } from '../repositories/synced-records.ts';

/** How far ahead of the server's clock a device's timestamp may be (clock skew), DESIGN.md §3. */
export const MAX_FUTURE_MS = 5 * 60_000;
const EARLIEST = Date.UTC(1900, 0, 1);

/** The instant a measurement was taken: the device's time when given, else now. */
export function measurementTime(field: string, value: string | undefined, now = new Date()): Date {
  if (value === undefined) return now;
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) throw badRequest(`${field} must be a valid ISO date and time`);
  if (t.getTime() > now.getTime() + MAX_FUTURE_MS) throw badRequest(`${field} cannot be in the future: check the date and time of the device`);
  if (t.getTime() < EARLIEST) throw badRequest(`${field} is too far in the past`);
  return t;
}

/** Any calendar instant (appointments may be in the future). */
export function calendarTime(field: string, value: string): Date {
  const t = new Date(value);
  if (Number.isNaN(t.getTime()) || t.getTime() < EARLIEST || t.getTime() > Date.UTC(2200, 0, 1)) throw badRequest(`${field} must be a valid ISO date and time`);
  return t;
}

export const recordId = (clientId: string | undefined): string => clientId ?? randomUUID();

/** A list GET's `?since=`: an instant (older devices) or a version with the page size. */
export type Since = { at: Date } | { version: number; limit: number };

const VERSION = /^[0-9]{1,15}$/;

export function parseSince(since: string | undefined, limit?: number): Since | undefined {
  if (since === undefined) return undefined;
  if (VERSION.test(since)) return { version: Number(since), limit: limit ?? PULL_LIMIT_DEFAULT };
  const t = new Date(since);
  if (Number.isNaN(t.getTime())) throw badRequest('since must be a valid ISO date and time or a version number');
  return { at: t };
}

interface SyncedReads<Row> {
  listChanges(db: Db, patientId: string, since?: Date): Promise<Changes<Row>>;
  pullSince(db: Db, patientId: string, since: number, limit: number): Promise<Pull<Row>>;
}

/**
 * A record list in its usual `shape`: everything live; with an ISO `since` the changes and
 * `deleted`; with a version `since` one page of changes with `deleted`, `checkpoint` and `next`.
 */
export async function listSynced<Row, Shape extends object>(db: Db, repo: SyncedReads<Row>, patientId: string, since: Since | undefined, shape: (rows: Row[]) => Shape) {
  if (since && 'version' in since) {
    const { rows, deleted, checkpoint, next } = await repo.pullSince(db, patientId, since.version, since.limit);
    return { ...shape(rows), deleted, checkpoint, ...(next !== undefined ? { next } : {}) };
  }
  const { rows, deleted } = await repo.listChanges(db, patientId, since?.at);
  return { ...shape(rows), ...(since ? { deleted } : {}) };
}

/** An add whose `_id` already names another patient's record is refused without saying more. */
export function ownAdd<T>(result: T | 'foreign'): T {
  if (result === 'foreign') throw conflict('This _id is already in use. Generate a new id for a new record.');
  return result;
}
