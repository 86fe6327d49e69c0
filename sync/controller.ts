// The sync controller: when to send the outbox and pull, how often to try again, and what the
// screens are told (docs/requirements.md §4 offline flag, last sync time, 'Data synchronized successfully'). The UI
// never calls it with data: it writes to the local collections, and this sends what they queued.
import type { ApiClient } from './api-client.ts';
import type { DrainResult } from './drain.ts';
import { STUCK_AFTER } from './drain.ts';
import { checkServerHistory } from './history.ts';
import { inBackground } from './background.ts';
import { log } from './log.ts';
import { watchOutboxCounts } from './outbox.ts';
import type { SyncStatusStore } from './status.ts';

/** The part of an RxDB replication the controller drives. */
export interface Replication {
  reSync(): void;
  awaitInSync(): Promise<unknown>;
}

export interface SyncControllerOptions {
  status: SyncStatusStore;
  drain: () => Promise<DrainResult>;
  replications: () => readonly Replication[];
  /** A replayed write answered 401: the session is over (the app locks, keeping the outbox). */
  /** A 401 ended the session the drain sent with (`token`, when it says). */
  onUnauthorized: (token?: string) => void;
  /** Asks the browser to wake the service worker when the network returns (Background Sync). */
  registerBackgroundSync: () => Promise<void>;
  /** After a drain: refusals that need no decision are settled here; returns what to tell the patient. */
  settle?: () => Promise<string[]>;
  /** Tells the patient something: a synchronisation done (docs/requirements.md §4), or a settled refusal. */
  onSynchronized: () => void;
  onSettled?: (messages: string[]) => void;
  /** Whether medical data is old enough to refresh (docs/requirements.md §9 cache lifetimes). */
  isStale: (lastSyncAt: number | undefined) => boolean;
  isOnline: () => boolean;
  /**
   * After a sync that got in step, the server is asked through this whether it still holds what
   * this device has seen, and healed when it does not (sync/history.ts).
   */
  api?: ApiClient;
  /** Asks the tab that leads the replication, if another does, to pull too (sync/replication.ts). */
  askLeaderToPull?: () => void;
  retryMs?: number;
  inSyncTimeoutMs?: number;
}

export function createSyncController(opts: SyncControllerOptions) {
  const { status } = opts;
  let draining: Promise<void> | undefined;
  // A write made while a sync runs may have missed that sync's drain: it gets one more right after,
  // instead of waiting for the retry timer.
  let drainAgain = false;
  let retryTimer: ReturnType<typeof setInterval> | undefined;
  let unwatch: (() => void) | undefined;

  /** Sends what the outbox holds, then refreshes from the server. Reports the result once done. */
  function syncNow(o: { announce: boolean; refresh?: boolean }): Promise<void> {
    if (draining) {
      drainAgain = true;
      return draining;
    }
    draining = (async () => {
      try {
        const result = await opts.drain();
        const settled = (await opts.settle?.()) ?? [];
        if (settled.length > 0) opts.onSettled?.(settled);
        if (result.unauthorized) return opts.onUnauthorized(result.token);
        // Entries left that are not merely stuck behind a failing one: the server is out of reach.
        if (result.kept > result.stuck) {
          status.update({ offline: true });
          // If the tab is closed before the network returns, the service worker replays the outbox.
          await opts.registerBackgroundSync();
          return;
        }
        if (result.kept > 0) await opts.registerBackgroundSync();
        const wasOffline = status.getSnapshot().offline;
        // Replications that have just started pull by themselves: asking again would pull twice.
        if (o.refresh !== false) {
          for (const r of opts.replications()) r.reSync();
          opts.askLeaderToPull?.();
        }
        // A replication whose pulls keep failing never gets in sync; without a limit this drain would
        // never end and no later write would be sent. It counts as not synchronized: try again later.
        const inSync = await Promise.race([
          Promise.all(opts.replications().map((r) => r.awaitInSync())).then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), opts.inSyncTimeoutMs ?? 30_000)),
        ]);
        if (!inSync) {
          log.warn('replication did not get in sync; retrying later');
          return;
        }
        // The connection went while this sync ran (the browser said so meanwhile): what it pulled
        // is current, but the device is offline now, and the notice must stay (seen in CI: the
        // notice cleared right after the network went, by a sync that ended a moment later).
        if (!opts.isOnline()) return;
        // A server restored from a backup: what it lacks goes again, and everything is pulled once,
        // in the sync right after this one (not announced as synchronized before that).
        // A check that failed (the connection went meanwhile: CI saw the offline notice cleared by
        // a sync whose history check had just met ERR_INTERNET_DISCONNECTED) is not a sync done:
        // nothing is said, and the retry timer tries again.
        if (opts.api) {
          const verdict = await checkServerHistory(opts.api).catch((err: unknown) => {
            log.warn('the server history check failed', err);
            return 'failed' as const;
          });
          if (verdict === 'failed') return;
          if (verdict === 'healed') {
            drainAgain = true;
            return;
          }
          if (!opts.isOnline()) return;
        }
        status.update({ offline: false, lastSyncAt: Date.now() });
        // "Synchronized" only when nothing waits or needs a decision (issue 45: it showed beside
        // "1 entry was not accepted … Review").
        const now = status.getSnapshot();
        const nothingWaits = result.kept === 0 && result.rejected.length === 0 && now.refused === 0 && now.stuck === 0 && now.pending === 0;
        if ((o.announce || wasOffline) && nothingWaits) opts.onSynchronized();
      } catch (err) {
        log.warn('sync failed', err);
      } finally {
        draining = undefined;
        if (drainAgain) {
          drainAgain = false;
          inBackground(syncNow({ announce: false }), 'sync failed');
        }
      }
    })();
    return draining;
  }

  function start(): void {
    unwatch ??= watchOutboxCounts(STUCK_AFTER, (counts) => status.update(counts));
    // While writes wait (the server was unreachable), try again regularly: the browser may never
    // fire 'online' when it was the server, not the network, that was gone.
    retryTimer ??= setInterval(() => {
      const { offline, pending, lastSyncAt } = status.getSnapshot();
      if ((offline || pending > 0 || opts.isStale(lastSyncAt)) && opts.isOnline()) inBackground(syncNow({ announce: false }), 'sync failed');
    }, opts.retryMs ?? 10_000);
  }

  function stop(): void {
    if (retryTimer) clearInterval(retryTimer);
    retryTimer = undefined;
    unwatch?.();
    unwatch = undefined;
  }

  return { syncNow, start, stop, idle: () => draining ?? Promise.resolve() };
}

export type SyncController = ReturnType<typeof createSyncController>;
