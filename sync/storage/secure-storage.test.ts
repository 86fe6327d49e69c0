import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { destroyDataKey, encryptJson, getDataKey, sha256Hex } from './crypto.ts';
import {
  ADMIN_MAX_AGE_MS,
  CACHE_POLICY,
  ENVELOPE_VERSION,
  INTEGRITY_CHECK_INTERVAL_MS,
  MAX_READ_RETRIES,
  PUSH_TOKEN_MAX_AGE_MS,
  SESSION_TOKEN_MAX_AGE_MS,
  SecureStorage,
  USER_DATA_MAX_AGE_MS,
  WRITE_DEBOUNCE_MS,
  freshness,
  type Envelope,
  type KeyProvider,
  type StorageBackend,
} from './secure-storage.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Web Storage in memory that also remembers every string ever written, for the plain-text scan. */
class MemoryStorage implements StorageBackend {
  readonly items = new Map<string, string>();
  readonly written: string[] = [];
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.written.push(value);
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  /** Everything an attacker reading the disk could see: the current items and every past write. */
  rawText() {
    return JSON.stringify([...this.items]) + this.written.join('\n');
  }
}

// 43 base64url characters, like the server's tokens; unmistakable in a text scan.
const TOKEN = 'tok_Zq8vR3nW5yL1pK7mX2cB9dF4gH6jS0aE3uI8oQ_x';
const FCM = 'fcm-push-token-abcdefghijklmnopqrstuvwxyz0123';
const PROFILE = { name: 'Alice Able', hospNum: '200001', address: '12 Rosemary Lane', age: 57 };
const READINGS = [{ _id: 'r1', type: 'Fasting', value: 347, recordedAt: '2026-01-05T10:00:00.000Z' }];

// fake-indexeddb schedules with setImmediate; faking it would freeze the data key's database.
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

let mem: MemoryStorage;
let store: SecureStorage;

beforeEach(() => {
  mem = new MemoryStorage();
  store = new SecureStorage({ backend: mem, retryDelayMs: 0 });
});

