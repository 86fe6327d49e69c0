// The staff session (docs/requirements.md §4 "Admin session"): an admin logged in with e-mail and password, or a
// doctor who entered with a doctor token the server verified. Either way the token is the bearer of
// every staff call; it lives only sealed (vault), 24 hours at most (docs/requirements.md §9 admin items). A 401, a
// failed doctor check, the expiry or a logout end the session and clear the admin store.
import { ApiError, type ApiClient } from './api-client.ts';
import { staffAuthApi } from './auth-api.ts';

export interface StaffHospital {
  _id: string;
  name: string;
  timeZone: string;
  /** A reading below this (mg/dL) alerts the staff who turned alerts on (absent in sessions from before). */
  severeLowMgDl?: number;
}

export interface StoredStaff {
  token: string;
  role: 'admin' | 'doctor';
  name: string;
  email?: string | undefined;
  hospitals: StaffHospital[];
  /** ISO time after which the session is over even without a 401. */
  expiresAt: string;
}

export interface StaffVault {
  load(): Promise<StoredStaff | undefined>;
  save(staff: StoredStaff): Promise<void>;
  clear(): Promise<void>;
}

/** The second step of an admin's login: the authenticator's code, or a recovery code. */
export interface SecondFactorInput {
  code?: string;
  recoveryCode?: string;
}

export interface AdminLogin {
  staff: StoredStaff;
  recoveryCodes: string[] | undefined;
  recoveryCodesLeft: number | undefined;
}

export type StaffState = { status: 'unknown' } | { status: 'logged-out' } | { status: 'logged-in'; staff: StoredStaff };

export const MSG_DOCTOR_INVALID = 'Invalid or expired doctor token. Contact admin.';

export function createStaffSession(opts: { api: ApiClient; vault: StaffVault; onEnded?: () => Promise<void>; now?: () => number }) {
  let state: StaffState = { status: 'unknown' };
  const listeners = new Set<(s: StaffState) => void>();
  const now = opts.now ?? Date.now;
  const auth = staffAuthApi(opts.api);
  const set = (next: StaffState) => {
    state = next;
    for (const l of [...listeners]) l(state);
  };
  const isExpired = (s: StoredStaff) => Date.parse(s.expiresAt) <= now();

  async function end(): Promise<void> {
    await opts.vault.clear();
    await opts.onEnded?.();
    set({ status: 'logged-out' });
  }

  async function begin(staff: StoredStaff): Promise<StoredStaff> {
    // Whatever an earlier staff member left on this device goes first.
    if (state.status === 'logged-in') await end();
    await opts.vault.save(staff);
    set({ status: 'logged-in', staff });
    return staff;
  }

  return {
    get state() {
      return state;
    },
    subscribe(listener: (s: StaffState) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    token: () => (state.status === 'logged-in' ? state.staff.token : undefined),
    /**
     * An admin's login; `second` is the second factor where the server asked for one (issue 48). A
     * login that set the authenticator up answers the recovery codes (shown once, never stored); one
     * made with a recovery code, how many are left.
     */
    async loginAdmin(email: string, password: string, second: SecondFactorInput = {}): Promise<AdminLogin> {
      const res = await auth.loginAdmin({ email, password, ...second });
      const staff = await begin({
        token: res.token,
        role: 'admin',
        name: res.admin.name,
        email: res.admin.email,
        hospitals: res.admin.hospitals,
        expiresAt: res.expiresAt,
      });
      return { staff, recoveryCodes: res.recoveryCodes, recoveryCodesLeft: res.recoveryCodesLeft };
    },
    /**
     * A session the server opened another way (issue 48: a sign-in through the hospital's identity
     * provider, whose calls live with its page, off the login route's budget), begun here as any other.
     */
    adopt: begin,
    /** Starts setting up the admin's authenticator app: its secret, otpauth:// URI and QR code. */
    mfaSetup: (email: string, password: string) => auth.mfaSetup({ email, password }),
    /** Verifies a doctor token (docs/requirements.md §5 "The doctor token must verify"); a failure clears the doctor session. */
    async loginDoctor(token: string): Promise<StoredStaff> {
      try {
        const res = await auth.verifyDoctorToken(token);
        const adminDay = new Date(now() + 24 * 3600_000).toISOString();
        const expiresAt = res.doctor.expiresAt < adminDay ? res.doctor.expiresAt : adminDay;
        return await begin({ token, role: 'doctor', name: res.doctor.name, hospitals: res.doctor.hospitals, expiresAt });
      } catch (err) {
        if (state.status === 'logged-in' && state.staff.role === 'doctor') await end();
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw new ApiError(err.status, MSG_DOCTOR_INVALID);
        throw err;
      }
    },
    async restore(): Promise<StaffState> {
      const stored = await opts.vault.load().catch(() => undefined);
      if (!stored) set({ status: 'logged-out' });
      else if (isExpired(stored)) await end();
      else set({ status: 'logged-in', staff: stored });
      return state;
    },
    async logout(): Promise<void> {
      const token = state.status === 'logged-in' ? state.staff.token : undefined;
      // Logged out here first: calls still in flight may come back 401 once the server forgets the token.
      await end();
      if (token) await auth.logout(token).catch(() => undefined);
    },
    /** A 401 on any staff call: the admin store is cleared (docs/requirements.md §8). */
    expire: end,
  };
}

export type StaffSession = ReturnType<typeof createStaffSession>;
