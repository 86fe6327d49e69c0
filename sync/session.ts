// The patient session (docs/requirements.md §4): logged out → logged in once a token is received (local data of
// any previous user is wiped first, the same patient's is kept); back to logged out on logout, on a
// 401, or when the periodic check (every 30 minutes) finds the token invalid. The token itself
// lives only sealed (see vault).
//
// Only a logout the patient asked for (and confirmed when entries were unsent) wipes the device. A
// session that ends by itself (401, expiry, the periodic check) LOCKS it: the token goes, the sealed
// database, outbox and key stay for the same patient's next login (docs/sync-protocol.md). The
// server renews an active session (sliding, within a hard maximum); the periodic check keeps the
// stored expiry in step.
import type { ApiClient } from './api-client.ts';
import { ApiError } from './api-client.ts';
import { patientAuthApi } from './auth-api.ts';
import { inBackground } from './background.ts';
import { log } from './log.ts';

export const VALIDATE_EVERY_MS = 30 * 60_000;

export interface StoredSession {
  token: string;
  hospNo: string;
  /** ISO time the server gave; the session is over after it even without a 401. */
  expiresAt: string | undefined;
}

/** Where the session is kept between visits: sealed, never in plain form (sync/storage/secure-storage.ts). */
export interface SessionVault {
  load(): Promise<StoredSession | undefined>;
  save(session: StoredSession): Promise<void>;
  clear(): Promise<void>;
}

export type SessionState = { status: 'unknown' } | { status: 'logged-out' } | { status: 'logged-in'; session: StoredSession };

export type LoginInput =
  | { method: 'password'; hospNo: string; password: string }
  | { method: 'otp'; hospNo: string; otp: string }
  | { method: 'access-key'; hospNo: string; accessKey: string };

export interface PatientSessionOptions {
  api: ApiClient;
  vault: SessionVault;
  /** Destroys the local database, its key and the outbox: nothing of the user may remain. */
  wipeLocalData: () => Promise<void>;
  /** The session ended by itself: stop sending, keep what is sealed on the device. */
  lockLocalData?: () => Promise<void>;
  /**
   * Before a login is completed: keep the local data when it belongs to `hospNo`, otherwise clear it
   * (default: always wipe, docs/requirements.md §4 "stores are cleared first"). `session` is the one
   * the login is about to store.
   */
  prepareLocalData?: (hospNo: string, session: StoredSession) => Promise<void>;
  /** The session ended by itself (found at start-up or by the periodic check): the patient is told why they must log in. */
  onEnded?: () => void;
  /** Called after a token was received and stored, e.g. to hand it to the outbox for replay. */
  onLoggedIn?: (session: StoredSession) => Promise<void>;
  now?: () => number;
}

/**
 * A password login with a temporary password that staff set (issue 48): the server's session may
 * only change it (403 password-change-required everywhere else). The login form asks for the
 * patient's own password with `session.token`, then calls completeLogin(session).
 */
export class PasswordChangeRequired extends Error {
  readonly session: StoredSession;
  constructor(session: StoredSession) {
    super('You logged in with a temporary password. Choose your own password first.');
    this.name = 'PasswordChangeRequired';
    this.session = session;
  }
}

