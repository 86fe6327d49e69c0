import { errorCause, errorCode } from './errors.ts';

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/** The error with that SQLSTATE: the error itself or a driver error Drizzle wrapped in it. */
function withCode(err: unknown, code: string): DriverError | undefined {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = errorCause(e), depth++) {
    if (errorCode(e) === code) return e;
  }
  return undefined;
}

/** True when the error (or the driver error Drizzle wrapped) is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const x = withCode(err, '23505');
  if (!x) return false;
  return constraint === undefined || x.constraint === constraint || String(x.message).includes(constraint);
}

/** True when the database broke a deadlock by failing this statement (SQLSTATE 40P01). */
export function isDeadlock(err: unknown): boolean {
  return withCode(err, '40P01') !== undefined;
}

/** How many times a write the database failed to break a deadlock is run in all. */
export const DEADLOCK_ATTEMPTS = 4;

/**
 * Runs `run` again while the database fails it to break a deadlock (its transaction rolled back
 * whole, so running it again is safe), up to DEADLOCK_ATTEMPTS runs. Several copies of one write
 * sent at once can meet in a deadlock more than once (CI, PostgreSQL, 8 copies).
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DEADLOCK_ATTEMPTS) throw err;
    }
  }
}
