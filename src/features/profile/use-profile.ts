import { useEffect, useState } from 'react';
import type { RxDocument } from 'rxdb';
import { log } from '../../../sync/log.ts';
import { PROFILE_ID, type ProfileDoc } from '../../../sync/storage/collections.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';

export type ProfileDocument = RxDocument<ProfileDoc>;

/**
 * The one profile document, kept current (a pull, another tab). undefined while the database or
 * the query opens; null when the first sync has not brought the profile to this device yet.
 * The document itself (not a plain copy) is returned, because settings are written with
 * incrementalPatch/incrementalModify on it.
 */
export function useProfile(db: EddyDatabase | undefined): ProfileDocument | null | undefined {
  const [doc, setDoc] = useState<ProfileDocument | null | undefined>();
  useEffect(() => {
    if (!db) return undefined;
    const sub = db.profile.findOne(PROFILE_ID).$.subscribe({
      next: (found) => setDoc(found),
      error: (err: unknown) => log.error('local query failed', err),
    });
    return () => sub.unsubscribe();
  }, [db]);
  return doc;
}
