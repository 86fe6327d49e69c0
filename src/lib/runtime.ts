// The app's one set of long-lived parts, wired together: API client → session → local database →
// replication. Screens reach them through useRuntime(); nothing else creates them.
import { msg } from '@lingui/core/macro';
import type { RxCollection } from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import { createApiClient, deviceId, MSG_RESPONSE_FAILED } from '../../sync/api-client.ts';
import { log } from '../../sync/log.ts';
import { clearOutbox, drainOutbox, pendingCount, setReplaySession } from '../../sync/outbox.ts';
import { clearInbox } from '../../sync/push-inbox.ts';
import type { PushTokenRecord } from '../../sync/push-subscription.ts';
import { markRefused } from '../../sync/refused.ts';
import type { Checkpoint, RestMapping } from '../../sync/replication.ts';
import { freshness, secureStorage } from '../../sync/secure-storage.ts';
import { createPatientSession, type SessionVault, type StoredSession } from '../../sync/session.ts';
import { createSyncStatus } from '../../sync/status.ts';
import type { EddyDatabase } from './db/database.ts';
import { i18n } from './i18n.ts';
import { OUTBOX_SYNC_TAG } from './pwa.ts';
import { lazyReminders } from './lazy-reminders.ts';
import { loaderActivity } from './ui/loader-store.ts';
import { toast, type ToastOptions } from './ui/toast-store.ts';

// The session token lives only sealed in the secure store (spec §9: user_token, category security).
const vault: SessionVault = {
  load: () => secureStorage.get<StoredSession>('user', 'token'),
  async save(session) {
    await secureStorage.set('user', 'token', session);
    await secureStorage.flush();
  },
  async clear() {
    secureStorage.clear('user');
  },
};

// Every request that is not a background sync shows the global loader while it runs.
const onActivity = loaderActivity();

// The time of the last full sync is kept (a timestamp, no patient data) so that after a reload the
// app can still say how old what it shows is.
const LAST_SYNC_KEY = 'eddy_last_sync';
const storedLastSync = typeof localStorage !== 'undefined' ? Number(localStorage.getItem(LAST_SYNC_KEY)) || undefined : undefined;
const status = createSyncStatus({ offline: typeof navigator !== 'undefined' && !navigator.onLine, lastSyncAt: storedLastSync });
status.subscribe(() => {
  const { lastSyncAt } = status.getSnapshot();
  if (lastSyncAt) localStorage.setItem(LAST_SYNC_KEY, String(lastSyncAt));
  else localStorage.removeItem(LAST_SYNC_KEY);
});
let onSessionExpired: () => void = () => undefined;

/** Any 401 (a call or a replayed write): the store is cleared and the patient goes to / (spec §8). */
function handleUnauthorized(): void {
  if (session.state.status !== 'logged-in') return;
  void session.expire().then(() => {
    toast({ type: 'error', text: msg`Session Expired. Please login again.` });
    onSessionExpired();
  });
}

const api = createApiClient({
  getToken: () => session.token(),
  getDeviceId: () => deviceId(),
  onActivity,
  onUnauthorized: handleUnauthorized,
});

// While writes wait (the server was unreachable), try again regularly: the browser may never fire
// 'online' when it was the server, not the network, that was gone.
const RETRY_MS = 10_000;
const IN_SYNC_TIMEOUT_MS = 30_000;
let retryTimer: ReturnType<typeof setInterval> | undefined;

let database: Promise<EddyDatabase> | undefined;

const reminders = lazyReminders(
  async () => {
    const [{ createReminders, browserRemindersEnv }, { createPushSubscriptions }] = await Promise.all([import('./reminders.ts'), import('../../sync/push-subscription.ts')]);
    const subscriptions = createPushSubscriptions({
      api,
      // The push token record is a security item of the secure store (user_fcmToken, 30 days, spec §9).
      store: {
        get: () => secureStorage.get<PushTokenRecord>('user', 'fcmToken'),
        set: (record) => secureStorage.set('user', 'fcmToken', record),
        remove: () => secureStorage.remove('user', 'fcmToken'),
      },
      registration: async () => navigator.serviceWorker?.getRegistration(),
      locale: () => i18n.locale,
    });
    return createReminders({ subscriptions, env: browserRemindersEnv(), notify: toast });
  },
  (err) => log.error('reminders could not be loaded', err),
);
let stopPushMessages: (() => void) | undefined;
/** Logout must not hang on a browser that never answers an unsubscribe. */
const FORGET_PUSH_TIMEOUT_MS = 3_000;

