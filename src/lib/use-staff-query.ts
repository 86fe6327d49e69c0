import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../sync/api-client.ts';
import { log } from '../../sync/log.ts';
import type { StaffRead } from './staff-api.ts';
import { useStaffRuntime } from './runtime-context.tsx';

/** A staff GET in flight keeps the answer before it, so a list does not blink while the next page loads. */
export type StaffQueryResult<T> =
  | { status: 'loading'; last: T | undefined }
  | { status: 'ready'; data: T }
  /**
   * `offline`: no answer, or the server failing (5xx): an offline copy is worth showing. `error` is
   * what failed (for its message); `last` the answer before it, if the one before was an answer.
   */
  | { status: 'error'; expired: boolean; offline: boolean; error: unknown; last: T | undefined };

/** The last answer, and which request (path and attempt) it answers. */
type Settled<T> = { key: string; result: Exclude<StaffQueryResult<T>, { status: 'loading' }> };

const keyOf = (path: string, attempt: number) => `${attempt} ${path}`;
const answerIn = <T>(settled: Settled<T> | undefined): T | undefined => (settled?.result.status === 'ready' ? settled.result.data : undefined);

/** What a failed fetch was: `offline` when no answer came or the server failed (5xx). */
export interface StaffQueryFailure {
  offline: boolean;
}

/**
 * GETs `read` (lib/staff-api.ts; none while it is undefined) whenever its path or `attempt` changes;
 * a newer path wins over an answer still on its way. `onFailure` is called once per failed fetch,
 * except a 401, which has already ended the session and said so. "Loading" is not stored: it is
 * what a request without an answer yet looks like, so the effect only ever sets state from an answer.
 * `quiet`: the screen shows its own progress (and its kept copy), so no full-screen loader covers it.
 */
export function useStaffQuery<T>(
  read: StaffRead<T> | undefined,
  onFailure: (failure: StaffQueryFailure) => void = () => undefined,
  attempt = 0,
  opts: { quiet?: boolean } = {},
): StaffQueryResult<T> {
  const path = read?.path;
  const quiet = opts.quiet ?? false;
  const { api } = useStaffRuntime();
  const [settled, setSettled] = useState<Settled<T> | undefined>();
  const failure = useRef(onFailure);
  useEffect(() => {
    failure.current = onFailure;
  });
  useEffect(() => {
    if (path === undefined) return undefined;
    const key = keyOf(path, attempt);
    let current = true;
    api.get<T>(path, { quiet }).then(
      (data) => current && setSettled({ key, result: { status: 'ready', data } }),
      (err: unknown) => {
        if (!current) return;
        const expired = err instanceof ApiError && err.status === 401;
        const offline = err instanceof ApiError && (err.status === 0 || err.status >= 500);
        setSettled((before) => ({ key, result: { status: 'error', expired, offline, error: err, last: answerIn(before) } }));
        if (!expired) failure.current({ offline });
      },
    );
    return () => {
      current = false;
    };
    // onFailure only raises a notice; the path alone decides when to fetch.
  }, [path, attempt, quiet, api]);
  const answered = path !== undefined && settled?.key === keyOf(path, attempt) ? settled.result : undefined;
  // One object per answer, not per render: useKeptAnswer saves each answer once.
  return useMemo(() => answered ?? { status: 'loading', last: answerIn(settled) }, [answered, settled]);
}

/**
 * The answer to `path` kept in the staff member's encrypted offline copy (sync/storage/staff-cache.ts):
 * each answer is saved under its path, and the one saved last is returned while no answer is in yet
 * (local-first, issue 46: the screen shows it at once, as of when it was fetched) and while the
 * server cannot be reached; undefined once the answer is in, while looking, or when there is none.
 * The copy's code loads only here.
 */
export function useKeptAnswer<T extends object>(path: string, result: StaffQueryResult<T>): T | undefined {
  const [kept, setKept] = useState<{ path: string; data: T } | undefined>();
  const wanted = result.status === 'loading' || (result.status === 'error' && result.offline);
  useEffect(() => {
    if (result.status === 'ready') {
      void import('../../sync/storage/staff-cache.ts')
        .then((cache) => cache.saveList(path, result.data as Record<string, unknown>))
        .catch((err: unknown) => log.error('Failed to keep a staff list for offline use', err));
      return undefined;
    }
    if (!wanted) return undefined;
    let live = true;
    void import('../../sync/storage/staff-cache.ts')
      .then((cache) => cache.loadList(path))
      .then(
        (found) => live && setKept(found ? { path, data: found.data as T } : undefined),
        (err: unknown) => log.error('Failed to read a kept staff list', err),
      );
    return () => {
      live = false;
    };
  }, [path, result, wanted]);
  return wanted && kept?.path === path ? kept.data : undefined;
}
