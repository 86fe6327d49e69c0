// The staff member's own offline copy of the patients they opened and of the worklist pages they
// saw (docs/requirements.md §4 staff area, issue 18): one RxDB database, 'eddy-staff', on the same AES-GCM wrapper
// and data key as the patient database, so the reviewed data is sealed at rest. The row id is the SHA-256 of the hospital number, so not even
// which patients were opened is readable in IndexedDB. Logout and a 401 remove the whole database.
import { createRxDatabase, removeRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { getRxStorageDexieBulkRead } from './dexie-bulk-read.ts';
import { getDataKey } from './crypto.ts';
import { deliverCrossTabMessagesWhateverTheClock } from './cross-tab.ts';
import { deleteLeftoverIndexedDbs } from './leftovers.ts';
import { wrappedAesGcmStorage } from './encrypted-storage.ts';

export const STAFF_DATABASE_NAME = 'eddy-staff';

export interface StaffReviewDoc {
  _id: string;
  hospNo: string;
  /** When the bundle was fetched, ms since the epoch; plain so that it can be shown and sorted. */
  fetchedAt: number;
  data: Record<string, unknown>;
}

const reviewSchema = {
  version: 0,
  primaryKey: '_id',
  type: 'object',
  properties: {
    _id: { type: 'string', maxLength: 64 },
    hospNo: { type: 'string', maxLength: 40 },
    fetchedAt: { type: 'integer', minimum: 0, maximum: 8.64e15 },
    data: { type: 'object', additionalProperties: true },
  },
  required: ['_id', 'hospNo', 'fetchedAt', 'data'],
  encrypted: ['hospNo', 'data'],
} as const satisfies RxJsonSchema<StaffReviewDoc>;

/** A list the staff area showed (a worklist page), kept for offline use; the id hides its key. */
export interface StaffListDoc {
  _id: string;
  fetchedAt: number;
  data: Record<string, unknown>;
}

const listSchema = {
  version: 0,
  primaryKey: '_id',
  type: 'object',
  properties: {
    _id: { type: 'string', maxLength: 64 },
    fetchedAt: { type: 'integer', minimum: 0, maximum: 8.64e15 },
    data: { type: 'object', additionalProperties: true },
  },
  required: ['_id', 'fetchedAt', 'data'],
  encrypted: ['data'],
} as const satisfies RxJsonSchema<StaffListDoc>;

type StaffCollections = { reviews: RxCollection<StaffReviewDoc>; lists: RxCollection<StaffListDoc> };
type StaffDatabase = RxDatabase<StaffCollections>;

let opening: Promise<StaffDatabase> | undefined;

function storage(getKey: () => Promise<CryptoKey>) {
  return wrappedAesGcmStorage({ storage: getRxStorageDexieBulkRead(), getKey });
}

function openStaffDatabase(): Promise<StaffDatabase> {
  if (!opening) {
    const next = (async () => {
      deliverCrossTabMessagesWhateverTheClock();
      const db = await createRxDatabase<StaffCollections>({
        name: STAFF_DATABASE_NAME,
        storage: storage(getDataKey),
        multiInstance: true,
      });
      try {
        await db.addCollections({ reviews: { schema: reviewSchema }, lists: { schema: listSchema } });
      } catch (err) {
        await db.close();
        throw err;
      }
      db.onClose.push(() => {
        if (opening === next) opening = undefined;
      });
      return db;
    })();
    opening = next;
    next.catch(() => {
      if (opening === next) opening = undefined;
    });
  }
  return opening;
}

async function opaqueId(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The opaque row id of a hospital number (SHA-256, hex). */
export const reviewId = (hospNo: string): Promise<string> => opaqueId(`eddy-staff-review:${hospNo}`);

/** The patients opened on this device: number, name and when their data was fetched, newest first. */
export async function listReviews(): Promise<{ hospNo: string; name: string; fetchedAt: number }[]> {
  const db = await openStaffDatabase();
  const docs = await db.reviews.find().exec();
  return docs
    .map((d) => {
      const json = d.toMutableJSON();
      const profile = (json.data['profile'] ?? {}) as { name?: unknown };
      return { hospNo: json.hospNo, name: typeof profile.name === 'string' ? profile.name : json.hospNo, fetchedAt: json.fetchedAt };
    })
    .sort((a, b) => b.fetchedAt - a.fetchedAt);
}

/** Saves (or replaces) a list under its key (e.g. the worklist's path with its query). */
export async function saveList(key: string, data: Record<string, unknown>, fetchedAt = Date.now()): Promise<void> {
  const db = await openStaffDatabase();
  await db.lists.upsert({ _id: await opaqueId(`eddy-staff-list:${key}`), fetchedAt, data });
}

/** The list last saved under that key, if any. */
export async function loadList(key: string): Promise<{ fetchedAt: number; data: Record<string, unknown> } | undefined> {
  const db = await openStaffDatabase();
  const doc = await db.lists.findOne(await opaqueId(`eddy-staff-list:${key}`)).exec();
  if (!doc) return undefined;
  const json = doc.toMutableJSON();
  return { fetchedAt: json.fetchedAt, data: json.data };
}

/** Saves (or replaces) the bundle fetched for a patient. */
export async function saveReview(hospNo: string, data: Record<string, unknown>, fetchedAt = Date.now()): Promise<void> {
  const db = await openStaffDatabase();
  await db.reviews.upsert({ _id: await reviewId(hospNo), hospNo, fetchedAt, data });
}

/** The last bundle saved for a patient, if any. */
export async function loadReview(hospNo: string): Promise<{ fetchedAt: number; data: Record<string, unknown> } | undefined> {
  const db = await openStaffDatabase();
  const doc = await db.reviews.findOne(await reviewId(hospNo)).exec();
  if (!doc) return undefined;
  const json = doc.toMutableJSON();
  return { fetchedAt: json.fetchedAt, data: json.data };
}

/** Reset: forgets one patient's bundle. */
export async function forgetReview(hospNo: string): Promise<void> {
  const db = await openStaffDatabase();
  await db.reviews.findOne(await reviewId(hospNo)).remove();
}

/**
 * Staff logout and 401: removes the staff database. The data key is shared with a patient session
 * that may exist on the same device, so it stays; without the rows there is nothing it opens.
 */
export async function destroyStaffCache(): Promise<void> {
  const db = await opening?.catch(() => undefined);
  opening = undefined;
  if (db) {
    await db.remove();
  } else {
    // Removing needs no key; refusing one makes sure removal never creates a fresh key.
    await removeRxDatabase(
      STAFF_DATABASE_NAME,
      storage(() => Promise.reject(new Error('no key is needed to remove the database'))),
      true,
    );
  }
  await deleteLeftoverIndexedDbs(STAFF_DATABASE_NAME);
}
