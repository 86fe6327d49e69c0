import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../sync/api-client.ts';
import { staffRuntime } from './staff-runtime.ts';

/** A staff GET in flight keeps the answer before it, so a list does not blink while the next page loads. */
export type StaffQueryResult<T> = { status: 'loading'; last: T | undefined } | { status: 'ready'; data: T } | { status: 'error'; expired: boolean };

/**
 * GET `path` of the staff API (none while `path` is undefined) whenever it or `attempt` changes; a
 * newer path wins over an answer still on its way. `onFailure` is called once per failed fetch,
 * except a 401, which has already ended the session and said so.
 */
export function useStaffQuery<T>(path: string | undefined, onFailure: () => void, attempt = 0): StaffQueryResult<T> {
  const [result, setResult] = useState<StaffQueryResult<T>>({ status: 'loading', last: undefined });
  const failure = useRef(onFailure);
  useEffect(() => {
    failure.current = onFailure;
  });
  useEffect(() => {
    if (path === undefined) return undefined;
    let current = true;
    setResult((r) => ({ status: 'loading', last: r.status === 'ready' ? r.data : r.status === 'loading' ? r.last : undefined }));
    staffRuntime.api.get<T>(path).then(
      (data) => current && setResult({ status: 'ready', data }),
      (err: unknown) => {
        if (!current) return;
        const expired = err instanceof ApiError && err.status === 401;
        setResult({ status: 'error', expired });
        if (!expired) failure.current();
      },
    );
    return () => {
      current = false;
    };
    // onFailure only raises a notice; the path alone decides when to fetch.
  }, [path, attempt]);
  return result;
}
