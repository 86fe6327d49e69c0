// How long a patient stays logged in. A session in use slides forward (so an active patient is
// never logged out with writes unsent), within a hard maximum from the moment they logged in, and
// never past the access key a session was opened with.

/** A new patient session, and each renewal, lasts this long from then. */
export const PATIENT_SESSION_MS = 7 * 24 * 3600_000;
/** The hard maximum: no patient session lasts longer than this from its login. */
export const PATIENT_SESSION_MAX_MS = 30 * 24 * 3600_000;
/** A session in use is renewed once less than this is left. */
export const PATIENT_SESSION_RENEW_BELOW_MS = 6 * 24 * 3600_000;
/** A renewal that would gain less than this is not written (at most one write an hour). */
const RENEW_MIN_GAIN_MS = 3600_000;

export interface RenewableSession {
  createdAt: Date;
  expiresAt: Date;
  accessKeyExpiresAt: Date | null;
}

/** The longest a session may run: its hard maximum, and the end of its access key if it had one. */
export function sessionLimit(s: Pick<RenewableSession, 'createdAt' | 'accessKeyExpiresAt'>): number {
  return Math.min(s.createdAt.getTime() + PATIENT_SESSION_MAX_MS, s.accessKeyExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
}

/** The new end of a patient session used at `now`, or undefined when it is not due for renewal. */
export function renewedExpiry(s: RenewableSession, now: Date): Date | undefined {
  if (s.expiresAt.getTime() - now.getTime() >= PATIENT_SESSION_RENEW_BELOW_MS) return undefined;
  const until = Math.min(now.getTime() + PATIENT_SESSION_MS, sessionLimit(s));
  return until - s.expiresAt.getTime() >= RENEW_MIN_GAIN_MS ? new Date(until) : undefined;
}
