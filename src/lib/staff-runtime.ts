// The staff area's long-lived parts: its own API client (no device id, the chosen patient's
// X-Hosp-No, docs/requirements.md §6), the staff session and the choices a staff member makes (hospital, patient),
// all kept sealed in the secure store's admin namespace (category security, 24 h). Separate from
// the patient runtime: a patient token can never reach the staff area and the other way round.
import { msg } from '@lingui/core/macro';
import { createApiClient } from '../../sync/api-client.ts';
import { inBackground } from '../../sync/background.ts';
import { log } from '../../sync/log.ts';
import { secureStorage } from '../../sync/storage/secure-storage.ts';
import { createStaffSession, type StaffState, type StoredStaff } from '../../sync/staff-session.ts';
import { loaderActivity } from './ui/loader-store.ts';
import { toast } from './ui/toast-store.ts';

export interface StaffChoices {
  /** The hospital that scopes the users list. */
  hospitalId: string | undefined;
  /** The patient being reviewed: sent as X-Hosp-No (docs/requirements.md §3 persisted admin record userHospNo). */
  userHospNo: string | undefined;
}

/**
 * The staff area's parts, made once by the app (src/main.tsx) and reached through context
 * (runtime-context.tsx) and the router's context, as the patient's runtime is: a test makes its own.
 */
export function createStaffRuntime() {
  let choices: StaffChoices = { hospitalId: undefined, userHospNo: undefined };
  const choiceListeners = new Set<() => void>();
  let onExpired: () => void = () => undefined;

  function setChoices(patch: Partial<StaffChoices>): void {
    choices = { ...choices, ...patch };
    for (const l of [...choiceListeners]) l();
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- set() catches its own promise and logs a failed write ('Secure storage write failed'); the choice is in memory already
    void secureStorage.set('admin', 'choices', choices);
  }

  /**
   * The token a 401 has ended the session of. Ending it takes a moment (the vault, the offline copy),
   * and a report page has a dozen calls in flight: the first 401 ends the session and says so once,
   * and the calls made after it are not sent (issue 18: a revoked doctor token gave 16 failed
   * requests and eight notices).
   */
  let endedToken: string | undefined;

  const api = createApiClient({
    getToken: () => session.token(),
    getHospNo: () => choices.userHospNo,
    onActivity: loaderActivity(),
    isStopped: () => endedToken !== undefined && session.token() === endedToken,
    onUnauthorized: (token) => unauthorized(token),
  });

  /**
   * A 401 to a call (or to a screen's live stream) sent with `token`: the session on that token has
   * ended. One sent on an earlier session, or on none, says nothing of the one in use.
   */
  function unauthorized(token: string | undefined): void {
    const current = session.token();
    if (session.state.status !== 'logged-in' || current === undefined || current === endedToken || token !== current) return;
    endedToken = current;
    inBackground(
      session.expire().then(() => {
        toast({ type: 'error', text: msg`Session Expired. Please login again.` });
        onExpired();
      }),
      'Ending the expired staff session failed',
    );
  }

  const session = createStaffSession({
    api,
    vault: {
      load: () => secureStorage.get<StoredStaff>('admin', 'token'),
      async save(staff) {
        await secureStorage.set('admin', 'token', staff);
        await secureStorage.flush();
      },
      async clear() {
        secureStorage.clear('admin');
      },
    },
    async onEnded() {
      choices = { hospitalId: undefined, userHospNo: undefined };
      for (const l of [...choiceListeners]) l();
      // Alerts name patients: none is shown on this device once the session is over. The flag's
      // module (with Dexie) loads here, not with this runtime, which every page's first script
      // carries: imported at the top it put Dexie on the login route (bench: loginRouteGzipKb, 128 →
      // 159 KB; tests/e2e/login-route.spec.ts).
      await import('../../sync/storage/staff-alerts-flag.ts')
        .then(({ setStaffAlertsOn }) => setStaffAlertsOn(false))
        .catch((err: unknown) => log.error('Failed to turn the staff alerts off', err));
      // The patients this staff member opened leave the device with the session, whether or not a
      // report was opened since the page loaded (the cache's code loads only with the report).
      const { destroyStaffCache } = await import('../../sync/storage/staff-cache.ts');
      await destroyStaffCache().catch((err: unknown) => log.error('Failed to remove the staff offline cache', err));
    },
  });

  let restoring: Promise<StaffState> | undefined;

  async function restore(): Promise<StaffState> {
    const state = await session.restore();
    if (state.status === 'logged-in') {
      const saved = await secureStorage.get<StaffChoices>('admin', 'choices').catch(() => undefined);
      if (saved) choices = { hospitalId: saved.hospitalId, userHospNo: saved.userHospNo };
    }
    return state;
  }

  return {
    api,
    session,
    /** What a screen's live stream needs of the session (src/lib/live-changes.ts). */
    live: { getToken: () => session.token(), onUnauthorized: unauthorized },
    /** Start-up: the stored staff session, if any; every caller waits for the same restore. */
    ensureRestored: () => (restoring ??= restore()),
    getChoices: () => choices,
    subscribeChoices(listener: () => void): () => void {
      choiceListeners.add(listener);
      return () => choiceListeners.delete(listener);
    },
    chooseHospital: (hospitalId: string) => setChoices({ hospitalId }),
    choosePatient: (userHospNo: string | undefined) => setChoices({ userHospNo }),
    /** Where the app goes after a 401 ends the session (set by the router: /admin). */
    setOnExpired(fn: () => void) {
      onExpired = fn;
    },
  };
}

export type StaffRuntime = ReturnType<typeof createStaffRuntime>;
