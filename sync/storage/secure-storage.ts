// The secure store for session items (docs/requirements.md §3 envelope, §9 secure storage). It lives in
// localStorage because the session must be at hand at start-up (auto-login), before RxDB has
// loaded; but docs/requirements.md §11 forbids any token or patient value in plain form in browser storage, so
// every value is sealed with the device's data key (AES-GCM, bound to its storage key) and only the
// envelope's metadata is readable.
//
// The integrity hash is a plain SHA-256, not a MAC: anything that can rewrite localStorage runs in
// our origin and could use the non-extractable key just as well, so a keyed hash would add nothing.
// What the hash does catch is a corrupted or hand-edited envelope (e.g. a maxAge stretched to keep
// an old token alive); the data itself is covered by the GCM tag.
import { inBackground } from '../background.ts';
import { log } from '../log.ts';

// The ciphers and the key store (crypto.ts, with Dexie) load on the first read of an item that
// exists or the first write: a device with nothing stored (the login page of a first visit or
// after a logout) never loads them (the performance budget of the login route).
const cryptoModule = () => import('./crypto.ts');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The two stores share localStorage; the namespace is the key prefix (`user_…`, `admin_…`). */
export type Namespace = 'user' | 'admin';
export const NAMESPACES: readonly Namespace[] = ['user', 'admin'];

export type StorageCategory = 'security' | 'medical';

export const SESSION_TOKEN_MAX_AGE_MS = 7 * DAY;
/** The other patient items follow the newer store's 7 days (the old one kept data 24 h). */
export const USER_DATA_MAX_AGE_MS = 7 * DAY;
export const ADMIN_MAX_AGE_MS = 24 * HOUR;
export const PUSH_TOKEN_MAX_AGE_MS = 30 * DAY;
export const INTEGRITY_CHECK_INTERVAL_MS = 30 * MINUTE;
/** Retries after the first failed read; after them the item is removed. */
export const MAX_READ_RETRIES = 3;
export const WRITE_DEBOUNCE_MS = 100;
/**
 * Envelope format version. An envelope of any other version (e.g. the old plain-text store) cannot
 * be trusted to be sealed, so it is treated as bad and removed.
 */
export const ENVELOPE_VERSION = 2;

/** Items that grant access rather than describe the patient (docs/requirements.md §9). */
export const SECURITY_ITEMS: ReadonlySet<string> = new Set(['token', 'fcmToken']);

export interface Envelope {
  /** The value sealed with the data key, additional data = the storage key. */
  data: string;
  /** sha256Hex over the storage key, `data` and every metadata field below. */
  integrity: string;
  /** When the value was written (ms since epoch); the item expires at timestamp + maxAge. */
  timestamp: number;
  category: StorageCategory;
  version: number;
  maxAge: number;
  /** Which store's item this is; must match the key prefix. */
  keyType: Namespace;
}

/** The part of the Web Storage API the store uses, so tests can pass an in-memory one. */
export type StorageBackend = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export interface KeyProvider {
  /** The key for sealing; created when missing. */
  get(): Promise<CryptoKey>;
  /** The key for opening; never created, since a new key could not open anything anyway. */
  find(): Promise<CryptoKey | undefined>;
}

export interface SecureStorageOptions {
  /** Default: `globalThis.localStorage`, looked up on use so importing works where it is missing. */
  backend?: StorageBackend;
  keys?: KeyProvider;
  debounceMs?: number;
  /** Pause before each read retry. */
  retryDelayMs?: number;
}

export interface SetOptions {
  /** Overrides the lifetime the namespace and item name imply. */
  maxAge?: number;
}

export interface IntegrityReport {
  checked: number;
  /** Storage keys that were removed as bad or expired. */
  removed: string[];
}

export interface IntegrityCheckOptions {
  intervalMs?: number;
  /** Called after every periodic check, e.g. to end the session when its token was removed. */
  onReport?: (report: IntegrityReport) => void;
}

export const storageKey = (namespace: Namespace, name: string): string => `${namespace}_${name}`;

/** docs/requirements.md §6/§9: everything the staff area keeps is category security; a patient's token and push token too. */
export const categoryOf = (name: string, namespace: Namespace = 'user'): StorageCategory =>
  namespace === 'admin' || SECURITY_ITEMS.has(name) ? 'security' : 'medical';

export function defaultMaxAge(namespace: Namespace, name: string): number {
  if (namespace === 'admin') return ADMIN_MAX_AGE_MS;
  if (name === 'fcmToken') return PUSH_TOKEN_MAX_AGE_MS;
  if (name === 'token') return SESSION_TOKEN_MAX_AGE_MS;
  return USER_DATA_MAX_AGE_MS;
}

const namespaceOf = (key: string): Namespace | undefined => NAMESPACES.find((ns) => key.startsWith(`${ns}_`));

