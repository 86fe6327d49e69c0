// Encryption at rest for RxDB (docs/architecture.md §4 "On the device"). RxDB's free crypto-js plugin derives
// its key from a password with MD5 and has no integrity check, so this wrapper does the same job with
// WebCrypto AES-GCM under the device's non-extractable data key (sync/crypto.ts).
//
// Per document, every path listed in the schema's `encrypted` array is moved into ONE sealed field.
// The GCM tag covers it, and the document's primary key is the additional data, so a ciphertext
// that is altered, read with another key, or copied into another document's row fails to open
// instead of yielding wrong values. What must stay readable for the storage to work (primary key,
// indexed fields, `_deleted`, `_meta`, `_rev`, `_attachments`) is never listed as encrypted.
//
// The inner storage therefore cannot evaluate selectors or sorts on encrypted fields. Queries that
// use them run in two steps: the inner storage answers the part of the selector on plain fields
// (a superset), and the rest is matched, sorted and paged here, on decrypted documents.
import {
  clone,
  deleteProperty,
  getPrimaryFieldOfPrimaryKey,
  getProperty,
  getQueryMatcher,
  getSortComparator,
  hasEncryption,
  prepareQuery,
  setProperty,
  wrapRxStorageInstance,
  type FilledMangoQuery,
  type MangoQuerySelector,
  type MangoQuerySortPart,
  type PreparedQuery,
  type RxDocumentData,
  type RxDocumentWriteData,
  type RxJsonSchema,
  type RxStorage,
  type RxStorageCountResult,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
  type RxStorageQueryResult,
} from 'rxdb';
import { decryptString, DecryptionError, encryptString } from '../../../sync/crypto.ts';
import { REPLICATION_META_TITLE } from './dexie-bulk-read.ts';

/**
 * The stored field that holds the encrypted paths of a document. One underscore: schema fields of
 * the app cannot start with one (RxDB reserves them), and RxDB's Dexie storage renames fields that
 * start with two.
 */
export const SEALED_FIELD = '_sealed';

export interface AesGcmStorageOptions<Internals, InstanceCreationOptions> {
  storage: RxStorage<Internals, InstanceCreationOptions>;
  /**
   * The AES-GCM key. Called for every document that is sealed or opened, so it must be cheap
   * (getDataKey caches its promise).
   */
  getKey: () => Promise<CryptoKey>;
}

/** Per collection and key; enough for years of readings, bounded so memory stays small. */
const MAX_CACHED_PLAINTEXTS = 20_000;

const META_DOC_FIELD = 'docData';

/** A sealed collection, as the meta storage of its replication needs it. */
interface SealedCollection {
  encrypted: readonly string[];
  /** The plaintext this collection last sealed or opened for a document, with its ciphertext. */
  cached(key: CryptoKey, id: string): { sealed: string; plain: string } | undefined;
}

type Json = Record<string, unknown>;
type Selector = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Does a field path of a selector or sort touch an encrypted path (equal, inside, or a parent)? */
function touchesPath(field: string, encrypted: readonly string[]): boolean {
  return encrypted.some((p) => field === p || field.startsWith(`${p}.`) || p.startsWith(`${field}.`));
}

/**
 * Whether a selector needs values the inner storage cannot see. Unknown top-level operators count
 * as touching, so they are never handed to a storage that would see only ciphertext.
 */
function selectorTouches(selector: Selector, encrypted: readonly string[]): boolean {
  return Object.entries(selector).some(([key, value]) => {
    if (key === '$and' || key === '$or' || key === '$nor') {
      return !Array.isArray(value) || value.some((s) => !isObject(s) || selectorTouches(s, encrypted));
    }
    if (key.startsWith('$')) return true;
    return touchesPath(key, encrypted);
  });
}

/**
 * The part of a selector the inner storage can evaluate. Top-level entries are ANDed, so dropping
 * any of them (or elements of a top-level $and) only widens the result; $or and $nor are kept only
 * when they are entirely about plain fields.
 */
function plainPartOf(selector: Selector, encrypted: readonly string[]): Selector {
  const out: Selector = {};
  for (const [key, value] of Object.entries(selector)) {
    if (key === '$and' && Array.isArray(value)) {
      const plain = value.filter((s) => isObject(s) && !selectorTouches(s, encrypted));
      if (plain.length > 0) out[key] = plain;
    } else if (!selectorTouches({ [key]: value }, encrypted)) {
      out[key] = value;
    }
  }
  return out;
}

