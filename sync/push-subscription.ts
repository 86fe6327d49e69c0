// The device's push subscription (issue 6 "Subscription"; docs/requirements.md §7 POST /users/notificationToken,
// §8 'Failed to save notification token', §9 push token kept 30 days).
//
// The server says which push provider it uses (GET /push/config): Web Push with its VAPID key (the
// default), or Firebase Cloud Messaging, whose SDK is loaded only then (dynamic import: never in the
// login bundle). The token the server got is remembered in the secure store (user_fcmToken, category
// security, sealed, 30 days), so each start after login can tell whether the server must hear it
// again: the subscription is missing, changed, expired, was made with another key, the device's time
// zone or language changed, or the record is 30 days old.
//
// Logout and a 401 forget the record and drop the browser's subscription too: a push service then
// answers the server 404/410 and the server removes the token, so a later patient on this device
// never gets the previous patient's reminders.
import { ApiError, type ApiClient } from './api-client.ts';
import type { FirebaseWebConfig, PushConfigJson } from '../schemas/push.ts';
import { log } from './log.ts';
import { PUSH_TOKEN_MAX_AGE_MS } from './storage/secure-storage.ts';

export type PushConfig = PushConfigJson;
export type { FirebaseWebConfig };

/** What the server was last told from this device (kept sealed, see above). */
export interface PushTokenRecord {
  provider: 'webpush' | 'fcm';
  /** The subscription's endpoint (Web Push) or the FCM registration token. */
  token: string;
  /** The server key the subscription was made with (base64url). */
  publicKey: string;
  expirationTime: number | null;
  timeZone: string | undefined;
  locale: string;
  /** When the server accepted it (ms since epoch). */
  savedAt: number;
}

// The parts of the Push API used here, so tests can hand in fakes.
export interface SubscriptionLike {
  readonly endpoint: string;
  readonly expirationTime: number | null;
  readonly options?: { readonly applicationServerKey: ArrayBuffer | null } | undefined;
  toJSON(): PushSubscriptionJSON;
  unsubscribe(): Promise<boolean>;
}
export interface PushManagerLike {
  getSubscription(): Promise<SubscriptionLike | null>;
  subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }): Promise<SubscriptionLike>;
}
export interface RegistrationLike {
  readonly pushManager: PushManagerLike;
}

export interface FirebaseMessagingLike {
  getToken(options: { vapidKey: string; serviceWorkerRegistration: RegistrationLike }): Promise<string>;
  deleteToken(): Promise<boolean>;
}
export type FirebaseLoader = (config: FirebaseWebConfig) => Promise<FirebaseMessagingLike>;

/** Where the record is kept: the secure store in the app, a map in tests. */
export interface TokenStore {
  get(): Promise<PushTokenRecord | undefined>;
  set(record: PushTokenRecord): Promise<void>;
  remove(): void;
}

export interface PushSubscriptionsOptions {
  api: ApiClient;
  store: TokenStore;
  /** The service worker registration, once there is one (none in development). */
  registration: () => Promise<RegistrationLike | undefined>;
  /** The app's language code ("en", "es"): the server words this device's notifications in it. */
  locale: () => string;
  timeZone?: () => string | undefined;
  loadFirebase?: FirebaseLoader;
  now?: () => number;
  /**
   * Where the token is given and taken back: the patient's reminders by default; the staff area's
   * severe-low alerts use /admin/alerts/on and /admin/alerts/off.
   */
  paths?: { save: string; remove: string };
  /**
   * Turning off and forgetting leave the browser's subscription alone (the staff area's alerts: the
   * same browser may hold a patient's reminders on it); the server forgets the token all the same.
   */
  keepBrowserSubscription?: boolean;
}

export type RefreshResult = 'saved' | 'unchanged' | 'skipped';

/** A subscription this close to its expiry is renewed now rather than missing reminders later. */
const EXPIRY_MARGIN_MS = 24 * 60 * 60 * 1000;

/**
 * How long the browser may take to get a subscription from its push service. On a network that
 * does not reach it (a hospital network without internet) the browser's call never ends: issue 46
 * saw "Turn alerts on" stay disabled for more than 25 s with no word.
 */
export const PUSH_SERVICE_TIMEOUT_MS = 6_000;

/**
 * The browser's push service could not be reached: it did not answer within PUSH_SERVICE_TIMEOUT_MS,
 * or the browser said it could not get a subscription from it (the Push API's AbortError, such as
 * Chromium's "Registration failed - push service not available").
 */
