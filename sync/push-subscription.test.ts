// The subscription logic against a fake browser Push API and a fake server (fetch): what is posted,
// when it is posted again, what is remembered, and what logout and "turn off" leave behind.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';
import {
  base64UrlToBytes,
  createPushSubscriptions,
  PUSH_SERVICE_TIMEOUT_MS,
  PushServiceUnreachableError,
  type FirebaseLoader,
  type PushManagerLike,
  type PushTokenRecord,
  type SubscriptionLike,
  type TokenStore,
} from './push-subscription.ts';
import { PUSH_TOKEN_MAX_AGE_MS } from './storage/secure-storage.ts';

/** Two different server keys: uncompressed P-256 points are 65 bytes starting with 4. */
const KEY_A = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i))).toString('base64url');
const KEY_B = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 200 - i))).toString('base64url');
const DAY = 86_400_000;

class FakeSubscription implements SubscriptionLike {
  unsubscribed = false;
  readonly options: { applicationServerKey: ArrayBuffer };
  readonly manager: FakePushManager;
  readonly endpoint: string;
  readonly expirationTime: number | null;
  constructor(manager: FakePushManager, endpoint: string, key: Uint8Array<ArrayBuffer>, expirationTime: number | null = null) {
    this.manager = manager;
    this.endpoint = endpoint;
    this.expirationTime = expirationTime;
    this.options = { applicationServerKey: key.buffer.slice(0) };
  }
  toJSON(): PushSubscriptionJSON {
    return { endpoint: this.endpoint, expirationTime: this.expirationTime, keys: { p256dh: 'p256dh-of-' + this.endpoint, auth: 'auth-secret' } };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    if (this.manager.current === this) this.manager.current = null;
    return true;
  }
}

class FakePushManager implements PushManagerLike {
  current: FakeSubscription | null = null;
  subscribeCalls: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }[] = [];
  failSubscribe = false;
  private n = 0;
  async getSubscription() {
    return this.current;
  }
  async subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }) {
    this.subscribeCalls.push(options);
    if (this.failSubscribe) throw new DOMException('Registration failed - push service error', 'AbortError');
    if (this.current) throw new DOMException('A subscription with a different applicationServerKey already exists', 'InvalidStateError');
    this.current = new FakeSubscription(this, `https://push.example/send/${++this.n}`, options.applicationServerKey);
    return this.current;
  }
}

interface Posted {
  path: string;
  body: Record<string, unknown>;
}

/** A server that answers /push/config and records the token calls; each answer can be changed. */
function fakeServer() {
  const state = {
    config: { provider: 'webpush', publicKey: KEY_A } as unknown,
    configStatus: 200,
    tokenStatus: 200,
    offline: false,
    posted: [] as Posted[],
  };
  const fetchImpl: typeof fetch = async (input, init) => {
    if (state.offline) throw new TypeError('Failed to fetch');
    const url = new URL(String(input), 'http://app.test');
    const path = url.pathname.replace(/^\/api/, '');
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/push/config') return state.configStatus === 200 ? json(200, state.config) : json(state.configStatus, { message: 'Not Found' });
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    state.posted.push({ path, body });
    if (path === '/users/notificationToken')
      return state.tokenStatus === 200
        ? json(200, { message: 'Notification token saved' })
        : json(state.tokenStatus, { message: 'timeZone must be a valid IANA time zone' });
    return json(200, { message: 'ok' });
  };
  return { state, fetchImpl };
}

function memoryStore(): TokenStore & { record: PushTokenRecord | undefined } {
  return {
    record: undefined,
    async get() {
      return this.record;
    },
    async set(r) {
      this.record = r;
    },
    remove() {
      this.record = undefined;
    },
  };
}