const sortField = (part: Json): string => Object.keys(part)[0] ?? '';

/** Removes `path` from a JSON Schema's properties and required lists (nested paths too). */
function dropFromSchema(schema: Json, path: string): void {
  const parts = path.split('.');
  let level: Json | undefined = schema;
  for (const part of parts.slice(0, -1)) {
    const props: unknown = level?.['properties'];
    const next: unknown = isObject(props) ? props[part] : undefined;
    level = isObject(next) ? next : undefined;
  }
  const last = parts[parts.length - 1] ?? '';
  if (!level) return;
  const props = level['properties'];
  if (isObject(props)) delete props[last];
  const required = level['required'];
  if (Array.isArray(required)) level['required'] = required.filter((r) => r !== last);
}

/**
 * Wraps an RxStorage so that the fields a collection schema lists in `encrypted` are stored only
 * as AES-GCM ciphertext. Collections without encrypted fields pass through untouched.
 */
export function wrappedAesGcmStorage<Internals, InstanceCreationOptions>(
  args: AesGcmStorageOptions<Internals, InstanceCreationOptions>,
): RxStorage<Internals, InstanceCreationOptions> {
  const { storage, getKey } = args;
  // A replication's meta storage is made from its collection's schema: the `properties` of its
  // document copies are that schema's own object, which links the two.
  const collections = new WeakMap<object, SealedCollection>();
  return {
    ...storage,
    name: `aes-gcm-${storage.name}`,
    async createStorageInstance<RxDocType>(
      params: RxStorageInstanceCreationParams<RxDocType, InstanceCreationOptions>,
    ): Promise<RxStorageInstance<RxDocType, Internals, InstanceCreationOptions>> {
      const schema = params.schema;
      if (!hasEncryption(schema)) return storage.createStorageInstance(params);
      if (schema.attachments?.encrypted) {
        throw new Error(`${params.collectionName}: encrypted attachments are not supported by the AES-GCM storage`);
      }

      // RxDB's replication keeps a copy of each document as the server last had it, in a meta
      // storage that lists the whole copy (`docData`) as encrypted. Sealed whole, each copy cost a
      // second WebCrypto call per pulled document, with the same values the document itself had
      // just been sealed with (bench: firstSync10kMs). So a copy is sealed as its document is: the
      // same paths, the same plaintext, bound to the document's id, and its document's ciphertext
      // is reused when the plaintext is the same. Its plain fields are stored as plainly as the
      // document's own. Copies sealed whole before stay readable (no `docData` in the row).
      const isMeta = schema.title === REPLICATION_META_TITLE;
      const docDataSchema: unknown = isMeta ? (schema.properties as unknown as Json)[META_DOC_FIELD] : undefined;
      const parent = isObject(docDataSchema) && isObject(docDataSchema['properties']) ? collections.get(docDataSchema['properties']) : undefined;
      const prefix = parent ? `${META_DOC_FIELD}.` : '';
      const wholeCopy: readonly string[] = [...(schema.encrypted ?? [])];
      const encrypted: readonly string[] = parent ? parent.encrypted.map((p) => prefix + p) : wholeCopy;
      const primaryPath = getPrimaryFieldOfPrimaryKey(schema.primaryKey) as string;
      const indexed = [primaryPath, ...(schema.indexes ?? []).flatMap((i) => (typeof i === 'string' ? [i] : [...i]))];
      const clash = indexed.find((field) => touchesPath(field, encrypted));
      // An index over ciphertext would be useless at best and leak order at worst.
      if (clash) throw new Error(`${params.collectionName}: "${clash}" is indexed or the primary key and cannot be encrypted`);
      // Whole top-level fields can be moved with a flat copy; only nested paths need a deep one
      // (a copy's `docData` only a flat one, when its collection's paths are all top-level).
      const nestedRoots = [...new Set(encrypted.filter((p) => p.includes('.')).map((p) => p.split('.')[0] ?? p))];
      const flatRoots = parent && !parent.encrypted.some((p) => p.includes('.'));
      const copyRoots = (doc: Json) => {
        for (const root of nestedRoots) if (isObject(doc[root])) doc[root] = flatRoots ? { ...doc[root] } : clone(doc[root]);
      };

      // What the inner storage holds: the plain fields plus the sealed one, and no `encrypted`
      // (RxDB storages refuse schemas that still ask for encryption).
      const innerSchemaJson = clone(schema) as unknown as Json;
      delete innerSchemaJson['encrypted'];
      for (const path of encrypted) dropFromSchema(innerSchemaJson, path);
      const innerProps = innerSchemaJson['properties'];
      if (isObject(innerProps)) innerProps[SEALED_FIELD] = { type: 'string' };
      const innerRequired = innerSchemaJson['required'];
      innerSchemaJson['required'] = [...(Array.isArray(innerRequired) ? innerRequired : []), SEALED_FIELD];
      const innerSchema = innerSchemaJson as unknown as RxJsonSchema<RxDocumentData<RxDocType>>;

      const instance = await storage.createStorageInstance<RxDocType>({ ...params, schema: innerSchema });

      const docIdOf = (doc: Json): string => {
        const id = doc[primaryPath];
        if (typeof id !== 'string' || id === '') throw new Error(`${params.collectionName}: document without a primary key`);
        return id;
      };

      // WebCrypto costs tens of microseconds per call, which would dominate every re-run of a
      // query. Plaintexts already authenticated are therefore kept by document id together with
      // the exact ciphertext they came from (a fresh IV makes each ciphertext unique), per key: a
      // different key, an altered or a moved ciphertext never hits the cache and is decrypted (and
      // refused) again. Keyed by the short id, not id and ciphertext, a lookup hashes a few bytes,
      // and a document's new version replaces its old entry.
      const plainCache = new WeakMap<CryptoKey, Map<string, { sealed: string; plain: string }>>();
      const remember = (key: CryptoKey, id: string, sealed: string, plain: string) => {
        let cache = plainCache.get(key);
        if (!cache) plainCache.set(key, (cache = new Map()));
        if (cache.size >= MAX_CACHED_PLAINTEXTS && !cache.has(id)) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(id, { sealed, plain });
      };

      /** The id a document's sealed field is bound to: its own, or for a copy, its document's. */
      const boundIdOf = (doc: Json, copy: boolean): string => {
        if (!copy) return docIdOf(doc);
        const itemId = doc['itemId'];
        if (typeof itemId !== 'string' || itemId === '') throw new Error(`${params.collectionName}: document copy without its document's id`);
        return itemId;
      };

      async function seal(docData: RxDocumentWriteData<RxDocType>): Promise<RxDocumentData<RxDocType>> {
        const doc: Json = { ...(docData as unknown as Json) };
        copyRoots(doc);
        const secret: Json = {};
        for (const path of encrypted) {
          const value: unknown = getProperty(doc, path);
          if (value === undefined) continue;
          secret[path.slice(prefix.length)] = value;
          if (path.includes('.')) deleteProperty(doc, path);
          else delete doc[path];
        }
        const id = docIdOf(doc);
        // A checkpoint row of the meta storage has no copy: it is sealed under its own id.
        const bound = boundIdOf(doc, parent !== undefined && isObject(doc[META_DOC_FIELD]));
        const key = await getKey();
        let plain = JSON.stringify(secret);
        const same = bound === id ? undefined : parent?.cached(key, bound);
        let sealed: string;
        if (same?.plain === plain) {
          sealed = same.sealed;
          plain = same.plain;
        } else {
          // Sealed even when empty, so a row whose sealed field was stripped is detected on read.
          sealed = await encryptString(key, plain, bound);
        }
        doc[SEALED_FIELD] = sealed;
        remember(key, id, sealed, plain);
        return doc as unknown as RxDocumentData<RxDocType>;
      }

      async function open(stored: RxDocumentData<unknown>): Promise<RxDocumentData<RxDocType>> {
        // A copy without the sealed field (not `delete`d: that leaves V8 a slower object for every later read).
        const { [SEALED_FIELD]: sealed, ...doc } = stored as unknown as Json;
        const id = docIdOf(doc);
        if (typeof sealed !== 'string') throw new DecryptionError(`${params.collectionName}/${id}: sealed data missing`);
        // How this row was sealed: a copy sealed as its document, or as a whole (older rows, checkpoints).
        const asDocument = isMeta && isObject(doc[META_DOC_FIELD]);
        if (asDocument && !parent) throw new DecryptionError(`${params.collectionName}/${id}: a document copy whose collection is unknown`);
        const paths = isMeta && !asDocument ? wholeCopy : encrypted;
        const keyPrefix = asDocument ? prefix : '';
        const bound = boundIdOf(doc, asDocument);
        const key = await getKey();
        const cached = plainCache.get(key)?.get(id) ?? (asDocument ? parent?.cached(key, bound) : undefined);
        let plain = cached?.sealed === sealed ? cached.plain : undefined;
        if (plain === undefined) {
          try {
            plain = await decryptString(key, sealed, bound);
          } catch (err) {
            throw new DecryptionError(`${params.collectionName}/${id}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
          }
          remember(key, id, sealed, plain);
        }
        // Parsed on every read: callers get their own objects, never ones shared through the cache.
        const secret: unknown = JSON.parse(plain);
        if (!isObject(secret)) throw new DecryptionError(`${params.collectionName}/${id}: sealed data malformed`);
        copyRoots(doc);
        // Plain values that a tampered row might carry at encrypted paths are discarded, never shown.
        for (const path of paths) {
          if (path.includes('.')) deleteProperty(doc, path);
          else delete doc[path];
        }
        for (const path of paths) {
          const name = path.slice(keyPrefix.length);
          if (!(name in secret)) continue;
          if (path.includes('.')) setProperty(doc, path, secret[name]);
          else doc[path] = secret[name];
        }
        return doc as unknown as RxDocumentData<RxDocType>;
      }

      if (!isMeta) collections.set(schema.properties, { encrypted, cached: (key, docId) => plainCache.get(key)?.get(docId) });

      const wrapped = wrapRxStorageInstance<RxDocType>(schema, instance, seal, open);
      const openAll = (docs: RxDocumentData<unknown>[]) => Promise.all(docs.map(open));

      /** Runs a query that needs encrypted values: plain part inside, the rest on decrypted docs. */
      async function queryOverDecrypted(query: FilledMangoQuery<RxDocType>): Promise<RxDocumentData<RxDocType>[]> {
        const selector = query.selector as unknown as Selector;
        const sort = query.sort as unknown as Json[];
        const plainSort: Json[] = [];
        for (const part of sort) {
          if (touchesPath(sortField(part), encrypted)) break;
          plainSort.push(part);
        }
        if (!plainSort.some((p) => sortField(p) === primaryPath)) plainSort.push({ [primaryPath]: 'asc' });
        const innerQuery: FilledMangoQuery<RxDocType> = {
          selector: plainPartOf(selector, encrypted) as MangoQuerySelector<RxDocumentData<RxDocType>>,
          sort: plainSort as unknown as MangoQuerySortPart<RxDocType>[],
          skip: 0,
          ...(query.index ? { index: query.index } : {}),
        };
        const result = await instance.query(prepareQuery(innerSchema, innerQuery));
        const matches = getQueryMatcher(schema, query);
        let docs = (await openAll(result.documents)).filter((d) => matches(d));
        // The inner order is right unless the sort itself needs encrypted values.
        if (sort.some((p) => touchesPath(sortField(p), encrypted))) {
          docs = docs.sort(getSortComparator(schema, query));
        }
        const skip = query.skip ?? 0;
        return docs.slice(skip, typeof query.limit === 'number' ? skip + query.limit : undefined);
      }

      const needsDecryptedQuery = (query: FilledMangoQuery<RxDocType>): boolean =>
        selectorTouches(query.selector as unknown as Selector, encrypted) ||
        (query.sort as unknown as Json[]).some((p) => touchesPath(sortField(p), encrypted));

      const plainQuery = wrapped.query;
      wrapped.query = async (prepared: PreparedQuery<RxDocType>): Promise<RxStorageQueryResult<RxDocType>> =>
        needsDecryptedQuery(prepared.query) ? { documents: await queryOverDecrypted(prepared.query) } : plainQuery(prepared);

      const plainCount = wrapped.count;
      wrapped.count = async (prepared: PreparedQuery<RxDocType>): Promise<RxStorageCountResult> =>
        needsDecryptedQuery(prepared.query) ? { count: (await queryOverDecrypted(prepared.query)).length, mode: 'slow' } : plainCount(prepared);

      return wrapped;
    },
  };
}