export class PushServiceUnreachableError extends Error {
  constructor(cause?: unknown) {
    super(
      cause instanceof Error
        ? `the browser's push service could not be reached: ${cause.message}`
        : `the browser's push service did not answer within ${PUSH_SERVICE_TIMEOUT_MS / 1000} s`,
      { cause },
    );
    this.name = 'PushServiceUnreachableError';
  }
}

/** `work`, or PushServiceUnreachableError once the push service has had its time (the work is left to end by itself). */
function withinPushServiceTime<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushServiceUnreachableError()), PUSH_SERVICE_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function sameBytes(a: ArrayBuffer, b: Uint8Array): boolean {
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

const deviceTimeZone = (): string | undefined => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
};

function readConfig(json: unknown): PushConfig {
  const c = json as Partial<{ provider: unknown; publicKey: unknown; firebase: Partial<Record<keyof FirebaseWebConfig, unknown>> }> | null;
  if (!c || typeof c.publicKey !== 'string' || c.publicKey === '') throw new Error('push configuration without a public key');
  if (c.provider === 'webpush') return { provider: 'webpush', publicKey: c.publicKey };
  const f = c.firebase;
  if (c.provider === 'fcm' && f && [f.apiKey, f.projectId, f.messagingSenderId, f.appId].every((v) => typeof v === 'string' && v !== '')) {
    const firebase: FirebaseWebConfig = {
      apiKey: String(f.apiKey),
      projectId: String(f.projectId),
      messagingSenderId: String(f.messagingSenderId),
      appId: String(f.appId),
    };
    if (typeof f.authDomain === 'string') firebase.authDomain = f.authDomain;
    return { provider: 'fcm', publicKey: c.publicKey, firebase };
  }
  throw new Error(`unknown push provider ${String(c.provider)}`);
}

/** The Firebase SDK, loaded when the server uses FCM and only then. */
export const loadFirebaseMessaging: FirebaseLoader = async (config) => {
  const [app, messaging] = await Promise.all([import('firebase/app'), import('firebase/messaging')]);
  if (!(await messaging.isSupported())) throw new Error('Firebase Cloud Messaging is not supported by this browser');
  const firebaseApp = app.getApps().find((a) => a.name === 'eddy') ?? app.initializeApp(config, 'eddy');
  const m = messaging.getMessaging(firebaseApp);
  return {
    getToken: ({ vapidKey, serviceWorkerRegistration }) =>
      messaging.getToken(m, { vapidKey, serviceWorkerRegistration: serviceWorkerRegistration as ServiceWorkerRegistration }),
    deleteToken: () => messaging.deleteToken(m),
  };
};

