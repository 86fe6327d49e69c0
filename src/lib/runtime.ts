// The app's one set of long-lived parts, wired together: API client → session → local database →
// replication. Screens reach them through useRuntime(), routes through the router's context.
import { msg, plural } from '@lingui/core/macro';
import { openedAfterAWhile } from './welcome-back.ts';
import type { RxCollection } from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import { createApiClient, deviceId, MSG_RESPONSE_FAILED } from '../../sync/api-client.ts';
import { inBackground } from '../../sync/background.ts';
import { log } from '../../sync/log.ts';
import type { Replication, SyncController } from '../../sync/controller.ts';
import type { PushTokenRecord } from '../../sync/push-subscription.ts';
import type { Checkpoint, RestMapping } from '../../sync/replication.ts';
import type { UpstreamView } from '../../sync/rxdb-internals.ts';
import { freshness, sealedItem, secureStorage } from '../../sync/storage/secure-storage.ts';
import { createLifecycle, type Effect } from '../../sync/lifecycle.ts';
import { createPatientSession, type SessionVault, type StoredSession } from '../../sync/session.ts';
import { createSyncStatus } from '../../sync/status.ts';
import type { EddyDatabase } from '../../sync/storage/database.ts';
import { i18n } from './i18n.ts';
import { OUTBOX_SYNC_TAG } from './pwa.ts';
import { lazyReminders, remindersLoadingInBrowser } from './lazy-reminders.ts';
import { screenShown } from './first-screen.ts';
import { loaderActivity } from './ui/loader-store.ts';
import { savedNotice } from './ui/saved-notice.ts';
import { toast, type ToastOptions } from './ui/toast-store.ts';
import type { UiText } from './ui/ui-text.ts';

/**
 * The patient app's parts, made once by the app (src/main.tsx) and reached through context
 * (runtime-context.tsx) and the router's context, as the staff runtime is. Nothing runs at import:
 * the listeners and stores start when the app makes its runtime.
 */
