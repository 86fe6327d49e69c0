// Runs in Chromium for `encryptedQueryRatio` (scripts/bench/encrypted-query.ts), bundled by Vite: the
// glucose collection on the app's storage (Dexie under the AES-GCM wrapper) and on the same Dexie
// storage without it, holding the same readings, asked the same 90-day query.
import { createRxDatabase, type RxCollection, type RxJsonSchema } from 'rxdb';
import { getRxStorageDexieBulkRead } from '../../sync/storage/dexie-bulk-read.ts';
import type { GlucoseReading } from '../../schemas/glucose.ts';
import { glucoseCollectionSchema } from '../../sync/storage/collections.ts';
import { wrappedAesGcmStorage } from '../../sync/storage/encrypted-storage.ts';

const DAY_MS = 86_400_000;
const TYPES = ['Fasting', 'Postprandial', 'Random'] as const;

export interface QueryTimings {
  /** Milliseconds of each cold query (a database just opened), in the order run. */
  encrypted: number[];
  plain: number[];
  /** Readings the 90-day query returned (the same on both). */
  matched: number;
}

function readings(count: number, now: number): GlucoseReading[] {
  // About a reading every 47 minutes, going back from now: 10,000 span some 326 days.
  return Array.from({ length: count }, (_, i) => ({
    _id: crypto.randomUUID(),
    type: TYPES[i % 3] ?? 'Random',
    value: 70 + ((i * 37) % 200),
    recordedAt: new Date(now - (i + 1) * 47 * 60_000).toISOString(),
    updatedAt: new Date(now - i * 47 * 60_000).toISOString(),
    version: i + 1,
  }));
}

async function open(name: string, encrypted: boolean, key: CryptoKey) {
  const dexie = getRxStorageDexieBulkRead();
  const storage = encrypted ? wrappedAesGcmStorage({ storage: dexie, getKey: () => Promise.resolve(key) }) : dexie;
  // Version 0: a database made here has nothing to migrate (the app's schema version needs the migration plugin).
  const schema = { ...glucoseCollectionSchema, version: 0 } as RxJsonSchema<GlucoseReading> & { encrypted?: string[] };
  if (!encrypted) delete schema.encrypted;
  const db = await createRxDatabase<{ glucose: RxCollection<GlucoseReading> }>({ name, storage, multiInstance: false });
  await db.addCollections({ glucose: { schema } });
  return db;
}

/** The trend's longest period and the report's usual one: every reading of the last 90 days, oldest first. */
async function ninetyDays(collection: RxCollection<GlucoseReading>, now: number): Promise<number> {
  const docs = await collection.find({ selector: { recordedAt: { $gte: new Date(now - 90 * DAY_MS).toISOString() } }, sort: [{ recordedAt: 'asc' }] }).exec();
  // What a screen does with them: read every field.
  let sum = 0;
  for (const d of docs) sum += d.value + d.type.length;
  if (Number.isNaN(sum)) throw new Error('unreadable readings');
  return docs.length;
}

async function run(count: number, rounds: number): Promise<QueryTimings> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const now = Date.now();
  const docs = readings(count, now);
  for (const encrypted of [true, false]) {
    const db = await open(encrypted ? 'bench-encrypted' : 'bench-plain', encrypted, key);
    for (let i = 0; i < docs.length; i += 1000) await db.glucose.bulkInsert(docs.slice(i, i + 1000));
    await db.close();
  }
  const out: QueryTimings = { encrypted: [], plain: [], matched: 0 };
  // Alternating, each on a database just opened: nothing read before is cached, as after a reload.
  for (let r = 0; r < rounds; r++) {
    for (const encrypted of r % 2 === 0 ? [true, false] : [false, true]) {
      const db = await open(encrypted ? 'bench-encrypted' : 'bench-plain', encrypted, key);
      const start = performance.now();
      const matched = await ninetyDays(db.glucose, now);
      (encrypted ? out.encrypted : out.plain).push(performance.now() - start);
      if (out.matched !== 0 && matched !== out.matched) throw new Error(`the two storages returned ${out.matched} and ${matched} readings`);
      out.matched = matched;
      await db.close();
    }
  }
  return out;
}

(globalThis as unknown as { benchEncryptedQuery: typeof run }).benchEncryptedQuery = run;