afterEach(() => {
  store.stopIntegrityChecks();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const envelopeOf = (key: string): Envelope => JSON.parse(mem.getItem(key) ?? 'null') as Envelope;

/** Rewrites a stored envelope, with a correct hash, so only the seal can notice the change. */
async function rewrite(key: string, change: (e: Envelope) => void, hashKey = key) {
  const e = envelopeOf(key);
  change(e);
  e.integrity = await sha256Hex(JSON.stringify([hashKey, e.data, e.timestamp, e.category, e.version, e.maxAge, e.keyType]));
  mem.items.set(hashKey, JSON.stringify(e));
}

describe('secure storage envelope', () => {
  it('stores sealed envelopes with the spec fields and reads the values back', async () => {
    const before = Date.now();
    await Promise.all([
      store.set('user', 'token', TOKEN),
      store.set('user', 'fcmToken', FCM),
      store.set('user', 'profile', PROFILE),
      store.set('user', 'fglucoseReadings', READINGS),
      store.set('admin', 'token', TOKEN + 'A'),
      store.set('admin', 'userHospNo', '200001'),
    ]);
    expect([...mem.items.keys()].sort()).toEqual(['admin_token', 'admin_userHospNo', 'user_fcmToken', 'user_fglucoseReadings', 'user_profile', 'user_token']);

    const token = envelopeOf('user_token');
    expect(Object.keys(token).sort()).toEqual(['category', 'data', 'integrity', 'keyType', 'maxAge', 'timestamp', 'version']);
    expect(token).toMatchObject({ category: 'security', keyType: 'user', maxAge: SESSION_TOKEN_MAX_AGE_MS, version: ENVELOPE_VERSION });
    expect(token.integrity).toMatch(/^[0-9a-f]{64}$/);
    expect(token.timestamp).toBeGreaterThanOrEqual(before);
    expect(token.timestamp).toBeLessThanOrEqual(Date.now());
    expect(envelopeOf('user_fcmToken')).toMatchObject({ category: 'security', maxAge: PUSH_TOKEN_MAX_AGE_MS });
    expect(envelopeOf('user_profile')).toMatchObject({ category: 'medical', maxAge: USER_DATA_MAX_AGE_MS });
    expect(envelopeOf('admin_token')).toMatchObject({ category: 'security', keyType: 'admin', maxAge: ADMIN_MAX_AGE_MS });
    // docs/requirements.md §6: admin data persists with storage category security, not only the admin's token.
    expect(envelopeOf('admin_userHospNo')).toMatchObject({ category: 'security', keyType: 'admin', maxAge: ADMIN_MAX_AGE_MS });

    expect(await store.get('user', 'token')).toBe(TOKEN);
    expect(await store.get('user', 'fcmToken')).toBe(FCM);
    expect(await store.get('user', 'profile')).toEqual(PROFILE);
    expect(await store.get('user', 'fglucoseReadings')).toEqual(READINGS);
    expect(await store.get('admin', 'token')).toBe(TOKEN + 'A');
    expect(await store.get('user', 'nothing')).toBeUndefined();
  });

  it('never puts the token or a patient value into storage in plain form', async () => {
    await Promise.all([
      store.set('user', 'token', TOKEN),
      store.set('user', 'fcmToken', FCM),
      store.set('user', 'profile', PROFILE),
      store.set('user', 'fglucoseReadings', READINGS),
    ]);
    await store.set('user', 'profile', { ...PROFILE, age: 58 });
    const raw = mem.rawText();
    for (const secret of [TOKEN, FCM, 'Alice', 'Rosemary', '200001', 'Fasting', '2026-01-05']) expect(raw).not.toContain(secret);
    // Digits can occur inside base64 by chance; a plain number would stand alone.
    expect(raw).not.toMatch(/(?<![A-Za-z0-9_-])(347|57|58)(?![A-Za-z0-9_-])/);
  });

  it('lifetimes follow docs/requirements.md §9', () => {
    expect(SESSION_TOKEN_MAX_AGE_MS).toBe(7 * DAY);
    expect(ADMIN_MAX_AGE_MS).toBe(24 * HOUR);
    expect(PUSH_TOKEN_MAX_AGE_MS).toBe(30 * DAY);
    expect(INTEGRITY_CHECK_INTERVAL_MS).toBe(30 * MIN);
    expect(MAX_READ_RETRIES).toBe(3);
    expect(WRITE_DEBOUNCE_MS).toBe(100);
  });

  it('uses globalThis.localStorage when no backend is given', async () => {
    vi.stubGlobal('localStorage', mem);
    const onDefault = new SecureStorage();
    await onDefault.set('user', 'token', TOKEN);
    expect(mem.getItem('user_token')).not.toBeNull();
    expect(await onDefault.get('user', 'token')).toBe(TOKEN);
  });
});

describe('debounced writes', () => {
  it('writes 100 ms after the last set of a key, and reads see the new value at once', async () => {
    fakeTimers();
    const setItem = vi.spyOn(mem, 'setItem');
    const first = store.set('user', 'profile', PROFILE);
    expect(await store.get('user', 'profile')).toEqual(PROFILE);
    await vi.advanceTimersByTimeAsync(60);
    const changed = { ...PROFILE, address: '1 New Street' };
    const second = store.set('user', 'profile', changed);
    expect(await store.get('user', 'profile')).toEqual(changed);
    await vi.advanceTimersByTimeAsync(60);
    expect(setItem).not.toHaveBeenCalled(); // 120 ms since the first set, 60 since the last
    await vi.advanceTimersByTimeAsync(40);
    await Promise.all([first, second]);
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(await store.get('user', 'profile')).toEqual(changed);
  });

  it('debounces each key on its own', async () => {
    fakeTimers();
    const setItem = vi.spyOn(mem, 'setItem');
    const a = store.set('user', 'token', TOKEN);
    await vi.advanceTimersByTimeAsync(50);
    const b = store.set('user', 'fcmToken', FCM);
    await vi.advanceTimersByTimeAsync(50);
    await a;
    expect(setItem.mock.calls.map((c) => c[0])).toEqual(['user_token']);
    await vi.advanceTimersByTimeAsync(50);
    await b;
    expect(setItem.mock.calls.map((c) => c[0])).toEqual(['user_token', 'user_fcmToken']);
  });

  it('a read returns a copy, as storage would', async () => {
    const value = { list: [1, 2] };
    const written = store.set('user', 'profile', value);
    value.list.push(3);
    const read = await store.get<{ list: number[] }>('user', 'profile');
    expect(read).toEqual({ list: [1, 2] });
    read?.list.push(4);
    expect(await store.get('user', 'profile')).toEqual({ list: [1, 2] });
    await store.flush();
    await written;
    expect(await store.get('user', 'profile')).toEqual({ list: [1, 2] });
  });

  it('flush writes pending values at once', async () => {
    fakeTimers();
    const written = store.set('user', 'token', TOKEN);
    expect(mem.getItem('user_token')).toBeNull();
    await store.flush();
    await written;
    expect(mem.getItem('user_token')).not.toBeNull();
  });

  it('remove and clear cancel pending writes, even one being sealed', async () => {
    fakeTimers();
    const cancelled = store.set('user', 'profile', PROFILE);
    store.remove('user', 'profile');
    await vi.advanceTimersByTimeAsync(200);
    await cancelled;
    expect(mem.getItem('user_profile')).toBeNull();
    expect(await store.get('user', 'profile')).toBeUndefined();

    // The debounce has fired and sealing is under way when the clear comes.
    const sealing = store.set('user', 'token', TOKEN);
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    store.clear('user');
    await sealing;
    expect(mem.getItem('user_token')).toBeNull();
    expect(await store.get('user', 'token')).toBeUndefined();
  });

  it('a failed write is reported to the caller and does not linger as a pending value', async () => {
    const failing = new SecureStorage({
      backend: mem,
      keys: { get: () => Promise.reject(new Error('key store down')), find: () => Promise.resolve(undefined) },
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(failing.set('user', 'token', TOKEN)).rejects.toThrow('key store down');
    expect(error).toHaveBeenCalledWith('Secure storage write failed', expect.objectContaining({ key: 'user_token' }));
    expect(JSON.stringify(error.mock.calls)).not.toContain(TOKEN);
    expect(await failing.get('user', 'token')).toBeUndefined();
  });
});

describe('expiry', () => {
  it.each([
    ['user', 'token', SESSION_TOKEN_MAX_AGE_MS],
    ['user', 'fcmToken', PUSH_TOKEN_MAX_AGE_MS],
    ['user', 'profile', USER_DATA_MAX_AGE_MS],
    ['admin', 'token', ADMIN_MAX_AGE_MS],
    ['admin', 'admin', ADMIN_MAX_AGE_MS],
  ] as const)('%s_%s expires after %i ms and is removed when read', async (ns, name, maxAge) => {
    fakeTimers();
    const written = store.set(ns, name, 'value');
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    await written;
    vi.setSystemTime(Date.now() + maxAge - WRITE_DEBOUNCE_MS - 1);
    expect(await store.get(ns, name)).toBe('value');
    vi.setSystemTime(Date.now() + 1);
    expect(await store.get(ns, name)).toBeUndefined();
    expect(mem.getItem(`${ns}_${name}`)).toBeNull();
  });

  it('an item can carry its own max age', async () => {
    fakeTimers();
    const written = store.set('user', 'otp', 'x', { maxAge: 60_000 });
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    await written;
    expect(envelopeOf('user_otp').maxAge).toBe(60_000);
    vi.setSystemTime(Date.now() + 60_000);
    expect(await store.get('user', 'otp')).toBeUndefined();
  });

  it('getEvenExpired returns an item past its lifetime, marked so, and keeps it; get then removes it', async () => {
    fakeTimers();
    const written = store.set('user', 'token', TOKEN);
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    await written;
    expect(await store.getEvenExpired('user', 'token')).toEqual({ value: TOKEN, expired: false });
    // The device's clock 8 days on (or set ahead): the item's 7 days are over by that clock.
    vi.setSystemTime(Date.now() + 8 * DAY);
    expect(await store.getEvenExpired('user', 'token')).toEqual({ value: TOKEN, expired: true });
    expect(mem.getItem('user_token')).not.toBeNull();
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(mem.getItem('user_token')).toBeNull();
    expect(await store.getEvenExpired('user', 'token')).toBeUndefined();
  });
});

describe('tampering and failed reads', () => {
  let warn: MockInstance<Console['warn']>;
  beforeEach(async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await Promise.all([store.set('user', 'token', TOKEN), store.set('user', 'profile', PROFILE)]);
  });

  it('a changed metadata field breaks the integrity hash: the item is removed', async () => {
    const e = envelopeOf('user_token');
    e.maxAge = 365 * DAY; // an attempt to keep an old token alive
    mem.items.set('user_token', JSON.stringify(e));
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(mem.getItem('user_token')).toBeNull();
    expect(warn).toHaveBeenCalledWith('Secure storage item unreadable', { key: 'user_token', removed: true, error: 'integrity mismatch' });
  });

  it('changed data with a recomputed hash fails the seal: the item is removed', async () => {
    await rewrite('user_token', (e) => {
      e.data = e.data.slice(0, 30) + (e.data[30] === 'A' ? 'B' : 'A') + e.data.slice(31);
    });
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(mem.getItem('user_token')).toBeNull();
  });

  it('an envelope moved to another key does not open there', async () => {
    await rewrite('user_token', () => undefined, 'user_profile');
    expect(await store.get('user', 'profile')).toBeUndefined();
    expect(mem.getItem('user_profile')).toBeNull();
    const admin = envelopeOf('user_token');
    admin.keyType = 'admin';
    mem.items.set('admin_token', JSON.stringify(admin));
    expect(await store.get('admin', 'token')).toBeUndefined();
  });

  it('an envelope of another version, or no envelope at all, is removed', async () => {
    await rewrite('user_token', (e) => {
      e.version = 1;
    });
    expect(await store.get('user', 'token')).toBeUndefined();
    mem.items.set('user_name', '"Alice Able"');
    expect(await store.get('user', 'name')).toBeUndefined();
    expect(mem.getItem('user_name')).toBeNull();
  });

  it(`retries a failing read ${MAX_READ_RETRIES} times, then removes the item`, async () => {
    const getItem = vi.spyOn(mem, 'getItem').mockImplementation(() => {
      throw new Error('storage busy');
    });
    const removeItem = vi.spyOn(mem, 'removeItem');
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(getItem).toHaveBeenCalledTimes(1 + MAX_READ_RETRIES);
    expect(removeItem).toHaveBeenCalledWith('user_token');
    expect(mem.items.has('user_token')).toBe(false);
  });

  it('a read that succeeds on a retry returns the value and keeps the item', async () => {
    const real = mem.getItem.bind(mem);
    let failures = MAX_READ_RETRIES;
    vi.spyOn(mem, 'getItem').mockImplementation((key) => {
      if (failures-- > 0) throw new Error('storage busy');
      return real(key);
    });
    expect(await store.get('user', 'token')).toBe(TOKEN);
    expect(mem.items.has('user_token')).toBe(true);
  });

  it('retries when the key store fails for a moment', async () => {
    let failures = 2;
    const keys: KeyProvider = {
      get: getDataKey,
      find: () => (failures-- > 0 ? Promise.reject(new Error('IndexedDB busy')) : getDataKey()),
    };
    const flaky = new SecureStorage({ backend: mem, keys, retryDelayMs: 0 });
    expect(await flaky.get('user', 'token')).toBe(TOKEN);
  });

  it('waits between retries', async () => {
    fakeTimers();
    const slow = new SecureStorage({ backend: mem, retryDelayMs: 50 });
    const getItem = vi.spyOn(mem, 'getItem').mockImplementation(() => {
      throw new Error('storage busy');
    });
    const read = slow.get('user', 'token');
    await vi.advanceTimersByTimeAsync(49);
    expect(getItem).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(getItem).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(await read).toBeUndefined();
    expect(getItem).toHaveBeenCalledTimes(1 + MAX_READ_RETRIES);
  });

  it('after the data key is destroyed (logout, 401) nothing opens and the items are removed', async () => {
    await destroyDataKey();
    try {
      expect(await store.get('user', 'token')).toBeUndefined();
      expect(mem.getItem('user_token')).toBeNull();
      expect(await store.checkIntegrity()).toEqual({ checked: 1, removed: ['user_profile'] });
    } finally {
      await getDataKey();
    }
  });

  it('a read does not remove an item that was rewritten while it retried', async () => {
    const real = mem.getItem.bind(mem);
    let calls = 0;
    vi.spyOn(mem, 'getItem').mockImplementation((key) => {
      calls++;
      // Every read sees junk, then (the last check before removal) a good value from another tab.
      return calls <= 1 + MAX_READ_RETRIES ? 'junk' : real(key);
    });
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(mem.items.has('user_token')).toBe(true);
    expect(warn).toHaveBeenCalledWith('Secure storage item unreadable', expect.objectContaining({ removed: false }));
  });
});

describe('clear', () => {
  it('removes every item of one namespace only', async () => {
    mem.setItem('eddy-cookie-consent', '{"necessary":true}');
    mem.setItem('eddy_user_isLoading', 'false');
    await Promise.all([
      store.set('user', 'token', TOKEN),
      store.set('user', 'profile', PROFILE),
      store.set('admin', 'token', 'admin-token'),
      store.set('admin', 'userHospNo', '200001'),
    ]);
    const userPending = store.set('user', 'fcmToken', FCM);
    const adminPending = store.set('admin', 'admin', { email: 'a@b.c' });
    store.clear('user');
    await store.flush();
    await adminPending;
    await userPending; // settled by the clear, unwritten
    expect([...mem.items.keys()].sort()).toEqual(['admin_admin', 'admin_token', 'admin_userHospNo', 'eddy-cookie-consent', 'eddy_user_isLoading']);
    expect(await store.get('user', 'fcmToken')).toBeUndefined();
    expect(await store.get('admin', 'token')).toBe('admin-token');
    store.clear('admin');
    expect([...mem.items.keys()].sort()).toEqual(['eddy-cookie-consent', 'eddy_user_isLoading']);
  });
});

describe('integrity check', () => {
  it('removes bad and expired items and keeps good ones and foreign keys', async () => {
    fakeTimers();
    mem.setItem('eddy-cookie-consent', '{"necessary":true}');
    mem.setItem('c15t-consent', 'x');
    const writes = [
      store.set('user', 'token', TOKEN),
      store.set('user', 'profile', PROFILE),
      store.set('admin', 'token', 'a'),
      store.set('user', 'short', 1, { maxAge: 1000 }),
    ];
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    await Promise.all(writes);
    await rewrite('user_profile', (e) => {
      e.data = e.data.slice(0, -4) + 'AAAA';
    });
    mem.setItem('user_junk', '{not json');
    mem.setItem('admin_plain', JSON.stringify({ email: 'a@b.c' }));
    vi.setSystemTime(Date.now() + 1000);

    const report = await store.checkIntegrity();
    expect(report.checked).toBe(6);
    expect(report.removed.sort()).toEqual(['admin_plain', 'user_junk', 'user_profile', 'user_short']);
    expect([...mem.items.keys()].sort()).toEqual(['admin_token', 'c15t-consent', 'eddy-cookie-consent', 'user_token']);

    vi.setSystemTime(Date.now() + ADMIN_MAX_AGE_MS);
    expect((await store.checkIntegrity()).removed).toEqual(['admin_token']);
    expect(await store.get('user', 'token')).toBe(TOKEN);
  });

  it('removes nothing when the key store cannot be asked', async () => {
    await store.set('user', 'token', TOKEN);
    const blind = new SecureStorage({ backend: mem, keys: { get: getDataKey, find: () => Promise.reject(new Error('IndexedDB busy')) } });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await blind.checkIntegrity()).toEqual({ checked: 0, removed: [] });
    expect(mem.items.has('user_token')).toBe(true);
  });

  it('runs every 30 minutes once started, and not after stop', async () => {
    fakeTimers();
    const written = store.set('user', 'short', 1, { maxAge: MIN });
    await vi.advanceTimersByTimeAsync(WRITE_DEBOUNCE_MS);
    await written;
    const check = vi.spyOn(store, 'checkIntegrity');
    let reported: (r: unknown) => void = () => undefined;
    const report = new Promise((resolve) => (reported = resolve));
    store.startIntegrityChecks({ onReport: (r) => reported(r) });
    store.startIntegrityChecks(); // a second start does not add a second timer

    await vi.advanceTimersByTimeAsync(INTEGRITY_CHECK_INTERVAL_MS - 1);
    expect(check).not.toHaveBeenCalled();
    expect(mem.items.has('user_short')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(await report).toEqual({ checked: 1, removed: ['user_short'] });
    expect(mem.items.has('user_short')).toBe(false);

    await vi.advanceTimersByTimeAsync(INTEGRITY_CHECK_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(2);
    store.stopIntegrityChecks();
    await vi.advanceTimersByTimeAsync(3 * INTEGRITY_CHECK_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(2);
  });
});

describe('cache lifetimes', () => {
  it('holds the docs/requirements.md §9 policy', () => {
    expect(CACHE_POLICY).toEqual({
      medical: { maxAgeMs: 15 * MIN, refreshAfterMs: 10 * MIN, encrypted: true },
      preferences: { maxAgeMs: HOUR, refreshAfterMs: 45 * MIN, encrypted: false },
      reference: { maxAgeMs: 4 * HOUR, refreshAfterMs: 3 * HOUR, encrypted: false },
    });
  });

  it.each([
    ['medical', 10 * MIN, 15 * MIN],
    ['preferences', 45 * MIN, HOUR],
    ['reference', 3 * HOUR, 4 * HOUR],
  ] as const)('%s: fresh, then needs a refresh, then expired', (kind, refreshAfter, maxAge) => {
    const saved = 1_700_000_000_000;
    expect(freshness(saved, kind, saved)).toBe('fresh');
    expect(freshness(saved, kind, saved + refreshAfter - 1)).toBe('fresh');
    expect(freshness(saved, kind, saved + refreshAfter)).toBe('needs-refresh');
    expect(freshness(saved, kind, saved + maxAge - 1)).toBe('needs-refresh');
    expect(freshness(saved, kind, saved + maxAge)).toBe('expired');
  });

  it('treats a save time in the future as unknown age and a broken one as expired', () => {
    expect(freshness(2_000, 'medical', 1_000)).toBe('needs-refresh');
    expect(freshness(Number.NaN, 'medical', 1_000)).toBe('expired');
  });

  it('uses the current time by default', () => {
    expect(freshness(Date.now() - 11 * MIN, 'medical')).toBe('needs-refresh');
  });
});

describe('sealing', () => {
  it('is the crypto module’s AES-GCM bound to the storage key', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await store.set('user', 'token', TOKEN);
    const e = envelopeOf('user_token');
    // A value sealed for another key cannot be swapped in even with a correct hash.
    const foreign = await encryptJson(await getDataKey(), 'other', 'user_profile');
    await rewrite('user_token', (env) => {
      env.data = foreign;
    });
    expect(await store.get('user', 'token')).toBeUndefined();
    expect(e.data).not.toBe(foreign);
  });
});
