// Encryption at rest for RxDB (docs/architecture.md §4 "On the device"). RxDB's free crypto-js plugin derives
// its key from a password with MD5 and has no integrity check, so this wrapper does the same job with
// WebCrypto AES-GCM under the device's non-extractable data key (sync/storage/crypto.ts).
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
  type BulkWriteRow,
  type EventBulk,
  type RxStorageBulkWriteResponse,
  type RxStorageChangeEvent,
  type RxStorageWriteError,
  type RxJsonSchema,
  type RxStorage,
  type RxStorageCountResult,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
  type RxStorageQueryResult,
} from 'rxdb';
import { decryptString, DecryptionError, encryptString } from './crypto.ts';
import { BehaviorSubject, concatMap, filter, firstValueFrom, tap } from 'rxjs';
import { REPLICATION_META_TITLE } from './dexie-bulk-read.ts';
import { groupAdditionalData, groupRef, newGroupId, parseGroupRef, SEALED_FIELD, sealedGroupsOf } from './sealed-groups.ts';

export { SEALED_FIELD };

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

/**
 * A write of at least this many documents is sealed in groups (sealed-groups.ts), when the inner
 * storage keeps them; a smaller one, as the patient's own entries are, one document at a time.
 */
export const GROUP_MIN = 8;
/**
 * Documents per group at most. A read of one document decrypts its whole group (some 40 KB at
 * this size, well under a millisecond), and a group is freed only once none of its rows refers to it.
 */
export const GROUP_MAX = 250;
/** Decrypted groups kept per collection and key: 10,000 readings fill 40. */
const MAX_CACHED_GROUPS = 100;

/** A sealed collection, as the meta storage of its replication needs it. */
interface SealedCollection {
  encrypted: readonly string[];
  /** The plaintext this collection last sealed or opened for a document, with its ciphertext. */
  cached(key: CryptoKey, id: string): { sealed: string; plain: string } | undefined;
}

type Json = Record<string, unknown>;
type Selector = Record<string, unknown>;

/**
 * This wrapper moves fields by path for every collection alike, so it handles documents, selectors
 * and sorts as plain JSON objects: what RxDB's generic types say about them adds nothing here.
 */
const asJson = (value: object): Json => value as Json;
/**
 * A row put together here (the caller's fields, or the plain ones and the sealed field) handed to
 * RxDB as the document type it asked for: RxDB checks rows against the collection's JSON schema,
 * which says more than a generic type parameter could.
 */
// eslint-disable-next-line no-restricted-syntax -- see above: a JSON object becomes the collection's row type
const asRow = <T>(doc: Json): RxDocumentData<T> => doc as unknown as RxDocumentData<T>;

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

