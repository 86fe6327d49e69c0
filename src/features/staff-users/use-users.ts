import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { staffRuntime } from '../../lib/staff-runtime.ts';

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

export type UsersResult = { status: 'loading'; last: UsersPage | undefined } | { status: 'ready'; data: UsersPage } | { status: 'error'; expired: boolean };

/** The users list (spec §7 GET /admin/users); a newer query wins over an answer still on its way. */
export function useUsers(query: UsersQuery, onFailure: () => void): UsersResult {
  const [result, setResult] = useState<UsersResult>({ status: 'loading', last: undefined });
  const { search, page, limit, hospitalId } = query;
  const failure = useRef(onFailure);
  useEffect(() => {
    failure.current = onFailure;
  });
  useEffect(() => {
    let current = true;
    setResult((r) => ({ status: 'loading', last: r.status === 'ready' ? r.data : r.status === 'loading' ? r.last : undefined }));
    const params = new URLSearchParams({ search, page: String(page), limit: String(limit) });
    if (hospitalId) params.set('hospitalId', hospitalId);
    staffRuntime.api.get<UsersPage>(`/admin/users?${params.toString()}`).then(
      (data) => current && setResult({ status: 'ready', data }),
      (err: unknown) => {
        if (!current) return;
        // A 401 already ended the session and said so: no second notice.
        const expired = err instanceof ApiError && err.status === 401;
        setResult({ status: 'error', expired });
        if (!expired) failure.current();
      },
    );
    return () => {
      current = false;
    };
    // onFailure only raises a notice; the query alone decides when to fetch.
  }, [search, page, limit, hospitalId]);
  return result;
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
