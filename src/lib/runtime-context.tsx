// Both runtimes reach the screens the same way: made once by the app (src/main.tsx), provided here,
// and given to the routes through the router's context (src/router.tsx). A test provides its own.
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionState } from '../../sync/session.ts';
import type { StaffState } from '../../sync/staff-session.ts';
import type { SyncStatus } from '../../sync/status.ts';
import type { Runtime } from './runtime.ts';
import type { StaffChoices, StaffRuntime } from './staff-runtime.ts';

const RuntimeContext = createContext<Runtime | undefined>(undefined);
const StaffRuntimeContext = createContext<StaffRuntime | undefined>(undefined);

/** The patient's runtime and the staff area's, to every screen below. */
export function RuntimeProvider({ runtime, staffRuntime, children }: { runtime?: Runtime; staffRuntime?: StaffRuntime; children: ReactNode }) {
  return (
    <RuntimeContext.Provider value={runtime}>
      <StaffRuntimeContext.Provider value={staffRuntime}>{children}</StaffRuntimeContext.Provider>
    </RuntimeContext.Provider>
  );
}

export function useRuntime(): Runtime {
  const r = useContext(RuntimeContext);
  if (!r) throw new Error('useRuntime outside RuntimeProvider');
  return r;
}

export function useStaffRuntime(): StaffRuntime {
  const r = useContext(StaffRuntimeContext);
  if (!r) throw new Error('useStaffRuntime outside RuntimeProvider');
  return r;
}

export function useSession(): SessionState {
  const { session } = useRuntime();
  return useSyncExternalStore(session.subscribe, () => session.state);
}

export function useSyncStatus(): SyncStatus {
  const { status } = useRuntime();
  return useSyncExternalStore(status.subscribe, status.getSnapshot);
}

export function useStaffSession(): StaffState {
  const { session } = useStaffRuntime();
  return useSyncExternalStore(session.subscribe, () => session.state);
}

export function useStaffChoices(): StaffChoices {
  const staff = useStaffRuntime();
  return useSyncExternalStore(staff.subscribeChoices, staff.getChoices);
}
