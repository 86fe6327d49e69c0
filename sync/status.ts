// The offline flag and the last sync time (docs/requirements.md §4), and what the outbox holds, as a tiny store
// React can subscribe to. The counts are read from the outbox (sync/controller.ts watches it), never
// kept anywhere else.
export interface SyncStatus {
  offline: boolean;
  lastSyncAt: number | undefined;
  /** Writes made on this device that the server does not have yet. */
  pending: number;
  /** Writes the server refused, waiting for the patient to decide. */
  refused: number;
  /** Pending writes the server keeps failing on (retried, never dropped). */
  stuck: number;
}

type Listener = () => void;

const same = (a: SyncStatus, b: SyncStatus) =>
  a.offline === b.offline && a.lastSyncAt === b.lastSyncAt && a.pending === b.pending && a.refused === b.refused && a.stuck === b.stuck;

export function createSyncStatus(initial: Partial<SyncStatus> = {}) {
  let state: SyncStatus = { offline: false, lastSyncAt: undefined, pending: 0, refused: 0, stuck: 0, ...initial };
  const listeners = new Set<Listener>();
  return {
    getSnapshot: () => state,
    subscribe(l: Listener): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    update(patch: Partial<SyncStatus>): void {
      const next = { ...state, ...patch };
      if (same(next, state)) return;
      state = next;
      for (const l of listeners) l();
    },
  };
}

export type SyncStatusStore = ReturnType<typeof createSyncStatus>;
