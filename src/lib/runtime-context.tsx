import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionState } from '../../sync/session.ts';
import type { SyncStatus } from '../../sync/status.ts';
import type { Runtime } from './runtime.ts';

const RuntimeContext = createContext<Runtime | undefined>(undefined);

export function RuntimeProvider({ runtime, children }: { runtime: Runtime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): Runtime {
  const r = useContext(RuntimeContext);
  if (!r) throw new Error('useRuntime outside RuntimeProvider');
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
