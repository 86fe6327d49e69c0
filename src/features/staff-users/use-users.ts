import { useEffect, useState } from 'react';
import { useStaffQuery, type StaffQueryResult } from '../../lib/use-staff-query.ts';

export interface StaffUser {
  _id: string;
  hospNo: string;
  name: string;
  hospital?: string | undefined;
  hospitalId: string;
  /** When the patient's device last reached the server; null if never. */
  lastSyncAt: string | null;
}

export interface UsersPage {
  users: StaffUser[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

export interface UsersQuery {
  search: string;
  page: number;
  limit: number;
  hospitalId: string | undefined;
}

export type UsersResult = StaffQueryResult<UsersPage>;

/** The users list (docs/requirements.md §7 GET /admin/users); a newer query wins over an answer still on its way. */
export function useUsers(query: UsersQuery, onFailure: () => void): UsersResult {
  const { search, page, limit, hospitalId } = query;
  const params = new URLSearchParams({ search, page: String(page), limit: String(limit) });
  if (hospitalId) params.set('hospitalId', hospitalId);
  return useStaffQuery<UsersPage>(`/admin/users?${params.toString()}`, onFailure);
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
