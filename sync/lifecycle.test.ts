import { describe, expect, it, vi } from 'vitest';
import { createLifecycle, next, type Effect, type LifecycleEvent, type Phase } from './lifecycle.ts';
import type { SessionState, StoredSession } from './session.ts';

const A: StoredSession = { token: 'token-a', hospNo: '100001', expiresAt: '2026-12-14T10:00:00.000Z' };
const A_RENEWED: StoredSession = { ...A, expiresAt: '2026-12-15T10:00:00.000Z' };
const B: StoredSession = { token: 'token-b', hospNo: '100001', expiresAt: '2026-12-14T11:00:00.000Z' };

const loggedIn = (session: StoredSession): LifecycleEvent => ({ type: 'session', state: { status: 'logged-in', session } });
const loggedOut: LifecycleEvent = { type: 'session', state: { status: 'logged-out' } };
const unknown: LifecycleEvent = { type: 'session', state: { status: 'unknown' } as SessionState };
const unauthorized = (token: string | undefined): LifecycleEvent => ({ type: 'unauthorized', token });

/** Runs events from `start`; the phase at the end and every effect asked for, in order. */
function run(start: Phase, ...events: LifecycleEvent[]): { phase: Phase; effects: Effect[] } {
  let phase = start;
  const effects: Effect[] = [];
  for (const e of events) {
    const step = next(phase, e);
    phase = step.phase;
    effects.push(...step.effects);
  }
  return { phase, effects };
}

const STARTING: Phase = { name: 'starting' };
const ACTIVE_A: Phase = { name: 'active', session: A };

describe('the session lifecycle', () => {
  it('starts syncing when a stored session is restored, and signs out when there is none', () => {
    expect(run(STARTING, unknown, loggedIn(A))).toEqual({ phase: ACTIVE_A, effects: [{ do: 'start-sync', session: A }] });
    expect(run(STARTING, loggedOut)).toEqual({ phase: { name: 'signed-out' }, effects: [] });
  });

  it('starts sync once per session: a renewal of the session in use (a later expiry) restarts nothing', () => {
    const { phase, effects } = run(STARTING, loggedIn(A), loggedIn(A_RENEWED), loggedIn(A_RENEWED));
    expect(effects).toEqual([{ do: 'start-sync', session: A }]);
    expect(phase).toEqual({ name: 'active', session: A_RENEWED });
  });

  it('a logout the patient asked for stops sync and does not lock the screens', () => {
    const { phase, effects } = run(ACTIVE_A, loggedOut);
    expect(effects).toEqual([{ do: 'stop-sync' }]);
    expect(phase).toEqual({ name: 'signed-out' });
  });

  it('a 401 on the session in use locks at once: sync stops, the session ends, and its own logout later stops nothing twice', () => {
    const { phase, effects } = run(ACTIVE_A, unauthorized(A.token), loggedOut);
    expect(effects).toEqual([{ do: 'stop-sync' }, { do: 'end-session', why: 'a call was answered 401' }]);
    expect(phase).toEqual({ name: 'locked', endedToken: A.token });
  });

  it('ends a session once however many calls answer 401 (a page has a dozen in flight)', () => {
    const { effects } = run(ACTIVE_A, unauthorized(A.token), unauthorized(A.token), unauthorized(A.token));
    expect(effects.filter((e) => e.do === 'end-session')).toHaveLength(1);
  });

  it('lets go of a 401 to a call sent on an earlier session, or on none, and says why', () => {
    // Sent before the patient logged in again, answered after: the new session is not ended by it.
    expect(run({ name: 'active', session: B }, unauthorized(A.token))).toEqual({
      phase: { name: 'active', session: B },
      effects: [{ do: 'ignore-401', why: 'the patient has logged in again since' }],
    });
    // Sent while the app was locked (no token), answered after the login.
    expect(run(ACTIVE_A, unauthorized(undefined))).toEqual({ phase: ACTIVE_A, effects: [{ do: 'ignore-401', why: 'the call was sent with no session' }] });
  });

  it('says nothing of a 401 while no session is in use (calls in flight at a logout)', () => {
    expect(run({ name: 'signed-out' }, unauthorized(A.token))).toEqual({ phase: { name: 'signed-out' }, effects: [] });
    expect(run({ name: 'locked', endedToken: A.token }, unauthorized(A.token)).effects).toEqual([]);
    expect(run(STARTING, unauthorized(undefined)).effects).toEqual([]);
  });

  it('does not reopen a session a 401 ended when a check in flight renews it afterwards', () => {
    const { phase, effects } = run(ACTIVE_A, unauthorized(A.token), loggedIn(A_RENEWED), loggedOut);
    expect(effects.filter((e) => e.do === 'start-sync')).toEqual([]);
    expect(phase.name).toBe('locked');
  });

  it('locks when the session is found ended at start-up or by the periodic check, after the session has locked its data', () => {
    // At start-up: the session locks (logged out), then says it ended.
    expect(run(STARTING, loggedOut, { type: 'ended' })).toEqual({ phase: { name: 'locked' }, effects: [] });
    // While in use: sync stops as the session locks, once.
    expect(run(ACTIVE_A, loggedOut, { type: 'ended' })).toEqual({ phase: { name: 'locked' }, effects: [{ do: 'stop-sync' }] });
  });

  it('unlocks at the next login, which starts sync on the new session', () => {
    const { phase, effects } = run(ACTIVE_A, unauthorized(A.token), loggedOut, { type: 'logging-in' }, loggedIn(B));
    expect(effects.at(-1)).toEqual({ do: 'start-sync', session: B });
    expect(phase).toEqual({ name: 'active', session: B });
  });

  it('a login on another token while one is in use stops the old sync before starting the new', () => {
    expect(run(ACTIVE_A, loggedIn(B)).effects).toEqual([{ do: 'stop-sync' }, { do: 'start-sync', session: B }]);
  });

  it('tells its listeners when the screens lock and unlock, and only then', () => {
    const lifecycle = createLifecycle();
    const told = vi.fn();
    lifecycle.subscribe(told);
    lifecycle.send(loggedIn(A));
    expect(lifecycle.locked()).toBe(false);
    expect(told).not.toHaveBeenCalled();
    expect(lifecycle.send(unauthorized(A.token))).toEqual([{ do: 'stop-sync' }, { do: 'end-session', why: 'a call was answered 401' }]);
    expect(lifecycle.locked()).toBe(true);
    expect(told).toHaveBeenCalledTimes(1);
    lifecycle.send(loggedOut);
    expect(told).toHaveBeenCalledTimes(1);
    lifecycle.send({ type: 'logging-in' });
    expect(lifecycle.locked()).toBe(false);
    expect(told).toHaveBeenCalledTimes(2);
  });
});
