// Stands in for the `unload` package (vite.config.ts aliases it here), which broadcast-channel's
// leader election uses so that a tab leading the replication gives up leadership as it goes away.
// That package listens for `unload`, an event Chromium deprecates (Lighthouse flags it) and that keeps
// a page out of the back/forward cache. `pagehide` fires in the same moment when a page is really
// unloaded (`persisted` false); a page kept in the back/forward cache is not going away, and keeps
// its leadership (the browser does not keep a page that holds a Web Lock there anyway).
// The same API: add(fn) → { remove, run }, runAll, removeAll, getSize.
import { inBackground } from '../../sync/background.ts';

type Listener = () => unknown;

/** A worker's global scope class; none in a page (this file is type-checked with the DOM's types, and runs in both). */
declare const WorkerGlobalScope: (abstract new () => object) | undefined;

const listeners = new Set<Listener>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  if (typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope) {
    // A worker has no page events: its close() is the one moment it can act on.
    const close = self.close.bind(self);
    self.close = () => {
      inBackground(runAll(), 'A page-exit listener failed');
      close();
    };
    return;
  }
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  window.addEventListener(
    'pagehide',
    (event) => {
      if (!event.persisted) inBackground(runAll(), 'A page-exit listener failed');
    },
    true,
  );
}

export function add(fn: Listener): { remove: () => boolean; run: () => unknown } {
  if (typeof fn !== 'function') throw new Error('Listener is no function');
  listen();
  listeners.add(fn);
  return {
    remove: () => listeners.delete(fn),
    run: () => {
      listeners.delete(fn);
      return fn();
    },
  };
}

export function runAll(): Promise<unknown[]> {
  const running = [...listeners].map((fn) => fn());
  listeners.clear();
  return Promise.all(running);
}

export function removeAll(): void {
  listeners.clear();
}

export function getSize(): number {
  return listeners.size;
}
