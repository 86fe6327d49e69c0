// The patient's app following its own records live (issue 46; docs/sync-protocol.md, "Live
// changes"): what the change stream says becomes a pull, as the device always pulls — by version,
// through the sync controller. A change staff make (a prescription, a meal time) shows in the open
// app within a moment, not at the next pull.
//
// - The first `ready` of a login is the version the start's own sync is pulling: no pull for it.
// - A `ready` after the stream was away (a hidden page, a lost connection, a server restart) pulls
//   only if the version moved meanwhile, or if the server may have missed signals (`gap`).
// - Events close together (a batch of writes) make one pull, `waitMs` after the first.
// - A pull already on its way when an event comes is followed by one more (the controller's own
//   `drainAgain`), so nothing committed after that pull began is left for the next timer.
import type { ChangeInfo } from './change-stream.ts';

export interface LivePullOptions {
  /** Follows the change stream (sync/change-stream.ts `followChanges`); returns its stop. */
  follow(onChange: (info: ChangeInfo) => void): () => void;
  /** Pulls what changed (the controller's sync). */
  pull(): void;
  /** How long to gather events into one pull. */
  waitMs?: number;
}

/** What the runtime waits before pulling after a change: a batch of commits makes one pull. */
export const LIVE_PULL_WAIT_MS = 150;

/** Follows the stream until the returned function is called. */
export function followOwnChanges(opts: LivePullOptions): () => void {
  const waitMs = opts.waitMs ?? LIVE_PULL_WAIT_MS;
  let seen: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const pullSoon = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) opts.pull();
    }, waitMs);
  };

  const stop = opts.follow((info) => {
    if (stopped) return;
    const first = seen === undefined;
    const moved = info.version === undefined || info.version !== seen;
    if (info.version !== undefined) seen = info.version;
    if (info.gap || info.kind === 'poll') return pullSoon();
    if (info.kind === 'ready' && first) return undefined;
    if (moved) pullSoon();
    return undefined;
  });

  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    stop();
  };
}