export function createPatientSession(opts: PatientSessionOptions) {
  let state: SessionState = { status: 'unknown' };
  const listeners = new Set<(s: SessionState) => void>();
  const now = opts.now ?? Date.now;
  const auth = patientAuthApi(opts.api);
  let timer: ReturnType<typeof setInterval> | undefined;

  const set = (next: SessionState) => {
    state = next;
    for (const l of listeners) l(state);
  };

  const isExpired = (s: StoredSession) => s.expiresAt !== undefined && Date.parse(s.expiresAt) <= now();

  async function endLocally(): Promise<void> {
    stopValidation();
    await opts.vault.clear();
    await opts.wipeLocalData();
    set({ status: 'logged-out' });
  }

  /** A session that ended by itself: logged out, the sealed local data kept for the same patient. */
  async function lock(): Promise<void> {
    stopValidation();
    await opts.vault.clear();
    await (opts.lockLocalData ?? opts.wipeLocalData)();
    set({ status: 'logged-out' });
  }

  async function login(input: LoginInput): Promise<StoredSession> {
    if (input.method === 'password') {
      const res = await auth.loginWithPassword({ hospNo: input.hospNo, password: input.password });
      const session: StoredSession = { token: res.token, hospNo: input.hospNo, expiresAt: res.expiresAt };
      // A temporary password: the session may only change it. Nothing of the device is touched until then.
      if (res.mustChangePassword === true) throw new PasswordChangeRequired(session);
      return completeLogin(session);
    }
    const res = await auth.login(input.method === 'otp' ? { hospNo: input.hospNo, otp: input.otp } : { hospNo: input.hospNo, accessKey: input.accessKey });
    return completeLogin({ token: res.token, hospNo: input.hospNo, expiresAt: res.expiresAt });
  }

  /** A session the server opened (a login, or a temporary password changed since): the device logs in with it. */
  async function completeLogin(session: StoredSession): Promise<StoredSession> {
    // Stores are cleared first, then the new user's data is fetched (docs/requirements.md §4); a patient locked out
    // by an ended session finds their own unsent entries still there.
    await (opts.prepareLocalData ?? (() => opts.wipeLocalData()))(session.hospNo, session);
    await opts.vault.save(session);
    await opts.onLoggedIn?.(session);
    set({ status: 'logged-in', session });
    return session;
  }

  /** The server's word on a token: valid (with the end it now gives), invalid, ended (401), or none. */
  async function verdictOf(token: string): Promise<{ expiresAt: string | undefined } | 'invalid' | 'unauthorized' | 'unreachable'> {
    try {
      // The answer is not checked on the device (a proxy's page, a cut body): only the server's
      // explicit "no" ends a session, and an answer without a verdict is no answer.
      const res: { valid?: unknown; expiresAt?: string } = await auth.validate(token);
      if (res.valid === true) return { expiresAt: res.expiresAt };
      return res.valid === false ? 'invalid' : 'unreachable';
    } catch (err) {
      return err instanceof ApiError && err.status === 401 ? 'unauthorized' : 'unreachable';
    }
  }

  /**
   * A session that ended by itself, found at start-up or by the periodic check: locked, and said.
   * Why is logged (never the token): a patient sent back to the login page is a support call.
   */
  async function ended(why: string): Promise<void> {
    log.warn('Session ended', { why });
    await lock();
    opts.onEnded?.();
  }

  /**
   * Start-up: a stored, unexpired session logs the user in again, also offline. One the device's
   * clock calls expired is put to the server when it answers (a clock set ahead must not end a
   * session early); ended, the device locks and says so, never silently.
   */
  async function restore(): Promise<SessionState> {
    const stored = await opts.vault.load().catch(() => undefined);
    if (!stored) set({ status: 'logged-out' });
    else if (!isExpired(stored)) set({ status: 'logged-in', session: stored });
    else {
      const verdict = await verdictOf(stored.token);
      if (typeof verdict === 'object') {
        const session = verdict.expiresAt ? { ...stored, expiresAt: verdict.expiresAt } : stored;
        if (session !== stored) await opts.vault.save(session);
        set({ status: 'logged-in', session });
      } else {
        await ended(`at start-up: expired by this device's clock (${stored.expiresAt ?? 'no end'}), and the server answered ${verdict}`);
      }
    }
    return state;
  }

  // The token being revoked by logout(): only the logout call itself still needs it.
  let leavingToken: string | undefined;

  async function logout(): Promise<void> {
    // Logged out before the server is told: calls still in flight (e.g. the first sync after login)
    // then answer 401 once the token is revoked, and a 401 while logged out is not "Session Expired".
    if (state.status === 'logged-in') leavingToken = state.session.token;
    stopValidation();
    set({ status: 'logged-out' });
    try {
      await auth.logout().catch(() => undefined);
    } finally {
      leavingToken = undefined;
    }
    await endLocally();
  }

  /**
   * One periodic check. Invalid → logged out. No answer → still logged in (the ward's Wi-Fi is
   * down, not the session); the caller marks the app offline.
   */
  async function validate(): Promise<'valid' | 'invalid' | 'unreachable'> {
    if (state.status !== 'logged-in') return 'invalid';
    const { session } = state;
    const verdict = await verdictOf(session.token);
    if (state.status !== 'logged-in' || state.session.token !== session.token) return 'invalid';
    if (typeof verdict === 'object') {
      await renewed(verdict.expiresAt);
      return 'valid';
    }
    // A 401 is handled where every 401 is (the API client's handler locks and says so).
    if (verdict === 'unauthorized') return 'invalid';
    // No answer: the ward's Wi-Fi is down, not the session, unless the device's clock says it ended.
    if (verdict === 'unreachable' && !isExpired(session)) return 'unreachable';
    await ended(
      verdict === 'invalid' ? 'the server calls the token invalid' : `no answer, and expired by this device's clock (${session.expiresAt ?? 'no end'})`,
    );
    return 'invalid';
  }

  /** The server slid the session's end on: keep the stored expiry in step. */
  async function renewed(expiresAt: string | undefined): Promise<void> {
    if (state.status !== 'logged-in' || !expiresAt || expiresAt === state.session.expiresAt) return;
    const session = { ...state.session, expiresAt };
    await opts.vault.save(session);
    if (state.status === 'logged-in' && state.session.token === session.token) set({ status: 'logged-in', session });
  }

  function startValidation(onUnreachable?: () => void): void {
    stopValidation();
    timer = setInterval(() => {
      inBackground(
        validate().then((r) => {
          if (r === 'unreachable') onUnreachable?.();
        }),
        'Session check failed',
      );
    }, VALIDATE_EVERY_MS);
  }

  function stopValidation(): void {
    if (timer) clearInterval(timer);
    timer = undefined;
  }

  return {
    get state() {
      return state;
    },
    subscribe(listener: (s: SessionState) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    token: () => (state.status === 'logged-in' ? state.session.token : leavingToken),
    login,
    completeLogin,
    restore,
    logout,
    /** A 401 from any call: the session is over here too; the device locks, keeping unsent entries. */
    expire: lock,
    validate,
    startValidation,
    stopValidation,
  };
}

export type PatientSession = ReturnType<typeof createPatientSession>;
