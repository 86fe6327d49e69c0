import { useEffect, useState } from 'react';
import { staffReads, type UsersPage } from '../../lib/staff-api.ts';
import { useStaffQuery, type StaffQueryFailure, type StaffQueryResult } from '../../lib/use-staff-query.ts';

/** A patient as the users list shows them; `lastSyncAt`: when their device last reached the server (null if never). */
export type StaffUser = UsersPage['users'][number];

export interface UsersQuery {
  search: string;
  page: number;
  limit: number;
  hospitalId: string | undefined;
}

export type UsersResult = StaffQueryResult<UsersPage>;

/**
 * The users list (docs/requirements.md §7 GET /admin/users); a newer query wins over an answer still on its way.
 * The list shows its own progress ("Loading patients…"), so no full-screen loader covers the page,
 * and the worklist this device kept stays usable meanwhile (issue 46).
 */
export function useUsers(query: UsersQuery, onFailure: (failure: StaffQueryFailure) => void): UsersResult {
  return useStaffQuery(staffReads.users(query), onFailure, 0, { quiet: true });
}

/** `value`, once it has stopped changing for `ms` (typing in the search field). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