export function createRuntime() {
  // The outbox and the push inbox (Dexie) load when a session needs them, not on the login page of a
  // device with no session (the performance budget of the login route).
  const outbox = () => import('../../sync/outbox.ts');

  // The session token lives only sealed in the secure store (docs/requirements.md §9: user_token, category security).
  const vault: SessionVault = {
    // Past the item's 7 days by the device's clock, the session counts as expired there: start-up
    // then asks the server, and a session that did end is said to have ended (sync/session.ts).
    load: async () => {
      const found = await secureStorage.getEvenExpired<StoredSession>('user', 'token');
      if (!found) return undefined;
      return found.expired ? { ...found.value, expiresAt: new Date(0).toISOString() } : found.value;
    },
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

  /**
   * The session's lifecycle (sync/lifecycle.ts): which 401 ends the session, when sync starts and
   * stops, and whether the screens lock. It decides; this module carries out what each step asks.
   * The lock is set at the 401 itself, before the slower steps of locking (replications stopped, the
   * session forgotten), and cleared at the next login: the patient's layout shows the lock screen
   * while it is set (issue 45).
   */
  const lifecycle = createLifecycle();

  function carryOut(effects: readonly Effect[]): void {
    for (const effect of effects) {
      switch (effect.do) {
        case 'start-sync':
          syncStarting = startSync(effect.session).catch((err: unknown) => log.error('could not start sync', err));
          break;
        case 'stop-sync':
          stopSync();
          break;
        case 'ignore-401':
          log.warn('A 401 for an earlier session was let go', { why: effect.why });
          break;
        case 'end-session':
          log.warn('Session ended', { why: effect.why });
          inBackground(
            session.expire().then(() => {
              // It stays until closed: the login page is where the patient is sent, and why must stay said.
              toast({ type: 'error', text: msg`Session Expired. Please login again.`, duration: 0 });
              onSessionExpired();
            }),
            'Ending the expired session failed',
          );
          break;
      }
    }
  }

  /**
   * Any 401 (a call or a replayed write): the patient goes to / (docs/requirements.md §8). The app locks rather than
   * wipes: unsent entries stay sealed for the same patient's next login (docs/sync-protocol.md).
   * `token`: the one the refused call was sent with; an answer to a session that has ended since, or
   * to a call sent with none (sent before the patient logged in again, answered after) says nothing of
   * the session now in use, and is let go (otherwise a history check sent on the old token locks the
   * app a second after the patient has logged in again).
   */
  function handleUnauthorized(token?: string): void {
    carryOut(lifecycle.send({ type: 'unauthorized', token }));
  }

  const api = createApiClient({
    getToken: () => session.token(),
    getDeviceId: () => deviceId(),
    onActivity,
    onUnauthorized: handleUnauthorized,
  });

  let database: Promise<EddyDatabase> | undefined;

  const reminders = lazyReminders(
    async () => {
      const [{ createReminders, browserRemindersEnv }, { createPushSubscriptions }] = await Promise.all([
        import('./reminders.ts'),
        import('../../sync/push-subscription.ts'),
      ]);
      const subscriptions = createPushSubscriptions({
        api,
        // The push token record is a security item of the secure store (user_fcmToken, 30 days, docs/requirements.md §9).
        store: sealedItem<PushTokenRecord>('user', 'fcmToken'),
        registration: async () => navigator.serviceWorker?.getRegistration(),
        locale: () => i18n.locale,
      });
      return createReminders({ subscriptions, env: browserRemindersEnv(), notify: toast });
    },
    (err) => log.error('reminders could not be loaded', err),
    remindersLoadingInBrowser(),
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
  /** The part of a running replication this module uses, whatever its collection's document type. */
  type RunningReplication = Replication &
    Pick<RxReplicationState<unknown, Checkpoint>, 'cancel' | 'wasStarted' | 'isPaused' | 'isStopped' | 'error$'> &
    UpstreamView;
  let replications: RunningReplication[] = [];

  async function openDatabase(): Promise<EddyDatabase> {
    // RxDB and the encryption load only after login (login route budget, docs/requirements.md §11).
    database ??= Promise.all([import('../../sync/storage/database.ts'), import('../../sync/local-writes.ts')]).then(async ([m, w]) => {
      const db = await m.openEddyDatabase();
      // The patient's own saves, noted until the push handler has queued them (prepareLogout).
      for (const c of [db.glucose, db.symptoms, db.appointments, db.labTests, db.medicines, db.medicineIntakes, db.profile]) w.noteLocalWrites(c);
      return db;
    });
    return database;
  }

  async function stopReplications(): Promise<void> {
    dropFirstPulls?.();
    await Promise.all(replications.map((r) => r.cancel()));
    replications = [];
  }

  /** Set once first pulls were begun (the replication module is loaded then): forgets those not taken. */
  let dropFirstPulls: (() => void) | undefined;

  /** The first pulls of a login onto an empty device, begun before the database opens (sync/replication.ts). */
  async function beginFirstPulls(s: StoredSession): Promise<void> {
    const [r, m] = await Promise.all([import('../../sync/replication.ts'), import('./sync-mappings.ts')]);
    const now = session.state;
    // Another login since, or the replications already pulling: nothing to begin.
    if ((now.status === 'logged-in' && now.session.token !== s.token) || replications.length > 0) return;
    // Every mapping the module exports; only the versioned ones pull from a version.
    r.beginFirstPulls(api, Object.values(m), s.hospNo, s.token);
    dropFirstPulls = r.dropFirstPulls;
  }

  async function wipeLocalData(): Promise<void> {
    await stopReplications();
    await (await outbox()).clearOutbox();
    await (await import('../../sync/storage/push-inbox.ts')).clearInbox();
    // The browser's subscription goes too: the next patient on this device must not get these reminders.
    await Promise.race([
      reminders.forget().catch((err: unknown) => log.warn('push subscription not dropped', err)),
      new Promise((resolve) => setTimeout(resolve, FORGET_PUSH_TIMEOUT_MS)),
    ]);
    const { destroyEddyDatabase } = await import('../../sync/storage/database.ts');
    const open = database;
    database = undefined;
    // Destroys the data key too: whatever is left on disk can no longer be read.
    await destroyEddyDatabase(open ? await open : {});
    (await import('../../sync/local-writes.ts')).forgetLocalWrites();
    status.update({ lastSyncAt: undefined });
  }

  /** The session ended by itself: nothing is sent with the ended token; everything sealed stays. */
  async function lockLocalData(): Promise<void> {
    await stopReplications();
    await (await outbox()).dropReplaySession();
  }

  async function onLoggedIn(s: StoredSession): Promise<void> {
    lifecycle.send({ type: 'logging-in' });
    const { setOwner, setReplaySession } = await outbox();
    await setReplaySession({ token: s.token, deviceId: deviceId() });
    await setOwner(s.hospNo);
    // Entries this patient made before another patient used this device come back to be sent.
    // Loaded at login, not on the login page (its script budget).
    const { unparkFor } = await import('../../sync/parking.ts');
    const back = await unparkFor(s.hospNo);
    const restored = back.restored;
    if (restored > 0)
      toast({
        type: 'info',
        text: msg`${plural(restored, { one: '# entry made earlier on this device will now be sent.', other: '# entries made earlier on this device will now be sent.' })}`,
      });
    const expired = back.expired;
    if (expired > 0) {
      const since = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium' }).format(back.expiredSince);
      toast({
        type: 'warning',
        duration: 0,
        text: msg`${plural(expired, {
          one: `# entry made on this device on or after ${since} was kept for 30 days without your login and has been deleted. Please enter it again if you still need it.`,
          other: `# entries made on this device on or after ${since} were kept for 30 days without your login and have been deleted. Please enter them again if you still need them.`,
        })}`,
      });
    }
  }

  const session = createPatientSession({
    api,
    vault,
    wipeLocalData,
    lockLocalData,
    prepareLocalData: async (hospNo, s) => {
      const { prepareForOwner } = await import('../../sync/parking.ts');
      // Nothing of this patient on the device, so every pull starts from 0: the first pulls begin now,
      // while the login completes and the database opens. Entries set aside for this patient come
      // back to the outbox only later (onLoggedIn), before the replication's own pull reads what is
      // waiting; none of them can be sent before then.
      if ((await prepareForOwner(hospNo, wipeLocalData)) === 'wiped') inBackground(beginFirstPulls(s), 'The first pull could not be begun');
    },
    onLoggedIn,
    // The session was found ended (expired, or revoked): at start-up, or by the periodic check.
    onEnded: () => {
      carryOut(lifecycle.send({ type: 'ended' }));
      toast({ type: 'error', text: msg`Session Expired. Please login again.`, duration: 0 });
    },
  });

  // Sending, pulling and retrying live in sync/controller.ts; the runtime only wires it to the app.
  // The controller loads after login with the replication (the login page does not need it).
  let controller: Promise<SyncController> | undefined;
  function loadController(): Promise<SyncController> {
    controller ??= Promise.all([import('../../sync/controller.ts'), import('../../sync/drain.ts'), import('../../sync/refusals.ts')]).then(
      ([{ createSyncController }, { drainOutbox }, { settleAutomatically }]) =>
        createSyncController({
          status,
          drain: () => drainOutbox(),
          // Only the replications running in this tab: one that waits to lead (another tab leads) never
          // gets in sync, and a sync awaiting it waited 30 s each time and kept the offline notice.
          replications: () => replications.filter((r) => r.wasStarted && !r.isPaused() && !r.isStopped()),
          onUnauthorized: handleUnauthorized,
          registerBackgroundSync: registerBackgroundReplay,
          settle: settleAutomatically,
          api,
          onSettled: (messages) => {
            for (const text of messages) toast({ type: 'error', text: text || MSG_RESPONSE_FAILED });
          },
          onSynchronized: () => toast({ type: 'success', text: msg`Data synchronized successfully` }),
          // Medical data is refreshed once it is 10 minutes old (docs/requirements.md §9 cache lifetimes).
          isStale: (lastSyncAt) => lastSyncAt === undefined || freshness(lastSyncAt, 'medical') !== 'fresh',
          isOnline: () => navigator.onLine,
          askLeaderToPull: () => {
            const s = session.state;
            if (s.status === 'logged-in')
              inBackground(
                import('../../sync/replication.ts').then((m) => m.askLeaderToPull(s.session.hospNo)),
                'Asking the leading tab to pull failed',
              );
          },
        }),
    );
    return controller;
  }

  /** Sends what the outbox holds, then refreshes from the server (nothing to do before a login started sync). */
  const syncNow = async (o: { announce: boolean; refresh?: boolean }): Promise<void> => {
    if (controller) await (await controller).syncNow(o);
  };

  /**
   * Before a logout: tries to send what is unsent, then says how many entries are still not on the
   * server (unsent, refused, or saved a moment ago and still on their way to the outbox). The caller
   * asks the patient before a logout that would delete them. The work is in sync/replication.ts
   * (beforeLogout), loaded only then.
   */
  async function prepareLogout(): Promise<number> {
    const db = database ? await database : undefined;
    const { beforeLogout } = await import('../../sync/replication.ts');
    return beforeLogout({
      send: () => syncNow({ announce: false, refresh: false }),
      online: () => navigator.onLine,
      // No database opened on this page: nothing was saved in it since it loaded.
      saves: db && {
        started: syncStarting,
        replications: () => replications,
        // Another tab of this device leads the replication: it queues this tab's saves too.
        leaderElsewhere: async () => !replications.some((r) => r.wasStarted) && !db.isLeader() && (await db.leaderElector().hasLeader()),
      },
    });
  }

  /** How long the replications wait at most for the first screen to show local data. */
  const FIRST_SCREEN_WAIT_MS = 1_000;

  async function startSync(owner: StoredSession): Promise<void> {
    if (replications.length > 0) return;
    const db = await openDatabase();
    // Replication pulls in RxDB's replication plugin: loaded with the database, after login.
    const [{ replicate, askLeaderToPull }, m] = await Promise.all([import('../../sync/replication.ts'), import('./sync-mappings.ts')]);
    await (await outbox()).setReplaySession({ token: owner.token, deviceId: deviceId() });
    const afterPush = () => inBackground(syncNow({ announce: false }), 'sync failed');
    (await loadController()).start();
    // The page's own data first (src/lib/first-screen.ts); the pull a moment later.
    await screenShown(FIRST_SCREEN_WAIT_MS);
    if (replications.length > 0 || session.state.status !== 'logged-in' || session.state.session.token !== owner.token) return;
    const start = <D extends { _id: string }>(collection: RxCollection<D>, mapping: RestMapping<D>): RunningReplication =>
      replicate({ collection, mapping, api, owner: owner.hospNo, afterPush });
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
    // This tab pulls by itself only if it leads; if another tab does, that one pulls for this load.
    askLeaderToPull(owner.hospNo);
    session.startValidation(() => status.update({ offline: true }));
    // The server renews a session in use (sliding); asking once at start keeps the stored expiry in
    // step, so a patient who opens the app briefly every day is not locked out after 7 days.
    if (navigator.onLine) inBackground(session.validate(), 'Session check failed');
    inBackground(syncNow({ announce: false, refresh: false }), 'sync failed');
    inBackground(followLiveChanges(owner), 'the live changes could not be followed');
    inBackground(startReminders(db, owner), 'reminders could not be started');
  }

  /**
   * While the app is shown, the server says when this patient's records take a new version (a
   * prescription or a meal time staff changed, a reading from the patient's other device), and the
   * app pulls then (issue 46; sync/live-pull.ts). The stream's code loads after login.
   */
  let stopLiveChanges: (() => void) | undefined;
  async function followLiveChanges(owner: StoredSession): Promise<void> {
    const [{ followChanges }, { followOwnChanges }] = await Promise.all([import('../../sync/change-stream.ts'), import('../../sync/live-pull.ts')]);
    const current = () => session.state.status === 'logged-in' && session.state.session.token === owner.token;
    // Logged out, or in again, while the modules loaded; or already following.
    if (!current() || stopLiveChanges) return;
    stopLiveChanges = followOwnChanges({
      follow: (onChange) => followChanges({ baseUrl: '', getToken: () => (current() ? owner.token : undefined), onUnauthorized: handleUnauthorized, onChange }),
      pull: () => {
        if (current() && navigator.onLine) inBackground(syncNow({ announce: false }), 'sync failed');
      },
    });
  }

  /** Reminder pushes: the inbox the worker fills, its messages, then the subscription (docs/requirements.md §4). */
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
    stopLiveChanges?.();
    stopLiveChanges = undefined;
    stopPushMessages?.();
    stopPushMessages = undefined;
    inBackground(
      controller?.then((c) => c.stop()),
      'Stopping sync failed',
    );
  }

  /** The start of this login's sync, while it runs (a logout waits for it: changesNotYetQueued). */
  let syncStarting: Promise<void> = Promise.resolve();
  session.subscribe((state) => carryOut(lifecycle.send({ type: 'session', state })));

  if (typeof window !== 'undefined') {
    window.addEventListener('offline', () => status.update({ offline: true }));
    // Back online while logged in: re-sync, record the time, clear the flag, say so (docs/requirements.md §4).
    window.addEventListener('online', () => {
      if (session.state.status === 'logged-in') inBackground(syncNow({ announce: true }), 'sync failed');
      else status.update({ offline: false });
    });
  }

  let restoring: Promise<unknown> | undefined;
  // Whether this page's session came from the stored one (auto-login) rather than a login form: the
  // dashboard then greets with 'Welcome back, {name}!' once, when the patient was away a while.
  let restoredFromStorage = false;
  let welcomed = false;
  /** Auto-login from the stored session; the first caller starts it, everyone else waits for it. */
  const ensureRestored = () =>
    (restoring ??= session.restore().then((s) => {
      restoredFromStorage = s.status === 'logged-in';
    }));

  /**
   * Whether a save made now stays on the device for a while: the sync bar's offline flag (a server that
   * cannot be reached, whatever the browser thinks), or the browser offline before the bar knows.
   */
  const savesOffline = (): boolean => status.getSnapshot().offline || (typeof navigator !== 'undefined' && !navigator.onLine);

  return {
    api,
    session,
    status,
    openDatabase,
    ensureRestored,
    syncNow,
    prepareLogout,
    notify: (options: ToastOptions) => toast(options),
    savesOffline,
    /** The notice of an entry saved: `online` (the spec's wording) online; offline, that it will be sent (ui/saved-notice.ts). */
    notifySaved: (online: UiText) => toast(savedNotice(online, savesOffline())),
    /** Reminders on this device: the dashboard's prompt and the profile's section. */
    reminders,
    /**
     * True once per page load after an auto-login when the app was last opened on this device long
     * enough ago (welcome-back.ts); later calls, fresh logins and quick returns get false.
     */
    takeWelcomeBack(): boolean {
      if (welcomed) return false;
      welcomed = true;
      const away = openedAfterAWhile(typeof localStorage === 'undefined' ? undefined : localStorage, Date.now());
      return restoredFromStorage && away;
    },
    /** The session ended by itself (the screens lock at once): a store for useSyncExternalStore. */
    sessionEnded: { subscribe: lifecycle.subscribe, get: lifecycle.locked },
    /** Where the app goes when the session ended by a 401 (set by the router). */
    setOnSessionExpired(fn: () => void) {
      onSessionExpired = fn;
    },
  };
}

export type Runtime = ReturnType<typeof createRuntime>;
