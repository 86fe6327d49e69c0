import { randomUUID } from 'node:crypto';
import { badRequest, conflict } from '../http/errors.ts';

/** How far ahead of the server's clock a device's timestamp may be (clock skew), DESIGN.md §3. */
export const MAX_FUTURE_MS = 5 * 60_000;
const EARLIEST = Date.UTC(1900, 0, 1);

/** The instant a measurement was taken: the device's time when given, else now. */
export function measurementTime(field: string, value: string | undefined, now = new Date()): Date {
  if (value === undefined) return now;
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) throw badRequest(`${field} must be a valid ISO date and time`);
  if (t.getTime() > now.getTime() + MAX_FUTURE_MS) throw badRequest(`${field} cannot be in the future`);
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

export function parseSince(since: string | undefined): Date | undefined {
  if (since === undefined) return undefined;
  const t = new Date(since);
  if (Number.isNaN(t.getTime())) throw badRequest('since must be a valid ISO date and time');
  return t;
}

/** An add whose `_id` already names another patient's record is refused without saying more. */
export function ownAdd<T>(result: T | 'foreign'): T {
  if (result === 'foreign') throw conflict('This _id is already in use. Generate a new id for a new record.');
  return result;
}