const sortField = (part: object): string => Object.keys(part)[0] ?? '';

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
      const docDataSchema: unknown = isMeta ? asJson(schema.properties)[META_DOC_FIELD] : undefined;
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
      const innerSchemaJson = asJson(clone(schema));
      delete innerSchemaJson['encrypted'];
      for (const path of encrypted) dropFromSchema(innerSchemaJson, path);
      const innerProps = innerSchemaJson['properties'];
      if (isObject(innerProps)) innerProps[SEALED_FIELD] = { type: 'string' };
      const innerRequired = innerSchemaJson['required'];
      innerSchemaJson['required'] = [...(Array.isArray(innerRequired) ? innerRequired : []), SEALED_FIELD];
      // The collection's own schema, less the encrypted paths and plus the sealed field.
      // eslint-disable-next-line no-restricted-syntax -- built from the collection's RxJsonSchema by the edits above
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

      /** A document taken apart: its row without the encrypted paths, and their values as JSON. */
      interface Part {
        doc: Json;
        id: string;
        /** The id its sealed field is bound to. */
        bound: string;
        plain: string;
      }
      const split = (docData: object): Part => {
        const doc: Json = { ...asJson(docData) };
        copyRoots(doc);
        const secret: Json = {};
        for (const path of encrypted) {
          const value: unknown = getProperty(doc, path);
          if (value === undefined) continue;
          secret[path.slice(prefix.length)] = value;
          if (path.includes('.')) deleteProperty(doc, path);
          else delete doc[path];
        }
        // A checkpoint row of the meta storage has no copy: it is sealed under its own id.
        // Sealed even when empty, so a row whose sealed field was stripped is detected on read.
        return { doc, id: docIdOf(doc), bound: boundIdOf(doc, parent !== undefined && isObject(doc[META_DOC_FIELD])), plain: JSON.stringify(secret) };
      };

      const groups = sealedGroupsOf(instance);

      /** Seals each part alone, or a large write's parts in groups; `staged` receives the groups to unstage. */
      async function sealParts(parts: Part[], key: CryptoKey, staged: string[]): Promise<void> {
        if (groups && parts.length >= GROUP_MIN) {
          const size = Math.ceil(parts.length / Math.ceil(parts.length / GROUP_MAX));
          const chunks: Part[][] = [];
          for (let i = 0; i < parts.length; i += size) chunks.push(parts.slice(i, i + size));
          await Promise.all(
            chunks.map(async (chunk) => {
              const groupId = newGroupId();
              const sealed = await encryptString(key, JSON.stringify(chunk.map((p) => [p.bound, p.plain])), groupAdditionalData(groupId));
              groups.stage(groupId, sealed);
              staged.push(groupId);
              chunk.forEach((p, index) => (p.doc[SEALED_FIELD] = groupRef(groupId, index)));
            }),
          );
        } else {
          await Promise.all(
            parts.map(async (p) => {
              // A copy reuses its document's own ciphertext; not a reference into the document's
              // group, which is kept with the document's rows and not with the copies'.
              const same = p.bound === p.id ? undefined : parent?.cached(key, p.bound);
              if (same?.plain === p.plain && !parseGroupRef(same.sealed)) {
                p.doc[SEALED_FIELD] = same.sealed;
                p.plain = same.plain;
              } else {
                p.doc[SEALED_FIELD] = await encryptString(key, p.plain, p.bound);
              }
            }),
          );
        }
        for (const p of parts) remember(key, p.id, p.doc[SEALED_FIELD] as string, p.plain);
      }

      async function seal(docData: RxDocumentWriteData<RxDocType>): Promise<RxDocumentData<RxDocType>> {
        const part = split(docData);
        await sealParts([part], await getKey(), []);
        return asRow<RxDocType>(part.doc);
      }

      // The groups opened lately, per key: the rows of one group are mostly read together, and each
      // group is read from storage and decrypted once for all of them.
      type Member = [boundId: string, plain: string];
      const isMemberList = (value: unknown): value is Member[] =>
        Array.isArray(value) && value.every((m) => Array.isArray(m) && m.length === 2 && typeof m[0] === 'string' && typeof m[1] === 'string');
      const openedGroups = new WeakMap<CryptoKey, Map<string, Promise<Member[]>>>();
      /** The members of each group asked for, or why it cannot be opened; those not opened lately are read from storage together. */
      async function openGroups(key: CryptoKey, groupIds: readonly string[]): Promise<Map<string, Member[] | Error>> {
        let opened = openedGroups.get(key);
        if (!opened) openedGroups.set(key, (opened = new Map()));
        const cache = opened;
        // Each group's loading, taken before this call evicts anything: a read of more groups than
        // the cache keeps evicts some of its own (or ones it found cached) while it adds the others.
        const loads = new Map<string, Promise<Member[]>>();
        for (const id of groupIds) {
          const known = cache.get(id);
          if (known) loads.set(id, known);
        }
        const missing = groupIds.filter((id) => !loads.has(id));
        const store = groups;
        const reading: Promise<(string | undefined)[]> =
          missing.length === 0
            ? Promise.resolve([])
            : store
              ? store.read(missing)
              : Promise.reject(new DecryptionError('sealed in a group, but this storage keeps no groups'));
        missing.forEach((groupId, i) => {
          const loading = (async () => {
            const sealed = (await reading)[i];
            if (sealed === undefined) throw new DecryptionError(`sealed group ${groupId} is not stored`);
            const members: unknown = JSON.parse(await decryptString(key, sealed, groupAdditionalData(groupId)));
            if (!isMemberList(members)) throw new DecryptionError(`sealed group ${groupId} malformed`);
            return members;
          })();
          loads.set(groupId, loading);
          cache.set(groupId, loading);
          loading.catch(() => {
            if (cache.get(groupId) === loading) cache.delete(groupId);
          });
          if (cache.size > MAX_CACHED_GROUPS) {
            const oldest = cache.keys().next();
            if (!oldest.done) cache.delete(oldest.value);
          }
        });
        const settled = await Promise.allSettled(groupIds.map((id) => loads.get(id) as Promise<Member[]>));
        return new Map(
          groupIds.map((id, i) => {
            const s = settled[i] as PromiseSettledResult<Member[]>;
            return [id, s.status === 'fulfilled' ? s.value : s.reason instanceof Error ? s.reason : new DecryptionError(String(s.reason))];
          }),
        );
      }

      /** A stored row, taken apart for opening. */
      interface Stored {
        doc: Json;
        id: string;
        sealed: string;
        /** The id its sealed field is bound to. */
        bound: string;
        /** Sealed as its document is (a replication's copy), or as a whole. */
        asDocument: boolean;
      }
      const takeApart = (stored: RxDocumentData<unknown>): Stored => {
        // A copy without the sealed field (not `delete`d: that leaves V8 a slower object for every later read).
        const { [SEALED_FIELD]: sealed, ...doc } = asJson(stored);
        const id = docIdOf(doc);
        if (typeof sealed !== 'string') throw new DecryptionError(`${params.collectionName}/${id}: sealed data missing`);
        // How this row was sealed: a copy sealed as its document, or as a whole (older rows, checkpoints).
        const asDocument = isMeta && isObject(doc[META_DOC_FIELD]);
        if (asDocument && !parent) throw new DecryptionError(`${params.collectionName}/${id}: a document copy whose collection is unknown`);
        return { doc, id, sealed, bound: boundIdOf(doc, asDocument), asDocument };
      };
      const unreadable = (row: Stored, err: unknown) =>
        new DecryptionError(`${params.collectionName}/${row.id}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });

      /** The row with its sealed values put back. */
      const assemble = (row: Stored, plain: string): RxDocumentData<RxDocType> => {
        const { doc, id } = row;
        const paths = isMeta && !row.asDocument ? wholeCopy : encrypted;
        const keyPrefix = row.asDocument ? prefix : '';
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
        return asRow<RxDocType>(doc);
      };

      /**
       * Opens stored rows, in order. Done for all of them at once (bench: encryptedQueryRatio): the
       * key is asked for once, the groups they refer to are read in one go and each decrypted once,
       * and only rows sealed alone wait on WebCrypto each.
       */
      async function openMany(stored: readonly RxDocumentData<unknown>[]): Promise<RxDocumentData<RxDocType>[]> {
        if (stored.length === 0) return [];
        const key = await getKey();
        const rows = stored.map(takeApart);
        const known = plainCache.get(key);
        const plains = rows.map((row) => {
          const cached = known?.get(row.id) ?? (row.asDocument ? parent?.cached(key, row.bound) : undefined);
          return cached?.sealed === row.sealed ? cached.plain : undefined;
        });
        const refs = rows.map((row, i) => (plains[i] === undefined ? parseGroupRef(row.sealed) : undefined));
        const groupIds = [...new Set(refs.flatMap((ref) => (ref ? [ref.groupId] : [])))];
        const opened = groupIds.length === 0 ? new Map<string, Member[] | Error>() : await openGroups(key, groupIds);
        const alone: Promise<void>[] = [];
        rows.forEach((row, i) => {
          if (plains[i] !== undefined) return;
          const ref = refs[i];
          if (!ref) {
            alone.push(
              decryptString(key, row.sealed, row.bound).then(
                (plain) => {
                  plains[i] = plain;
                  remember(key, row.id, row.sealed, plain);
                },
                (err: unknown) => {
                  throw unreadable(row, err);
                },
              ),
            );
            return;
          }
          const members = opened.get(ref.groupId);
          const member = members instanceof Error ? undefined : members?.[ref.index];
          // The group's id is its additional data and each member names its document: a reference
          // moved to another row, or to another place in the group, is refused. Refused through
          // `alone`, whose decryptions under way are then still awaited (none rejects unhandled).
          if (member?.[0] !== row.bound) {
            const why = members instanceof Error ? members : new DecryptionError(`sealed group ${ref.groupId} does not hold this document at ${ref.index}`);
            alone.push(Promise.reject(unreadable(row, why)));
            return;
          }
          plains[i] = member[1];
          remember(key, row.id, row.sealed, member[1]);
        });
        await Promise.all(alone);
        return rows.map((row, i) => assemble(row, plains[i] as string));
      }
      const open = async (stored: RxDocumentData<unknown>): Promise<RxDocumentData<RxDocType>> => (await openMany([stored]))[0] as RxDocumentData<RxDocType>;

      if (!isMeta) collections.set(schema.properties, { encrypted, cached: (key, docId) => plainCache.get(key)?.get(docId) });

      const wrapped = wrapRxStorageInstance<RxDocType>(schema, instance, seal, open);

      // Writes are sealed as a whole (so that a large one can be sealed in groups), and what the
      // inner storage hands back in change events and errors is the caller's own data again.
      const originals = new WeakMap<object, RxDocumentData<RxDocType>>();
      const processing = new BehaviorSubject(0);
      wrapped.bulkWrite = async (writes: BulkWriteRow<RxDocType>[], context: string): Promise<RxStorageBulkWriteResponse<RxDocType>> => {
        const key = await getKey();
        // The version before each change goes into the change events, which other tabs receive
        // as stored and must open: it carries the sealed data it was read
        // with when that is known (no new encryption), else it is sealed alone. Looked up before
        // the new versions are sealed, which replace the cached entries.
        const known = plainCache.get(key);
        const befores = writes.map((row) => {
          if (!row.previous) return undefined;
          const part = split(row.previous);
          const cached = known?.get(part.id);
          if (cached?.plain === part.plain) part.doc[SEALED_FIELD] = cached.sealed;
          return part;
        });
        const parts = writes.map((row) => split(row.document));
        const staged: string[] = [];
        let result: RxStorageBulkWriteResponse<RxDocType>;
        try {
          await Promise.all(
            befores.map(async (part) => {
              if (part && part.doc[SEALED_FIELD] === undefined) part.doc[SEALED_FIELD] = await encryptString(key, part.plain, part.bound);
            }),
          );
          await sealParts(parts, key, staged);
          const rows = writes.map((row, i): BulkWriteRow<unknown> => {
            const document = asRow<unknown>((parts[i] as Part).doc);
            originals.set(document, row.document);
            const before = befores[i];
            if (!row.previous || !before) return { document };
            // This tab's own change events get the caller's objects back.
            originals.set(before.doc, row.previous);
            return { previous: asRow<unknown>(before.doc), document };
          });
          result = await instance.bulkWrite(rows as BulkWriteRow<RxDocType>[], context);
        } finally {
          for (const groupId of staged) groups?.unstage(groupId);
        }
        const asked = new Map(writes.map((row) => [docIdOf(asJson(row.document)), row]));
        const error = await Promise.all(
          result.error.map(async (err): Promise<RxStorageWriteError<RxDocType>> => {
            const writeRow = asked.get(err.documentId) ?? err.writeRow;
            return 'documentInDb' in err ? { ...err, writeRow, documentInDb: await open(err.documentInDb) } : { ...err, writeRow };
          }),
        );
        // Change events are emitted before a write resolves (RxDB's rule), also when opening them waits.
        await firstValueFrom(processing.pipe(filter((n) => n === 0)));
        return { error };
      };
      /** Each document as the caller knows it: this tab's own writes as written, others opened together. */
      async function plainsOf(docs: readonly (RxDocumentData<RxDocType> | undefined)[]): Promise<(RxDocumentData<RxDocType> | undefined)[]> {
        const sealed = docs.filter((doc): doc is RxDocumentData<RxDocType> => doc !== undefined && !originals.has(doc));
        const opened = await openMany(sealed);
        const byRow = new Map<object, RxDocumentData<RxDocType>>(sealed.map((doc, i) => [doc, opened[i] as RxDocumentData<RxDocType>]));
        return docs.map((doc) => (doc ? (originals.get(doc) ?? byRow.get(doc)) : doc));
      }
      wrapped.changeStream = () =>
        instance.changeStream().pipe(
          tap(() => processing.next(processing.getValue() + 1)),
          // In the order they came: opened concurrently, a later bulk that opened first was handed on
          // before an earlier one (the full unit run under load: another tab saw a group's updates
          // before the update written ahead of them), and two changes of one document would arrive
          // newest first.
          concatMap(async (bulk: EventBulk<RxStorageChangeEvent<RxDocType>, unknown>) => {
            const plain = await plainsOf(bulk.events.flatMap((event) => [event.documentData, event.previousDocumentData]));
            const events = bulk.events.map(
              (event, i) =>
                // Each event as it was, with its documents opened: its operation says which it has.
                // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the union's members differ only in which documents an operation has
                ({
                  operation: event.operation,
                  documentId: event.documentId,
                  documentData: plain[2 * i],
                  previousDocumentData: plain[2 * i + 1],
                  isLocal: false,
                }) as RxStorageChangeEvent<RxDocumentData<RxDocType>>,
            );
            return { id: bulk.id, events, checkpoint: bulk.checkpoint, context: bulk.context };
          }),
          tap(() => processing.next(processing.getValue() - 1)),
        );
      // Every read opens its rows together (openMany), not one by one as RxDB's wrapper does.
      wrapped.findDocumentsById = async (ids, withDeleted) => openMany(await instance.findDocumentsById(ids, withDeleted));
      const changedSince = instance.getChangedDocumentsSince?.bind(instance);
      if (changedSince) {
        wrapped.getChangedDocumentsSince = async (limit, checkpoint) => {
          const result = await changedSince(limit, checkpoint);
          return { checkpoint: result.checkpoint, documents: await openMany(result.documents) };
        };
      }

      /** Runs a query that needs encrypted values: plain part inside, the rest on decrypted docs. */
      async function queryOverDecrypted(query: FilledMangoQuery<RxDocType>): Promise<RxDocumentData<RxDocType>[]> {
        const selector = asJson(query.selector);
        const sort = query.sort;
        const plainSort: Json[] = [];
        for (const part of sort) {
          if (touchesPath(sortField(part), encrypted)) break;
          plainSort.push(part);
        }
        if (!plainSort.some((p) => sortField(p) === primaryPath)) plainSort.push({ [primaryPath]: 'asc' });
        const innerQuery: FilledMangoQuery<RxDocType> = {
          selector: plainPartOf(selector, encrypted) as MangoQuerySelector<RxDocumentData<RxDocType>>,
          sort: plainSort as MangoQuerySortPart<RxDocType>[],
          skip: 0,
          ...(query.index ? { index: query.index } : {}),
        };
        const result = await instance.query(prepareQuery(innerSchema, innerQuery));
        const matches = getQueryMatcher(schema, query);
        let docs = (await openMany(result.documents)).filter((d) => matches(d));
        // The inner order is right unless the sort itself needs encrypted values.
        if (sort.some((p) => touchesPath(sortField(p), encrypted))) {
          docs = docs.sort(getSortComparator(schema, query));
        }
        const skip = query.skip ?? 0;
        return docs.slice(skip, typeof query.limit === 'number' ? skip + query.limit : undefined);
      }

      const needsDecryptedQuery = (query: FilledMangoQuery<RxDocType>): boolean =>
        selectorTouches(query.selector, encrypted) || query.sort.some((p) => touchesPath(sortField(p), encrypted));

      wrapped.query = async (prepared: PreparedQuery<RxDocType>): Promise<RxStorageQueryResult<RxDocType>> => ({
        documents: needsDecryptedQuery(prepared.query) ? await queryOverDecrypted(prepared.query) : await openMany((await instance.query(prepared)).documents),
      });

      const plainCount = wrapped.count;
      wrapped.count = async (prepared: PreparedQuery<RxDocType>): Promise<RxStorageCountResult> =>
        needsDecryptedQuery(prepared.query) ? { count: (await queryOverDecrypted(prepared.query)).length, mode: 'slow' } : plainCount(prepared);

      return wrapped;
    },
  };
}
