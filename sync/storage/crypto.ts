// The device's data key: AES-GCM 256, random, created with WebCrypto as NON-extractable and kept in
// IndexedDB as a CryptoKey object. Script can use it but never read its bytes, so no storage holds
// the key in plain form. Everything patient-related at rest (RxDB fields, the session token, the
// outbox) is sealed with it. A confirmed logout deletes it, which makes any leftover ciphertext junk;
// a 401 keeps it for the same patient's next login (sync/parking.ts sets it aside for another patient).
import { Dexie, type Table } from 'dexie';

const KEY_DB = 'eddy-keys';
const KEY_ID = 'data-key';
const IV_BYTES = 12;

class KeyDatabase extends Dexie {
  /** `tag`: which key this is (see `keyTag`); keys made before it was kept have none. */
  keys!: Table<{ id: string; key: CryptoKey; tag?: string }, string>;
  constructor() {
    super(KEY_DB);
    this.version(1).stores({ keys: 'id' });
  }
}

let keyDb: KeyDatabase | undefined;
let cached: Promise<CryptoKey> | undefined;
const db = () => (keyDb ??= new KeyDatabase());

/**
 * Each read of the stored key gives another CryptoKey object, and its bytes cannot be read: the
 * random tag stored beside it at its creation says which key a read gave, the same for every read
 * of one key, another for any other (a new key after a logout, in this context or another).
 */
const tags = new WeakMap<CryptoKey, string>();
function tagged(found: { key: CryptoKey; tag?: string }): CryptoKey {
  if (found.tag !== undefined) tags.set(found.key, found.tag);
  return found.key;
}

/** The stored key, given a tag if it was made before tags were kept (a tag given twice at once: the first stays). */
async function storedKey(): Promise<CryptoKey | undefined> {
  const found = await db().keys.get(KEY_ID);
  if (!found || found.tag !== undefined) return found ? tagged(found) : undefined;
  const tag = crypto.randomUUID();
  await db()
    .keys.where('id')
    .equals(KEY_ID)
    .modify((row) => {
      row.tag ??= tag;
    });
  const again = await db().keys.get(KEY_ID);
  return again ? tagged(again) : undefined;
}

/** Which stored data key `key` is (see `tags`); undefined for a key without a tag (made before tags, or parked). */
export function keyTag(key: CryptoKey): string | undefined {
  return tags.get(key);
}

/** The data key, created on first use. Concurrent callers share one creation. */
export function getDataKey(): Promise<CryptoKey> {
  cached ??= (async () => {
    const found = await storedKey();
    if (found) return found;
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const made = { id: KEY_ID, key, tag: crypto.randomUUID() };
    // add() fails if another tab created a key in the meantime: then use that one.
    try {
      await db().keys.add(made);
      return tagged(made);
    } catch {
      const other = await db().keys.get(KEY_ID);
      if (!other) throw new Error('data key could not be stored');
      return tagged(other);
    }
  })().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/** The data key if one exists, without creating it (e.g. in the service worker after logout). */
export async function findDataKey(): Promise<CryptoKey | undefined> {
  return storedKey();
}

export async function destroyDataKey(): Promise<void> {
  cached = undefined;
  await db().keys.delete(KEY_ID);
}

/**
 * Sets the data key aside under a new id (another patient logs in on this device while entries of
 * the locked one are unsent, sync/parking.ts): what it sealed stays readable for its owner only.
 * The next getDataKey() creates a fresh key. Returns the id, or undefined when there was no key.
 */
export async function parkDataKey(): Promise<string | undefined> {
  const id = `parked-${crypto.randomUUID()}`;
  const moved = await db().transaction('rw', db().keys, async () => {
    const found = await db().keys.get(KEY_ID);
    if (!found) return false;
    await db().keys.add({ id, key: found.key });
    await db().keys.delete(KEY_ID);
    return true;
  });
  cached = undefined;
  return moved ? id : undefined;
}

export async function findParkedKey(id: string): Promise<CryptoKey | undefined> {
  return (await db().keys.get(id))?.key;
}

export async function deleteParkedKey(id: string): Promise<void> {
  await db().keys.delete(id);
}

// base64url without padding, through a lookup table: no atob/btoa, no character replacing, one
// pass (sealing and opening thousands of documents spent a tenth of their time in the codec). Not
// the browser's own Uint8Array.fromBase64/toBase64: with them the service worker sometimes missed
// a reminder push, cause not found (docs/findings.md, "Found and reverted").
const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64_ALPHABET.charCodeAt(i)] = i;

const B64_CODES = Uint8Array.from(B64_ALPHABET, (c) => c.charCodeAt(0));
// The characters are written as ASCII bytes and turned into a string at once: appending them to a
// string one by one cost a third of a second per first pull once documents were sealed in groups of
// some 40 KB (bench: firstSync10kMs). Bytes below 0x80 read the same in latin1 as in ASCII.
const asciiDecoder = new TextDecoder('latin1');
const toB64 = (bytes: Uint8Array): string => {
  const n = bytes.length;
  const whole = n - (n % 3);
  const out = new Uint8Array((whole / 3) * 4 + (n === whole ? 0 : n - whole + 1));
  let o = 0;
  const code = (sextet: number) => B64_CODES[sextet] ?? 0;
  for (let i = 0; i < whole; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o++] = code(v >> 18);
    out[o++] = code((v >> 12) & 63);
    out[o++] = code((v >> 6) & 63);
    out[o++] = code(v & 63);
  }
  if (n - whole === 1) {
    const v = (bytes[whole] ?? 0) << 16;
    out[o++] = code(v >> 18);
    out[o] = code((v >> 12) & 63);
  } else if (n - whole === 2) {
    const v = ((bytes[whole] ?? 0) << 16) | ((bytes[whole + 1] ?? 0) << 8);
    out[o++] = code(v >> 18);
    out[o++] = code((v >> 12) & 63);
    out[o] = code((v >> 6) & 63);
  }
  return asciiDecoder.decode(out);
};