const integrityOf = (key: string, e: Omit<Envelope, 'integrity'>): Promise<string> =>
  // An array fixes the field order, so the same envelope always hashes the same.
  cryptoModule().then((c) => c.sha256Hex(JSON.stringify([key, e.data, e.timestamp, e.category, e.version, e.maxAge, e.keyType])));

const isEnvelope = (v: unknown): v is Envelope => {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e['data'] === 'string' &&
    typeof e['integrity'] === 'string' &&
    typeof e['timestamp'] === 'number' &&
    Number.isFinite(e['timestamp']) &&
    (e['category'] === 'security' || e['category'] === 'medical') &&
    typeof e['version'] === 'number' &&
    typeof e['maxAge'] === 'number' &&
    Number.isFinite(e['maxAge']) &&
    (e['keyType'] === 'user' || e['keyType'] === 'admin')
  );
};

type Verdict = { status: 'ok'; value: unknown } | { status: 'expired'; value?: unknown };

/**
 * Opens one stored envelope. Throws when it is unreadable (malformed, foreign version, tampered,
 * wrong or missing key); an expired item is not an error, just gone (its value is opened only when
 * `openExpired` asks for it).
 */
async function openEnvelope(key: string, raw: string, dataKey: CryptoKey | undefined, now: number, openExpired = false): Promise<Verdict> {
  const parsed: unknown = JSON.parse(raw);
  if (!isEnvelope(parsed)) throw new Error('not an envelope');
  if (parsed.version !== ENVELOPE_VERSION) throw new Error(`envelope version ${parsed.version}`);
  if (parsed.keyType !== namespaceOf(key)) throw new Error('key type does not match the key');
  const { integrity, ...rest } = parsed;
  if ((await integrityOf(key, rest)) !== integrity) throw new Error('integrity mismatch');
  const expired = now >= parsed.timestamp + parsed.maxAge;
  if (expired && !openExpired) return { status: 'expired' };
  if (!dataKey) throw new Error('no data key');
  const value = await (await cryptoModule()).decryptJson<unknown>(dataKey, parsed.data, key);
  return expired ? { status: 'expired', value } : { status: 'ok', value };
}

interface Pending {
  value: unknown;
  timestamp: number;
  maxAge: number;
  category: StorageCategory;
  namespace: Namespace;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the debounce has fired and sealing has started. */
  writing: Promise<void> | undefined;
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// The value a reader gets before the write lands must look exactly like the one it gets after.
const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

export class SecureStorage {
  readonly #backend: StorageBackend | undefined;
  readonly #keys: KeyProvider;
  readonly #debounceMs: number;
  readonly #retryDelayMs: number;
  readonly #pending = new Map<string, Pending>();
  #checkTimer: ReturnType<typeof setInterval> | undefined;
  #checking: Promise<void> | undefined;

  constructor(opts: SecureStorageOptions = {}) {
    this.#backend = opts.backend;
    this.#keys = opts.keys ?? { get: async () => (await cryptoModule()).getDataKey(), find: async () => (await cryptoModule()).findDataKey() };
    this.#debounceMs = opts.debounceMs ?? WRITE_DEBOUNCE_MS;
    this.#retryDelayMs = opts.retryDelayMs ?? 50;
  }

  #store(): StorageBackend {
    const store = this.#backend ?? (globalThis as { localStorage?: Storage }).localStorage;
    if (!store) throw new Error('secure storage: no localStorage in this context');
    return store;
  }