/** Asks the browser to wake the service worker when the network returns (Background Sync). */
async function registerBackgroundReplay(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
  await sync?.register(OUTBOX_SYNC_TAG).catch(() => undefined);
}
let replications: RxReplicationState<unknown, Checkpoint>[] = [];

async function openDatabase(): Promise<EddyDatabase> {
  // RxDB and the encryption load only after login (login route budget, DESIGN.md §4).
  database ??= import('./db/database.ts').then((m) => m.openEddyDatabase());
  return database;
}

async function wipeLocalData(): Promise<void> {
  await Promise.all(replications.map((r) => r.cancel()));
  replications = [];
  await clearOutbox();
  await clearInbox();
  // The browser's subscription goes too: the next patient on this device must not get these reminders.
  await Promise.race([
    reminders.forget().catch((err: unknown) => log.warn('push subscription not dropped', err)),
    new Promise((resolve) => setTimeout(resolve, FORGET_PUSH_TIMEOUT_MS)),
  ]);
  const { destroyEddyDatabase } = await import('./db/database.ts');
  const open = database;
  database = undefined;
  // Destroys the data key too: whatever is left on disk can no longer be read.
  await destroyEddyDatabase(open ? await open : {});
  status.update({ lastSyncAt: undefined, pending: 0 });
}

const session = createPatientSession({
  api,
  vault,
  wipeLocalData,
  onLoggedIn: (s) => setReplaySession({ token: s.token, deviceId: deviceId() }),
});

let draining: Promise<void> | undefined;
// A write made while a sync runs may have missed that sync's drain: it gets one more right after,
// instead of waiting for the retry timer.
let drainAgain = false;
/** Sends what the outbox holds, then refreshes from the server. Reports the result once done. */
function syncNow(opts: { announce: boolean; refresh?: boolean }): Promise<void> {
  if (draining) {
    drainAgain = true;
    return draining;
  }
  draining = (async () => {
    try {
      const result = await drainOutbox();
      // A write the server refused for good (e.g. a duplicate) is reported, not silently dropped.
      for (const r of result.rejected) {
        toast({ type: 'error', text: r.message || MSG_RESPONSE_FAILED });
        if (r.op.kind === 'add') markRefused(r.op.collection, r.op.docId);
      }
      if (result.unauthorized) return handleUnauthorized();
      if (result.kept > 0) {
        status.update({ offline: true, pending: await pendingCount() });
        // If the tab is closed before the network returns, the service worker replays the outbox.
        await registerBackgroundReplay();
        return;
      }
      const wasOffline = status.getSnapshot().offline;
      // Replications that have just started pull by themselves: asking again would pull twice.
      if (opts.refresh !== false) await Promise.all(replications.map((r) => r.reSync()));
      // A replication whose pulls keep failing never gets in sync; without a limit this drain would
      // never end and no later write would be sent. It counts as not synchronized: try again later.
      const inSync = await Promise.race([
        Promise.all(replications.map((r) => r.awaitInSync())).then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), IN_SYNC_TIMEOUT_MS)),
      ]);
      if (!inSync) {
        log.warn('replication did not get in sync; retrying later');
        return;
      }
      status.update({ offline: false, lastSyncAt: Date.now(), pending: await pendingCount() });
      if (opts.announce || wasOffline) toast({ type: 'success', text: msg`Data synchronized successfully` });
    } catch (err) {
      log.warn('sync failed', err);
    } finally {
      draining = undefined;
      if (drainAgain) {
        drainAgain = false;
        void syncNow({ announce: false });
      }
    }
  })();
  return draining;
}