/** Throws on a character outside base64url or an impossible length, as atob does. */
const fromB64 = (text: string): Uint8Array<ArrayBuffer> => {
  const n = text.length;
  if (n % 4 === 1) throw new Error('base64url text of an impossible length');
  const sextet = (i: number): number => {
    const c = text.charCodeAt(i);
    const v = c < 128 ? (B64_VALUE[c] ?? -1) : -1;
    if (v < 0) throw new Error('not base64url');
    return v;
  };
  const out = new Uint8Array((n * 3) >> 2);
  const whole = n - (n % 4);
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const v = (sextet(i) << 18) | (sextet(i + 1) << 12) | (sextet(i + 2) << 6) | sextet(i + 3);
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 255;
    out[o++] = v & 255;
  }
  if (n - whole >= 2) {
    const v = (sextet(whole) << 18) | (sextet(whole + 1) << 12) | (n - whole === 3 ? sextet(whole + 2) << 6 : 0);
    out[o++] = v >> 16;
    if (n - whole === 3) out[o] = (v >> 8) & 255;
  }
  return out;
};
/** For the tests: the codec above against Node's. */
export const base64url = { encode: toB64, decode: fromB64 };

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export class DecryptionError extends Error {}

// IVs are taken from a pool of random bytes filled 4,096 IVs at a time: each is used once, and
// one getRandomValues() call per sealed document cost as much as a tenth of sealing a first pull.
const IVS_PER_FILL = 4096;
let ivPool = new Uint8Array(0);
let ivNext = 0;
function freshIv(): Uint8Array<ArrayBuffer> {
  if (ivNext + IV_BYTES > ivPool.length) {
    // A new buffer: the IVs already handed out keep the old one.
    ivPool = crypto.getRandomValues(new Uint8Array(IV_BYTES * IVS_PER_FILL));
    ivNext = 0;
  }
  const iv = ivPool.subarray(ivNext, ivNext + IV_BYTES);
  ivNext += IV_BYTES;
  return iv;
}

/** AES-GCM with a fresh 96-bit IV per message; the result is base64url(iv ‖ ciphertext+tag). */
export async function encryptString(key: CryptoKey, plain: string, additionalData?: string): Promise<string> {
  const iv = freshIv();
  const params: AesGcmParams = { name: 'AES-GCM', iv };
  if (additionalData) params.additionalData = encodedId(additionalData);
  const ct = new Uint8Array(await crypto.subtle.encrypt(params, key, utf8Encoder.encode(plain)));
  const packed = new Uint8Array(IV_BYTES + ct.length);
  packed.set(iv);
  packed.set(ct, IV_BYTES);
  return toB64(packed);
}

/**
 * Reverses encryptString. The GCM tag makes tampering, a wrong key or a wrong `additionalData`
 * (used to bind a ciphertext to its document id) fail loudly instead of yielding garbage.
 */
export function decryptString(key: CryptoKey, packed: string, additionalData?: string): Promise<string> {
  const refused = (err: unknown) => new DecryptionError(`decryption failed: ${err instanceof Error ? err.name : String(err)}`);
  // Not an async function: opening thousands of documents at once, its promises and the copy of
  // each document id were a third of the time spent outside WebCrypto (bench: encryptedQueryRatio).
  try {
    const bytes = fromB64(packed);
    // Views, not copies: WebCrypto copies its inputs when called, so the id's bytes can be written
    // into the same scratch buffer for every call.
    const params: AesGcmParams = { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) };
    if (additionalData) params.additionalData = encodedId(additionalData);
    return crypto.subtle.decrypt(params, key, bytes.subarray(IV_BYTES)).then(
      (plain) => utf8Decoder.decode(plain),
      (err: unknown) => {
        throw refused(err);
      },
    );
  } catch (err) {
    return Promise.reject(refused(err));
  }
}

const idScratch = new Uint8Array(1024);
/** UTF-8 of a document id, in a buffer reused by the next call (for WebCrypto, which copies it at once). */
function encodedId(text: string): Uint8Array<ArrayBuffer> {
  const { read, written } = utf8Encoder.encodeInto(text, idScratch);
  return read === text.length ? idScratch.subarray(0, written) : utf8Encoder.encode(text);
}

export async function encryptJson(key: CryptoKey, value: unknown, additionalData?: string): Promise<string> {
  return encryptString(key, JSON.stringify(value), additionalData);
}

export async function decryptJson<T>(key: CryptoKey, packed: string, additionalData?: string): Promise<T> {
  return JSON.parse(await decryptString(key, packed, additionalData)) as T;
}

/** SHA-256 hex of a string (integrity hashes of stored envelopes). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}
