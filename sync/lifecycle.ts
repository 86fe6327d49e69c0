// The patient app's session lifecycle as one explicit state machine (issue 47): the rules that decide
// when the device syncs, when it locks, and which 401 counts, in one place that a unit test drives
// event by event (sync/lifecycle.test.ts). The runtime (src/lib/runtime.ts) feeds it the session's
// changes and every 401, and carries out what each step asks; it holds no lifecycle flags of its own.
//
// Phases, and what moves the device between them:
// - starting: the stored session not read yet. Restored → active; none → signed-out.
// - active: logged in, the local data prepared; sync runs (it starts on entering, stops on leaving).
//   A logout the patient asked for → signed-out. A 401 on this session's own token, or the session
//   found ended (start-up, the periodic check) → locked.
// - locked: the session ended by itself. The screens lock at once, before the slower steps of
//   locking; the sealed data stays for the same patient's next login, which unlocks
//   (docs/sync-protocol.md). A login (a new token) → active.
// - signed-out: no session, nothing locked (a logout the patient asked for, or none yet). A login → active.
import type { SessionState, StoredSession } from './session.ts';

export type Phase =
  | { readonly name: 'starting' }
  | { readonly name: 'signed-out' }
  | { readonly name: 'active'; readonly session: StoredSession }
  /** `endedToken`: the token whose session ended here (a late word on it changes nothing). */
  | { readonly name: 'locked'; readonly endedToken?: string | undefined };

export type LifecycleEvent =
  /** The session's state changed (sync/session.ts): restored, logged in, renewed, logged out. */
  | { readonly type: 'session'; readonly state: SessionState }
  /** A call sent with `token` (undefined: none) was answered 401. */
  | { readonly type: 'unauthorized'; readonly token: string | undefined }
  /** The session was found ended, at start-up or by the periodic check (sync/session.ts has locked it). */
  | { readonly type: 'ended' }
  /** A login is completing (its token stored, before the session says logged in): the lock goes. */
  | { readonly type: 'logging-in' };

/** What the runtime does for a step. */
export type Effect =
  | { readonly do: 'start-sync'; readonly session: StoredSession }
  | { readonly do: 'stop-sync' }
  /** End the session here: lock the local data, tell the patient, go to the login page. */
  | { readonly do: 'end-session'; readonly why: string }
  /** A 401 that says nothing of the session in use, let go (and logged, with why). */
  | { readonly do: 'ignore-401'; readonly why: string };

export interface Step {
  readonly phase: Phase;
  readonly effects: readonly Effect[];
}

/** One step of the machine: pure, so every rule is a line of a test. */
export function next(phase: Phase, event: LifecycleEvent): Step {
  const stay = (...effects: Effect[]): Step => ({ phase, effects });
  switch (event.type) {
    case 'session': {
      const s = event.state;
      if (s.status === 'unknown') return stay();
      if (s.status === 'logged-in') {
        // A renewal of the session in use (a later expiry) changes nothing here.
        if (phase.name === 'active' && phase.session.token === s.session.token) return { phase: { name: 'active', session: s.session }, effects: [] };
        // A renewal that answers after a 401 ended that session (a check in flight) does not reopen it.
        if (phase.name === 'locked' && phase.endedToken === s.session.token) return stay();
        const effects: Effect[] = phase.name === 'active' ? [{ do: 'stop-sync' }] : [];
        return { phase: { name: 'active', session: s.session }, effects: [...effects, { do: 'start-sync', session: s.session }] };
      }
      // Logged out: a lock stays a lock (its screens stay locked until the next login).
      const after: Phase = phase.name === 'locked' ? phase : { name: 'signed-out' };
      return { phase: after, effects: phase.name === 'active' ? [{ do: 'stop-sync' }] : [] };
    }
    case 'unauthorized': {
      // No session in use (logged out, or locked already): nothing to end, and nothing worth saying.
      if (phase.name !== 'active') return stay();
      // A call sent on another token, or on none (sent while the app was locked, answered after the
      // patient logged in again), says nothing of the session in use.
      if (event.token === undefined) return stay({ do: 'ignore-401', why: 'the call was sent with no session' });
      if (event.token !== phase.session.token) return stay({ do: 'ignore-401', why: 'the patient has logged in again since' });
      return { phase: { name: 'locked', endedToken: event.token }, effects: [{ do: 'stop-sync' }, { do: 'end-session', why: 'a call was answered 401' }] };
    }
    case 'ended':
      return { phase: { name: 'locked' }, effects: phase.name === 'active' ? [{ do: 'stop-sync' }] : [] };
    case 'logging-in':
      return phase.name === 'locked' ? { phase: { name: 'signed-out' }, effects: [] } : stay();
  }
}

/** The machine with its state, for the runtime: each event's effects, and whether the screens are locked. */
export function createLifecycle(initial: Phase = { name: 'starting' }) {
  let phase = initial;
  const listeners = new Set<() => void>();
  return {
    get phase(): Phase {
      return phase;
    },
    /** Whether the screens show the lock (the session ended by itself, no login since). */
    locked: (): boolean => phase.name === 'locked',
    /** Applies `event`; returns what the runtime must do, in order. */
    send(event: LifecycleEvent): readonly Effect[] {
      const step = next(phase, event);
      const wasLocked = phase.name === 'locked';
      phase = step.phase;
      if (wasLocked !== (phase.name === 'locked')) for (const l of [...listeners]) l();
      return step.effects;
    },
    /** Told when `locked()` changes (a store for useSyncExternalStore). */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