async function startSync(owner: StoredSession): Promise<void> {
  if (replications.length > 0) return;
  const db = await openDatabase();
  // Replication pulls in RxDB's replication plugin: loaded with the database, after login.
  const [{ replicate }, m] = await Promise.all([import('../../sync/replication.ts'), import('./sync-mappings.ts')]);
  await setReplaySession({ token: owner.token, deviceId: deviceId() });
  const afterPush = () => void syncNow({ announce: false });
  const start = <D extends { _id: string; updatedAt?: string }>(collection: RxCollection<D>, mapping: RestMapping<D>) =>
    replicate({ collection, mapping, api, owner: owner.hospNo, afterPush }) as unknown as RxReplicationState<unknown, Checkpoint>;
  replications = [
    start(db.glucose, m.glucoseMapping),
    start(db.symptoms, m.symptomMapping),
    start(db.appointments, m.appointmentMapping),
    start(db.labTests, m.labTestMapping),
    start(db.medicines, m.medicineMapping),
    start(db.medicineIntakes, m.medicineIntakeMapping),
    start(db.profile, m.profileMapping),
    start(db.symptomReference, m.symptomReferenceMapping),
    start(db.labTestReference, m.labTestReferenceMapping),
  ];
  for (const r of replications) r.error$.subscribe((err) => log.warn('replication error', err));
  session.startValidation(() => status.update({ offline: true }));
  retryTimer ??= setInterval(() => {
    const { offline, pending, lastSyncAt } = status.getSnapshot();
    // Medical data is refreshed once it is 10 minutes old (spec §9 cache lifetimes).
    const stale = lastSyncAt === undefined || freshness(lastSyncAt, 'medical') !== 'fresh';
    if ((offline || pending > 0 || stale) && navigator.onLine) void syncNow({ announce: false });
  }, RETRY_MS);
  status.update({ pending: await pendingCount() });
  void syncNow({ announce: false, refresh: false });
  void startReminders(db, owner);
}

/** Reminder pushes: the inbox the worker fills, its messages, then the subscription (spec §4). */
async function startReminders(db: EddyDatabase, owner: StoredSession): Promise<void> {
  try {
    const { startPushMessages } = await import('./push-messages.ts');
    // Logged out (or started already) while the module loaded.
    if (session.state.status !== 'logged-in' || session.state.session.token !== owner.token || stopPushMessages) return;
    stopPushMessages = startPushMessages({ cols: db, userId: owner.hospNo, notify: toast, source: navigator.serviceWorker });
  } catch (err) {
    // Never in the way of sync: reminders still show as notifications, the list catches up next start.
    log.error('reminder messages not handled', err);
  }
  await reminders.refresh();
}

function stopSync(): void {
  session.stopValidation();
  stopPushMessages?.();
  stopPushMessages = undefined;
  if (retryTimer) clearInterval(retryTimer);
  retryTimer = undefined;
}

session.subscribe((s) => {
  if (s.status === 'logged-in') void startSync(s.session).catch((err: unknown) => log.error('could not start sync', err));
  else stopSync();
});

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => status.update({ offline: true }));
  // Back online while logged in: re-sync, record the time, clear the flag, say so (spec §4).
  window.addEventListener('online', () => {
    if (session.state.status === 'logged-in') void syncNow({ announce: true });
    else status.update({ offline: false });
  });
}

let restoring: Promise<unknown> | undefined;
// Whether this page's session came from the stored one (auto-login) rather than a login form: the
// dashboard then greets with 'Welcome back, {name}!' once.
let restoredFromStorage = false;
let welcomed = false;
/** Auto-login from the stored session; the first caller starts it, everyone else waits for it. */
const ensureRestored = () =>
  (restoring ??= session.restore().then((s) => {
    restoredFromStorage = s.status === 'logged-in';
  }));

export const runtime = {
  api,
  session,
  status,
  openDatabase,
  ensureRestored,
  syncNow,
  notify: (options: ToastOptions) => toast(options),
  /** Reminders on this device: the dashboard's prompt and the profile's section. */
  reminders,
  /** True once per page load after an auto-login; later calls (and fresh logins) get false. */
  takeWelcomeBack(): boolean {
    if (!restoredFromStorage || welcomed) return false;
    welcomed = true;
    return true;
  },
  /** Where the app goes when the session ended by a 401 (set by the router). */
  setOnSessionExpired(fn: () => void) {
    onSessionExpired = fn;
  },
};

export type Runtime = typeof runtime;
