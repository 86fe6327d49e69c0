// The one lock every sender of the outbox takes (the page's drain, the service worker's, a heal of a
// restored server: sync/history.ts), so that no entry is sent twice at once or rewritten while sent.
// Without Web Locks (older browsers) two drains in one context would still send the same entries
// twice; queueing them on a promise chain at least serialises this context.
let localTail: Promise<unknown> = Promise.resolve();

export async function withOutboxLock<T>(fn: () => Promise<T>): Promise<T> {
  // The page's Navigator and the worker's WorkerNavigator both have locks; Node (the unit tests) has no navigator.
  const locks: LockManager | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) return locks.request('eddy-outbox', fn);
  const run = localTail.then(fn);
  localTail = run.catch(() => undefined);
  return run;
}
