import { act, cleanup, renderHook, waitFor, type RenderHookOptions } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../sync/api-client.ts';
import { RuntimeProvider } from './runtime-context.tsx';
import { createStaffRuntime } from './staff-runtime.ts';
import { useStaffQuery, type StaffQueryResult } from './use-staff-query.ts';

// The hook reaches the staff runtime through context, as every staff screen does.
const staffRuntime = createStaffRuntime();
const wrapper = ({ children }: { children: ReactNode }) => createElement(RuntimeProvider, { staffRuntime, children });
const renderStaff = <R, P>(hook: (props: P) => R, options: RenderHookOptions<P> = {}) => renderHook(hook, { ...options, wrapper });

/** GETs answered by hand, in any order: `answer(path)` / `fail(path, err)` settle the oldest open one for that path. */
function fakeApi() {
  const open: { path: string; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  vi.spyOn(staffRuntime.api, 'get').mockImplementation((path: string) => new Promise((resolve, reject) => open.push({ path, resolve: resolve, reject })));
  const take = (path: string) => {
    const i = open.findIndex((o) => o.path === path);
    if (i < 0) throw new Error(`no GET of ${path} is open`);
    return open.splice(i, 1)[0]!;
  };
  return {
    answer: async (path: string, data: unknown) => act(async () => take(path).resolve(data)),
    fail: async (path: string, err: unknown) => act(async () => take(path).reject(err)),
    open: () => open.map((o) => o.path),
  };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useStaffQuery', () => {
  it('is loading until the answer, then ready with it; another path loads while showing the answer before', async () => {
    const api = fakeApi();
    const { result, rerender } = renderStaff(({ path }) => useStaffQuery<{ n: number }>({ path }), { initialProps: { path: '/a' } });
    expect(result.current).toEqual({ status: 'loading', last: undefined });
    await api.answer('/a', { n: 1 });
    expect(result.current).toEqual({ status: 'ready', data: { n: 1 } });
    const ready = result.current;
    rerender({ path: '/a' });
    expect(result.current).toBe(ready); // one object per answer, not per render
    rerender({ path: '/b' });
    expect(result.current).toEqual({ status: 'loading', last: { n: 1 } });
    await api.answer('/b', { n: 2 });
    expect(result.current).toEqual({ status: 'ready', data: { n: 2 } });
  });

  it('ignores an answer to a path no longer asked for, even when it arrives last', async () => {
    const api = fakeApi();
    const { result, rerender } = renderStaff(({ path }) => useStaffQuery<string>({ path }), { initialProps: { path: '/old' } });
    rerender({ path: '/new' });
    await api.answer('/new', 'new');
    await api.answer('/old', 'old');
    expect(result.current).toEqual({ status: 'ready', data: 'new' });
  });

  it('fetches again on another attempt; a failure keeps the answer before it and calls onFailure once', async () => {
    const api = fakeApi();
    const onFailure = vi.fn();
    const { result, rerender } = renderStaff(({ attempt }) => useStaffQuery<string>({ path: '/x' }, onFailure, attempt), { initialProps: { attempt: 0 } });
    await api.answer('/x', 'first');
    rerender({ attempt: 1 });
    expect(result.current).toEqual({ status: 'loading', last: 'first' });
    const err = new ApiError(503, 'down');
    await api.fail('/x', err);
    expect(result.current).toEqual({ status: 'error', expired: false, offline: true, error: err, last: 'first' });
    expect(onFailure).toHaveBeenCalledTimes(1);
    rerender({ attempt: 2 });
    // After a failure there is no answer to keep showing.
    expect(result.current).toEqual({ status: 'loading', last: undefined });
  });

  it('says a 401 expired the session without calling onFailure, and a 400 is neither expired nor offline', async () => {
    const api = fakeApi();
    const onFailure = vi.fn();
    const { result, rerender } = renderStaff(({ attempt }) => useStaffQuery<string>({ path: '/y' }, onFailure, attempt), { initialProps: { attempt: 0 } });
    await api.fail('/y', new ApiError(401, 'expired'));
    expect(result.current).toMatchObject({ status: 'error', expired: true, offline: false });
    expect(onFailure).not.toHaveBeenCalled();
    rerender({ attempt: 1 });
    await api.fail('/y', new ApiError(400, 'bad'));
    expect(result.current).toMatchObject({ status: 'error', expired: false, offline: false });
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('asks nothing while there is no read', async () => {
    const api = fakeApi();
    const { result, rerender } = renderStaff(({ path }) => useStaffQuery<string>(path === undefined ? undefined : { path }), {
      initialProps: { path: undefined as string | undefined },
    });
    expect(api.open()).toEqual([]);
    expect(result.current).toEqual({ status: 'loading', last: undefined } satisfies StaffQueryResult<string>);
    rerender({ path: '/z' });
    await waitFor(() => expect(api.open()).toEqual(['/z']));
  });
});