  /**
   * Stores a value; the write happens 100 ms after the last set of the same key. Reads see the new
   * value at once. The promise settles when the value is in storage (or was superseded by a later
   * set, remove or clear); it rejects when sealing or storing fails, and is safe to ignore.
   */
  set(namespace: Namespace, name: string, value: unknown, opts: SetOptions = {}): Promise<void> {
    if (value === undefined) {
      this.remove(namespace, name);
      return Promise.resolve();
    }
    const key = storageKey(namespace, name);
    let p = this.#pending.get(key);
    if (!p || p.writing) {
      // A write already being sealed keeps its waiters; this value gets a fresh entry.
      p = { value: undefined, timestamp: 0, maxAge: 0, category: categoryOf(name, namespace), namespace, timer: undefined, writing: undefined, waiters: [] };
      this.#pending.set(key, p);
    }
    p.value = asStored(value);
    p.timestamp = Date.now();
    p.maxAge = opts.maxAge ?? defaultMaxAge(namespace, name);
    if (p.timer !== undefined) clearTimeout(p.timer);
    const entry = p;
    entry.timer = setTimeout(() => inBackground(this.#write(key, entry), 'Secure storage write failed'), this.#debounceMs);
    const done = new Promise<void>((resolve, reject) => entry.waiters.push({ resolve, reject }));
    done.catch(() => undefined); // callers may fire and forget; the failure is logged in #write
    return done;
  }

  async #write(key: string, p: Pending): Promise<void> {
    p.timer = undefined;
    const run = (async () => {
      const dataKey = await this.#keys.get();
      const rest: Omit<Envelope, 'integrity'> = {
        data: await (await cryptoModule()).encryptJson(dataKey, p.value, key),
        timestamp: p.timestamp,
        category: p.category,
        version: ENVELOPE_VERSION,
        maxAge: p.maxAge,
        keyType: p.namespace,
      };
      const envelope: Envelope = { ...rest, integrity: await integrityOf(key, rest) };
      // A remove, clear or newer set during sealing wins: writing now would resurrect old data.
      if (this.#pending.get(key) !== p) return;
      this.#store().setItem(key, JSON.stringify(envelope));
      this.#pending.delete(key);
    })();
    p.writing = run;
    try {
      await run;
      for (const w of p.waiters) w.resolve();
    } catch (err) {
      if (this.#pending.get(key) === p) this.#pending.delete(key);
      log.error('Secure storage write failed', { key, error: err instanceof Error ? err.message : String(err) });
      for (const w of p.waiters) w.reject(err);
    }
  }

  /** Writes every debounced value now (before logout, page hide, tests). */
  async flush(): Promise<void> {
    const runs: Promise<void>[] = [];
    for (const [key, p] of this.#pending) {
      if (p.timer !== undefined) {
        clearTimeout(p.timer);
        runs.push(this.#write(key, p));
      } else if (p.writing) {
        runs.push(p.writing.catch(() => undefined));
      }
    }
    await Promise.all(runs);
  }

  /**
   * The value, or undefined when missing or expired. A read that fails is retried up to
   * MAX_READ_RETRIES times (another tab may be rewriting the item, the key store may be busy); an
   * item that still cannot be read is removed, so a broken item costs one slow read, not every one.
   */
  async get<T>(namespace: Namespace, name: string): Promise<T | undefined> {
    const found = await this.#read<T>(namespace, name, false);
    return found && !found.expired ? found.value : undefined;
  }

  /**
   * Like get, but an item past its lifetime by the device's clock is returned too, marked expired,
   * and left in place: for an item whose end is decided elsewhere. The session token is one: the
   * server decides whether the session still holds, since the device's clock may be wrong (set
   * ahead), and a session that did end must be said to have ended, not silently vanish.
   */
  async getEvenExpired<T>(namespace: Namespace, name: string): Promise<{ value: T; expired: boolean } | undefined> {
    return this.#read<T>(namespace, name, true);
  }

  async #read<T>(namespace: Namespace, name: string, keepExpired: boolean): Promise<{ value: T; expired: boolean } | undefined> {
    const key = storageKey(namespace, name);
    let lastRaw: string | null = null;
    let lastError: unknown;
    for (let attempt = 0; attempt <= MAX_READ_RETRIES; attempt++) {
      if (attempt > 0 && this.#retryDelayMs > 0) await sleep(this.#retryDelayMs);
      const p = this.#pending.get(key);
      if (p) return { value: asStored(p.value) as T, expired: false };
      try {
        lastRaw = this.#store().getItem(key);
        if (lastRaw === null) return undefined;
        const verdict = await openEnvelope(key, lastRaw, await this.#keys.find(), Date.now(), keepExpired);
        if (verdict.status === 'expired' && !keepExpired) {
          this.#removeIfUnchanged(key, lastRaw);
          return undefined;
        }
        return { value: verdict.value as T, expired: verdict.status === 'expired' };
      } catch (err) {
        lastError = err;
      }
    }
    const removed = this.#removeIfUnchanged(key, lastRaw);
    log.warn('Secure storage item unreadable', { key, removed, error: lastError instanceof Error ? lastError.message : String(lastError) });
    return undefined;
  }

  /**
   * Removes the item only if it still holds what was judged bad: a set from this or another tab
   * may have replaced it meanwhile. `expected` null means the item could not even be read.
   */
  #removeIfUnchanged(key: string, expected: string | null): boolean {
    try {
      const store = this.#store();
      if (this.#pending.has(key)) return false;
      if (expected !== null && store.getItem(key) !== expected) return false;
      store.removeItem(key);
      return true;
    } catch (err) {
      log.warn('Secure storage item could not be removed', { key, error: err instanceof Error ? err.message : String(err) });
      return false;
    }
  }

  remove(namespace: Namespace, name: string): void {
    const key = storageKey(namespace, name);
    this.#cancel(key);
    this.#store().removeItem(key);
  }

  /** Removes every item of one store (logout, 401), including values not yet written. */
  clear(namespace: Namespace): void {
    const prefix = `${namespace}_`;
    for (const key of [...this.#pending.keys()]) if (key.startsWith(prefix)) this.#cancel(key);
    const store = this.#store();
    for (const key of this.#ourKeys(store)) if (key.startsWith(prefix)) store.removeItem(key);
  }

  #cancel(key: string): void {
    const p = this.#pending.get(key);
    if (!p) return;
    this.#pending.delete(key);
    if (p.timer !== undefined) {
      clearTimeout(p.timer);
      for (const w of p.waiters) w.resolve();
    }
    // A write being sealed sees that it is no longer pending and settles its own waiters.
  }

  // Collected first: removing while walking key(i) would skip items.
  #ourKeys(store: StorageBackend): string[] {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i);
      if (k !== null && namespaceOf(k)) keys.push(k);
    }
    return keys;
  }

  /** One integrity check over all items of both stores: removes bad and expired ones. */
  async checkIntegrity(): Promise<IntegrityReport> {
    const store = this.#store();
    const keys = this.#ourKeys(store);
    let dataKey: CryptoKey | undefined;
    try {
      dataKey = await this.#keys.find();
    } catch (err) {
      // Not knowing the key is not evidence against the items; judge them next time.
      log.warn('Secure storage integrity check skipped', { error: err instanceof Error ? err.message : String(err) });
      return { checked: 0, removed: [] };
    }
    const now = Date.now();
    const removed: string[] = [];
    for (const key of keys) {
      const raw = store.getItem(key);
      if (raw === null) continue;
      let bad: boolean;
      try {
        bad = (await openEnvelope(key, raw, dataKey, now)).status === 'expired';
      } catch {
        bad = true;
      }
      if (bad && !this.#pending.has(key) && store.getItem(key) === raw) {
        store.removeItem(key);
        removed.push(key);
      }
    }
    return { checked: keys.length, removed };
  }

  /** Runs checkIntegrity every 30 minutes; calling it again while running changes nothing. */
  startIntegrityChecks(opts: IntegrityCheckOptions = {}): void {
    if (this.#checkTimer !== undefined) return;
    this.#checkTimer = setInterval(() => {
      if (this.#checking) return; // a slow check must not pile up behind itself
      this.#checking = this.checkIntegrity()
        .then((report) => opts.onReport?.(report))
        .catch((err: unknown) => log.error('Secure storage integrity check failed', { error: err instanceof Error ? err.message : String(err) }))
        .finally(() => {
          this.#checking = undefined;
        });
    }, opts.intervalMs ?? INTEGRITY_CHECK_INTERVAL_MS);
  }

  stopIntegrityChecks(): void {
    if (this.#checkTimer !== undefined) clearInterval(this.#checkTimer);
    this.#checkTimer = undefined;
  }
}

/** The app's store, on localStorage and the device's data key. */
export const secureStorage = new SecureStorage();

/** One sealed item of the store, read, written and removed by name (a push token record, say). */
export const sealedItem = <T>(namespace: Namespace, name: string) => ({
  get: () => secureStorage.get<T>(namespace, name),
  set: (value: T) => secureStorage.set(namespace, name, value),
  remove: () => secureStorage.remove(namespace, name),
});

// ---- Cache lifetimes (docs/requirements.md §9) ---------------------------------------------------------------

export type CacheKind = 'medical' | 'preferences' | 'reference';

export interface CachePolicy {
  /** After this the copy is out of date (shown as such; never silently dropped while offline). */
  maxAgeMs: number;
  /** After this a refresh is due, while the copy still counts as current. */
  refreshAfterMs: number;
  /** Whether the cached copy must be stored encrypted. */
  encrypted: boolean;
}

export const CACHE_POLICY: Readonly<Record<CacheKind, Readonly<CachePolicy>>> = {
  medical: { maxAgeMs: 15 * MINUTE, refreshAfterMs: 10 * MINUTE, encrypted: true },
  preferences: { maxAgeMs: HOUR, refreshAfterMs: 45 * MINUTE, encrypted: false },
  reference: { maxAgeMs: 4 * HOUR, refreshAfterMs: 3 * HOUR, encrypted: false },
};

export type Freshness = 'fresh' | 'needs-refresh' | 'expired';

/**
 * How current a copy saved at `savedAt` is. A save time in the future means the clock moved
 * back, so the age is unknown: refresh, but do not call the data expired. An unusable save time
 * (NaN) means nothing is known about the copy: expired.
 */
export function freshness(savedAt: number, kind: CacheKind, now: number = Date.now()): Freshness {
  if (!Number.isFinite(savedAt) || !Number.isFinite(now)) return 'expired';
  const age = now - savedAt;
  const policy = CACHE_POLICY[kind];
  if (age < 0) return 'needs-refresh';
  if (age >= policy.maxAgeMs) return 'expired';
  if (age >= policy.refreshAfterMs) return 'needs-refresh';
  return 'fresh';
}