export function createPushSubscriptions(opts: PushSubscriptionsOptions) {
  const now = opts.now ?? Date.now;
  const timeZone = opts.timeZone ?? deviceTimeZone;
  const loadFirebase = opts.loadFirebase ?? loadFirebaseMessaging;
  const paths = opts.paths ?? { save: '/users/notificationToken', remove: '/users/notificationToken/remove' };

  async function config(quiet: boolean): Promise<PushConfig> {
    return readConfig(await opts.api.get<unknown>('/push/config', { quiet }));
  }

  async function requireRegistration(): Promise<RegistrationLike> {
    const registration = await opts.registration();
    if (!registration) throw new Error('no service worker registration');
    return registration;
  }

  /** The browser's subscription for this key: the existing one if still good, else a new one. */
  async function webPushSubscription(registration: RegistrationLike, publicKey: string): Promise<SubscriptionLike> {
    const key = base64UrlToBytes(publicKey);
    const existing = await registration.pushManager.getSubscription();
    if (existing) {
      const expiring = existing.expirationTime !== null && existing.expirationTime <= now() + EXPIRY_MARGIN_MS;
      const otherKey = existing.options?.applicationServerKey ? !sameBytes(existing.options.applicationServerKey, key) : false;
      if (!expiring && !otherKey) return existing;
      // The browser refuses a second subscription with another key; an expiring one is replaced.
      await existing.unsubscribe().catch(() => false);
    }
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).catch((err: unknown) => {
      throw err instanceof DOMException && err.name === 'AbortError' ? new PushServiceUnreachableError(err) : err;
    });
  }

  /** The token to give the server and what to remember of it. */
  async function currentToken(
    cfg: PushConfig,
    registration: RegistrationLike,
  ): Promise<{ body: unknown; record: Omit<PushTokenRecord, 'savedAt' | 'timeZone' | 'locale'> }> {
    if (cfg.provider === 'fcm') {
      const messaging = await loadFirebase(cfg.firebase);
      const token = await messaging.getToken({ vapidKey: cfg.publicKey, serviceWorkerRegistration: registration });
      return { body: token, record: { provider: 'fcm', token, publicKey: cfg.publicKey, expirationTime: null } };
    }
    const sub = await webPushSubscription(registration, cfg.publicKey);
    const { keys } = sub.toJSON();
    if (!keys?.['p256dh'] || !keys['auth']) throw new Error('push subscription without keys');
    return {
      // Only what the server's schema asks for: endpoint and keys.
      body: { endpoint: sub.endpoint, keys: { p256dh: keys['p256dh'], auth: keys['auth'] } },
      record: { provider: 'webpush', token: sub.endpoint, publicKey: cfg.publicKey, expirationTime: sub.expirationTime },
    };
  }

  async function save(body: unknown, partial: Omit<PushTokenRecord, 'savedAt' | 'timeZone' | 'locale'>, quiet: boolean): Promise<PushTokenRecord> {
    const tz = timeZone();
    const locale = opts.locale();
    await opts.api.post(paths.save, { token: body, ...(tz ? { timeZone: tz } : {}), locale }, { quiet });
    const record: PushTokenRecord = { ...partial, timeZone: tz, locale, savedAt: now() };
    await opts.store.set(record);
    return record;
  }

  /**
   * Subscribes this device and gives the server its token (the patient turned reminders on).
   * Throws when anything fails: an ApiError when the server did not take the token, a
   * PushServiceUnreachableError when the browser's push service did not answer in time.
   */
  async function subscribe(): Promise<PushTokenRecord> {
    const cfg = await config(false);
    const { body, record } = await withinPushServiceTime(currentToken(cfg, await requireRegistration()));
    return save(body, record, false);
  }

  /**
   * Start-up after login, with the permission granted: posts the token again only when the
   * server's copy may be out of date. Offline it does nothing ('skipped'), the next start tries
   * again; a token the server refuses throws (ApiError).
   */
  async function refresh(): Promise<RefreshResult> {
    const registration = await opts.registration();
    if (!registration) return 'skipped';
    let cfg: PushConfig;
    try {
      cfg = await config(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) return 'skipped';
      throw err;
    }
    const { body, record } = await currentToken(cfg, registration);
    const saved = await opts.store.get();
    const current =
      saved !== undefined &&
      saved.provider === record.provider &&
      saved.token === record.token &&
      saved.publicKey === record.publicKey &&
      saved.timeZone === timeZone() &&
      saved.locale === opts.locale() &&
      now() - saved.savedAt < PUSH_TOKEN_MAX_AGE_MS &&
      now() >= saved.savedAt;
    if (current) return 'unchanged';
    await save(body, record, true);
    return 'saved';
  }

  /** Whether the browser holds a subscription for this app now. */
  async function isSubscribed(): Promise<boolean> {
    const registration = await opts.registration().catch(() => undefined);
    return (await registration?.pushManager.getSubscription().catch(() => null)) != null;
  }

  /** Drops the browser's subscription (and the FCM token); returns what the server knew it by. */
  async function dropLocal(): Promise<{ endpoint?: string; token?: string }> {
    const saved = await opts.store.get().catch(() => undefined);
    opts.store.remove();
    const registration = await opts.registration().catch(() => undefined);
    const sub = await registration?.pushManager.getSubscription().catch(() => null);
    // FCM's token rides on this same subscription: without it FCM reports the token unregistered,
    // so the Firebase SDK (a download) is not needed to end it, not even at logout while offline.
    if (!opts.keepBrowserSubscription) await sub?.unsubscribe().catch(() => false);
    if (saved?.provider === 'fcm') return { token: saved.token };
    const endpoint = sub?.endpoint ?? saved?.token;
    return endpoint ? { endpoint } : {};
  }

  /** The patient turned reminders off: this device stops receiving them and the server forgets it. */
  async function unsubscribe(): Promise<void> {
    const which = await dropLocal();
    if (!which.endpoint && !which.token) return;
    // The subscription is gone already, so a push the server still sends fails with 410 and the
    // server removes it then: a failed call here loses nothing.
    await opts.api.post(paths.remove, which).catch((err: unknown) => log.warn('notification token not removed on the server', err));
  }

  /** Logout or 401: forget the record and the subscription; no call (the session is over). */
  async function forget(): Promise<void> {
    await dropLocal();
  }

  return { subscribe, refresh, unsubscribe, forget, isSubscribed };
}

export type PushSubscriptions = ReturnType<typeof createPushSubscriptions>;