function setup(opts: { loadFirebase?: FirebaseLoader; registered?: boolean; staff?: boolean } = {}) {
  const server = fakeServer();
  const manager = new FakePushManager();
  const store = memoryStore();
  const clock = { now: Date.parse('2026-11-24T08:00:00Z') };
  const env = { locale: 'es', timeZone: 'Europe/Madrid' as string | undefined };
  const unauthorized: number[] = [];
  const api = createApiClient({ getToken: () => 'session-token', fetchImpl: server.fetchImpl, onUnauthorized: () => unauthorized.push(1) });
  const subs = createPushSubscriptions({
    api,
    store,
    registration: async () => (opts.registered === false ? undefined : { pushManager: manager }),
    locale: () => env.locale,
    timeZone: () => env.timeZone,
    now: () => clock.now,
    ...(opts.loadFirebase ? { loadFirebase: opts.loadFirebase } : {}),
    ...(opts.staff ? { paths: { save: '/admin/alerts/on', remove: '/admin/alerts/off' }, keepBrowserSubscription: true } : {}),
  });
  return { server, manager, store, clock, env, subs };
}

const tokenPosts = (posted: Posted[]) => posted.filter((p) => p.path === '/users/notificationToken');

describe('push subscription', () => {
  it('subscribes with the server key, userVisibleOnly, and posts {token, timeZone, locale}', async () => {
    const { server, manager, store, subs, clock } = setup();
    const record = await subs.subscribe();

    expect(manager.subscribeCalls).toHaveLength(1);
    expect(manager.subscribeCalls[0]?.userVisibleOnly).toBe(true);
    expect([...(manager.subscribeCalls[0]?.applicationServerKey ?? [])]).toEqual([...base64UrlToBytes(KEY_A)]);
    expect(tokenPosts(server.state.posted)).toEqual([
      {
        path: '/users/notificationToken',
        body: {
          token: { endpoint: 'https://push.example/send/1', keys: { p256dh: 'p256dh-of-https://push.example/send/1', auth: 'auth-secret' } },
          timeZone: 'Europe/Madrid',
          locale: 'es',
        },
      },
    ]);
    expect(record).toEqual({
      provider: 'webpush',
      token: 'https://push.example/send/1',
      publicKey: KEY_A,
      expirationTime: null,
      timeZone: 'Europe/Madrid',
      locale: 'es',
      savedAt: clock.now,
    });
    expect(store.record).toEqual(record);
  });

  it('leaves out a time zone the device does not know', async () => {
    const { server, subs, env } = setup();
    env.timeZone = undefined;
    await subs.subscribe();
    expect(tokenPosts(server.state.posted)[0]?.body).not.toHaveProperty('timeZone');
  });

  it('throws an ApiError and remembers nothing when the server refuses the token', async () => {
    const { server, store, subs } = setup();
    server.state.tokenStatus = 400;
    await expect(subs.subscribe()).rejects.toBeInstanceOf(ApiError);
    expect(store.record).toBeUndefined();
  });

  it('throws when the push service refuses the subscription, without calling the server', async () => {
    const { server, manager, subs } = setup();
    manager.failSubscribe = true;
    await expect(subs.subscribe()).rejects.toThrow(/push service error/);
    // The Push API's AbortError: the browser could not get a subscription from its push service.
    await expect(subs.subscribe()).rejects.toBeInstanceOf(PushServiceUnreachableError);
    expect(tokenPosts(server.state.posted)).toEqual([]);
  });

  it("gives up after 6 s when the browser's push service never answers (a network without internet), without calling the server", async () => {
    vi.useFakeTimers();
    try {
      const { server, manager, subs } = setup();
      manager.subscribe = () => new Promise(() => undefined);
      const outcome = subs.subscribe().then(
        () => 'subscribed',
        (err: unknown) => err,
      );
      await vi.advanceTimersByTimeAsync(PUSH_SERVICE_TIMEOUT_MS - 1);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBeInstanceOf(PushServiceUnreachableError);
      expect(tokenPosts(server.state.posted)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a configuration it cannot use', async () => {
    const { server, subs } = setup();
    server.state.config = { provider: 'carrier-pigeon', publicKey: KEY_A };
    await expect(subs.subscribe()).rejects.toThrow(/unknown push provider/);
    server.state.config = { provider: 'webpush' };
    await expect(subs.subscribe()).rejects.toThrow(/public key/);
    server.state.config = { provider: 'fcm', publicKey: KEY_A, firebase: { apiKey: 'k' } };
    await expect(subs.subscribe()).rejects.toThrow(/unknown push provider/);
  });

  describe('refresh at start-up', () => {
    it('posts nothing when the server already has this subscription', async () => {
      const { server, subs } = setup();
      await subs.subscribe();
      expect(await subs.refresh()).toBe('unchanged');
      expect(tokenPosts(server.state.posted)).toHaveLength(1);
    });

    it('subscribes and posts when the subscription is missing', async () => {
      const { server, manager, store, subs } = setup();
      await subs.subscribe();
      manager.current = null; // e.g. the browser dropped it
      expect(await subs.refresh()).toBe('saved');
      expect(tokenPosts(server.state.posted)).toHaveLength(2);
      expect(store.record?.token).toBe('https://push.example/send/2');
    });

    it('posts when the subscription changed (e.g. renewed by the worker) or the record is gone', async () => {
      const { server, manager, store, subs } = setup();
      await subs.subscribe();
      manager.current = new FakeSubscription(manager, 'https://push.example/send/renewed', base64UrlToBytes(KEY_A));
      expect(await subs.refresh()).toBe('saved');
      expect(store.record?.token).toBe('https://push.example/send/renewed');
      store.remove();
      expect(await subs.refresh()).toBe('saved');
      expect(tokenPosts(server.state.posted)).toHaveLength(3);
    });

    it('replaces a subscription that expires within a day', async () => {
      const { manager, store, subs, clock } = setup();
      await subs.subscribe();
      const old = new FakeSubscription(manager, 'https://push.example/send/expiring', base64UrlToBytes(KEY_A), clock.now + 2 * 3_600_000);
      manager.current = old;
      expect(await subs.refresh()).toBe('saved');
      expect(old.unsubscribed).toBe(true);
      expect(store.record?.token).toMatch(/^https:\/\/push\.example\/send\/\d$/);
    });

    it('resubscribes when the server key changed', async () => {
      const { server, manager, store, subs } = setup();
      await subs.subscribe();
      const first = manager.current;
      server.state.config = { provider: 'webpush', publicKey: KEY_B };
      expect(await subs.refresh()).toBe('saved');
      expect(first?.unsubscribed).toBe(true);
      expect([...(manager.subscribeCalls[1]?.applicationServerKey ?? [])]).toEqual([...base64UrlToBytes(KEY_B)]);
      expect(store.record?.publicKey).toBe(KEY_B);
    });

    it('posts again once the record is 30 days old, and refreshes it', async () => {
      const { server, store, subs, clock } = setup();
      await subs.subscribe();
      clock.now += PUSH_TOKEN_MAX_AGE_MS - 60_000;
      expect(await subs.refresh()).toBe('unchanged');
      clock.now += 60_000;
      expect(await subs.refresh()).toBe('saved');
      expect(store.record?.savedAt).toBe(clock.now);
      expect(tokenPosts(server.state.posted)).toHaveLength(2);
      expect(await subs.refresh()).toBe('unchanged');
    });

    it('posts again when the device moved to another time zone or language', async () => {
      const { server, subs, env } = setup();
      await subs.subscribe();
      env.timeZone = 'America/Bogota';
      expect(await subs.refresh()).toBe('saved');
      env.locale = 'en';
      expect(await subs.refresh()).toBe('saved');
      expect(tokenPosts(server.state.posted).map((p) => [p.body['timeZone'], p.body['locale']])).toEqual([
        ['Europe/Madrid', 'es'],
        ['America/Bogota', 'es'],
        ['America/Bogota', 'en'],
      ]);
    });

    it('does nothing offline or without a service worker, and throws when the server refuses', async () => {
      const offline = setup();
      offline.server.state.offline = true;
      expect(await offline.subs.refresh()).toBe('skipped');
      expect(offline.manager.subscribeCalls).toEqual([]);

      const noWorker = setup({ registered: false });
      expect(await noWorker.subs.refresh()).toBe('skipped');

      const refused = setup();
      refused.server.state.tokenStatus = 400;
      await expect(refused.subs.refresh()).rejects.toBeInstanceOf(ApiError);
      expect(refused.store.record).toBeUndefined();
    });
  });

  it('turning reminders off unsubscribes, tells the server the endpoint and forgets the record', async () => {
    const { server, manager, store, subs } = setup();
    await subs.subscribe();
    const sub = manager.current;
    await subs.unsubscribe();
    expect(sub?.unsubscribed).toBe(true);
    expect(await subs.isSubscribed()).toBe(false);
    expect(store.record).toBeUndefined();
    expect(server.state.posted.at(-1)).toEqual({ path: '/users/notificationToken/remove', body: { endpoint: 'https://push.example/send/1' } });
  });

  it('the staff area’s alerts use their own paths and leave the browser’s subscription to the patient’s reminders', async () => {
    const { server, manager, store, subs } = setup({ staff: true });
    await subs.subscribe();
    expect(server.state.posted.map((p) => p.path)).toEqual(['/admin/alerts/on']);
    const sub = manager.current;
    await subs.unsubscribe();
    expect(sub?.unsubscribed).not.toBe(true);
    expect(await subs.isSubscribed()).toBe(true);
    expect(store.record).toBeUndefined();
    expect(server.state.posted.at(-1)).toEqual({ path: '/admin/alerts/off', body: { endpoint: 'https://push.example/send/1' } });
  });

  it('turning off still unsubscribes when the server cannot be reached', async () => {
    const { server, manager, subs } = setup();
    await subs.subscribe();
    server.state.offline = true;
    await subs.unsubscribe();
    expect(manager.current).toBeNull();
  });

  it('logout forgets the record and the browser subscription without calling the server', async () => {
    const { server, manager, store, subs } = setup();
    await subs.subscribe();
    const calls = server.state.posted.length;
    await subs.forget();
    expect(store.record).toBeUndefined();
    expect(manager.current).toBeNull();
    expect(server.state.posted).toHaveLength(calls);
  });

  describe('with Firebase Cloud Messaging', () => {
    const firebase = { apiKey: 'api-key', projectId: 'eddy-test', messagingSenderId: '1234', appId: '1:1234:web:abc' };

    function fcmSetup() {
      const loaded: unknown[] = [];
      const tokens = { next: 'fcm-token-1' };
      const loader: FirebaseLoader = async (config) => {
        loaded.push(config);
        return { getToken: async () => tokens.next, deleteToken: async () => true };
      };
      const s = setup({ loadFirebase: loader });
      s.server.state.config = { provider: 'fcm', publicKey: KEY_A, firebase };
      return { ...s, loaded, tokens };
    }

    it('gets the token from the Firebase SDK with the server key and posts it as a string', async () => {
      const { server, store, subs, loaded } = fcmSetup();
      await subs.subscribe();
      expect(loaded).toEqual([firebase]);
      expect(tokenPosts(server.state.posted)[0]?.body).toEqual({ token: 'fcm-token-1', timeZone: 'Europe/Madrid', locale: 'es' });
      expect(store.record).toMatchObject({ provider: 'fcm', token: 'fcm-token-1' });
    });

    it('posts again when FCM hands out a new token, and removes it by token', async () => {
      const { server, subs, tokens } = fcmSetup();
      await subs.subscribe();
      expect(await subs.refresh()).toBe('unchanged');
      tokens.next = 'fcm-token-2';
      expect(await subs.refresh()).toBe('saved');
      await subs.unsubscribe();
      expect(server.state.posted.at(-1)).toEqual({ path: '/users/notificationToken/remove', body: { token: 'fcm-token-2' } });
    });

    it('is never loaded for Web Push', async () => {
      const { subs } = setup({
        loadFirebase: async () => {
          throw new Error('the Firebase SDK must not load for Web Push');
        },
      });
      await subs.subscribe();
      expect(await subs.refresh()).toBe('unchanged');
    });
  });

  it('keeps the record 30 days in the secure store as a security item', async () => {
    const { categoryOf, defaultMaxAge } = await import('./storage/secure-storage.ts');
    expect(categoryOf('fcmToken')).toBe('security');
    expect(defaultMaxAge('user', 'fcmToken')).toBe(30 * DAY);
  });
});
