import { randomUUID } from 'node:crypto';
import { isInTheFuture, PULL_LIMIT_DEFAULT } from '../../schemas/common.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { badRequest, conflict } from '../http/errors.ts';
import { JsonText } from '../http/json-text.ts';
import type { JoinedChanges, PulledPage } from '../repositories/synced-records.ts';

const EARLIEST = Date.UTC(1900, 0, 1);

/** The instant a measurement was taken: the device's time when given, else now. */
export function measurementTime(field: string, value: string | undefined, now = new Date()): Date {
  if (value === undefined) return now;
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) throw badRequest(`${field} must be a valid ISO date and time`);
  if (isInTheFuture(t, now.getTime())) throw badRequest(`${field} cannot be in the future: check the date and time of the device`);
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

interface SyncedReads {
  name: string;
  listStamp(db: Db, patientId: string): Promise<string>;
  listChangesJson(db: Db, patientId: string, since?: Date): Promise<JoinedChanges>;
  pullSinceJson(db: Db, patientId: string, since: number, limit: number): Promise<PulledPage>;
}

/**
 * The arrays of a list answer, in order: each key with the rows of one group (a reading's type),
 * or with every row when the group is null.
 */
export type ListKeys = ReadonlyArray<readonly [key: string, group: string | null]>;

/**
 * A list GET's answer (docs/requirements.md §7, docs/sync-protocol.md): the live rows under their keys, and with
 * `since` the deleted ids (and, by version, the checkpoint and next page). The rows come from the
 * database as JSON text (repositories/json-view.ts) and are only joined here: a patient's 3,000
 * readings cost no Date, no object and no JSON.stringify per row.
 */
export async function listSynced(ctx: AppContext, repo: SyncedReads, patientId: string, since: Since | undefined, keys: ListKeys): Promise<JsonText> {
  if (since === undefined) return wholeList(ctx, repo, patientId, keys);
  const db = ctx.db;
  const parts: string[] = [];
  if ('version' in since) {
    const page = await repo.pullSinceJson(db, patientId, since.version, since.limit);
    parts.push(...joinGroups(page.groups, keys), `"deleted":${JSON.stringify(page.deleted)}`, `"checkpoint":${JSON.stringify(page.checkpoint)}`);
    if (page.next !== undefined) parts.push(`"next":${JSON.stringify(page.next)}`);
  } else {
    const { groups, deleted } = await repo.listChangesJson(db, patientId, since.at);
    parts.push(...joinGroups(groups, keys), `"deleted":${JSON.stringify(deleted)}`);
  }
  return new JsonText(`{${parts.join(',')}}`);
}

const joinGroups = (groups: Map<string | null, string>, keys: ListKeys) => keys.map(([key, group]) => `${JSON.stringify(key)}:[${groups.get(group) ?? ''}]`);

/** The whole list, from the cache when nothing changed since it was made (services/list-cache.ts). */
async function wholeList(ctx: AppContext, repo: SyncedReads, patientId: string, keys: ListKeys): Promise<JsonText> {
  const key = `${repo.name}:${patientId}`;
  const stamp = await repo.listStamp(ctx.db, patientId);
  const kept = ctx.lists.get(key, stamp);
  if (kept) return new JsonText(kept);
  const { groups } = await repo.listChangesJson(ctx.db, patientId);
  const body = Buffer.from(`{${joinGroups(groups, keys).join(',')}}`);
  ctx.lists.set(key, stamp, body);
  return new JsonText(body);
}

/** An add whose `_id` already names another patient's record is refused without saying more. */
export function ownAdd<T>(result: T | 'foreign'): T {
  if (result === 'foreign') throw conflict('This _id is already in use. Generate a new id for a new record.');
  return result;
}
