// The offline flag and the last sync time (spec §4), as a tiny store React can subscribe to.
export interface SyncStatus {
  offline: boolean;
  lastSyncAt: number | undefined;
  /** Writes made on this device that the server does not have yet. */
  pending: number;
}

type Listener = () => void;

export function createSyncStatus(initial: Partial<SyncStatus> = {}) {
  let state: SyncStatus = { offline: false, lastSyncAt: undefined, pending: 0, ...initial };
  const listeners = new Set<Listener>();
  return {
    getSnapshot: () => state,
    subscribe(l: Listener): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    update(patch: Partial<SyncStatus>): void {
      const next = { ...state, ...patch };
      if (next.offline === state.offline && next.lastSyncAt === state.lastSyncAt && next.pending === state.pending) return;
      state = next;
      for (const l of listeners) l();
    },
  };
}

export type SyncStatusStore = ReturnType<typeof createSyncStatus>;
