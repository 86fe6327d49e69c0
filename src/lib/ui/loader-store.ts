// The global full-screen loader (docs/requirements.md §2, §3, §4): a tiny external store for useSyncExternalStore.
// Each caller gets its own request id, so one finishing does not hide another's loader: the overlay
// shows while at least one request is active. Anything that may leave a request open forever (a
// thrown error, a rejected promise nobody awaited, the cancel event) clears them all, because a
// stuck full-screen overlay locks the patient out of the whole app.
import { msg } from '@lingui/core/macro';
import type { UiText } from './ui-text.ts';

export const LOADER_Z_INDEX = 99999;
/** Dispatch on window to cancel every active loader request (their onCancel callbacks run). */
export const LOADER_CANCEL_EVENT = 'eddy:loader-cancel';
export const DEFAULT_LOADING_TEXT = msg`Loading...`;
export const DEFAULT_SUB_TEXT = msg`Please wait while we process your request`;

export interface LoaderOptions {
  /** Stop the page behind from scrolling (default true). */
  lockScroll?: boolean;
  /** Let a click (or Escape) on the overlay cancel it (default false). */
  canCancel?: boolean;
  loadingText?: UiText;
  subText?: UiText;
  /** Show a progress bar; implied when `progress` is given. */
  showProgress?: boolean;
  /** 0–100; other values are clamped. */
  progress?: number;
  /** Runs when the request is cancelled by the user or the cancel event, not when it is hidden. */
  onCancel?: () => void;
}

export interface LoaderState {
  readonly isVisible: boolean;
  readonly lockScroll: boolean;
  readonly canCancel: boolean;
  readonly loadingText: UiText;
  readonly subText: UiText;
  readonly showProgress: boolean;
  readonly progress: number;
  readonly zIndex: number;
}

export type LoaderId = string;

interface LoaderRequest {
  lockScroll: boolean;
  canCancel: boolean;
  loadingText: UiText;
  subText: UiText;
  showProgress: boolean;
  progress: number;
  onCancel: (() => void) | undefined;
}

export const HIDDEN_LOADER: LoaderState = Object.freeze({
  isVisible: false,
  lockScroll: false,
  canCancel: false,
  loadingText: DEFAULT_LOADING_TEXT,
  subText: DEFAULT_SUB_TEXT,
  showProgress: false,
  progress: 0,
  zIndex: LOADER_Z_INDEX,
});

export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return value === Infinity ? 100 : 0;
  return Math.min(100, Math.max(0, value));
}

export interface LoaderStore {
  show(options?: LoaderOptions): LoaderId;
  /** Changes an active request, e.g. its progress. Unknown or finished ids are ignored. */
  update(id: LoaderId, patch: Omit<LoaderOptions, 'onCancel'>): void;
  /** Ends one request; safe to call twice. */
  hide(id: LoaderId): void;
  hideAll(): void;
  /** A user's cancel (click, Escape): honoured only when cancelling is allowed. Returns whether it was. */
  cancel(): boolean;
  subscribe(listener: () => void): () => void;
  getSnapshot(): LoaderState;
  /** Hide everything on 'error', 'unhandledrejection' and the cancel event of `target`. */
  bindGlobalEvents(target: EventTarget): () => void;
}

export function createLoaderStore(): LoaderStore {
  // Insertion order is kept, so the last entry is the newest request: its texts and progress show.
  const active = new Map<LoaderId, LoaderRequest>();
  const listeners = new Set<() => void>();
  let snapshot: LoaderState = HIDDEN_LOADER;
  let counter = 0;

  function recompute(): void {
    const requests = [...active.values()];
    const top = requests.at(-1);
    snapshot = top
      ? {
          isVisible: true,
          lockScroll: requests.some((r) => r.lockScroll),
          // A cancel hides every request, so it is allowed only if every one of them allows it.
          canCancel: requests.every((r) => r.canCancel),
          loadingText: top.loadingText,
          subText: top.subText,
          showProgress: top.showProgress,
          progress: top.progress,
          zIndex: LOADER_Z_INDEX,
        }
      : HIDDEN_LOADER;
    for (const l of [...listeners]) l();
  }

  function apply(req: LoaderRequest, opts: Omit<LoaderOptions, 'onCancel'>): void {
    if (opts.lockScroll !== undefined) req.lockScroll = opts.lockScroll;
    if (opts.canCancel !== undefined) req.canCancel = opts.canCancel;
    if (opts.loadingText !== undefined) req.loadingText = opts.loadingText;
    if (opts.subText !== undefined) req.subText = opts.subText;
    if (opts.progress !== undefined) {
      req.progress = clampProgress(opts.progress);
      req.showProgress = true;
    }
    if (opts.showProgress !== undefined) req.showProgress = opts.showProgress;
  }

  function cancelAll(): void {
    const callbacks = [...active.values()].map((r) => r.onCancel);
    active.clear();
    recompute();
    for (const cb of callbacks) cb?.();
  }

  const store: LoaderStore = {
    show(options = {}) {
      const id = `loader-${++counter}`;
      const req: LoaderRequest = {
        lockScroll: true,
        canCancel: false,
        loadingText: DEFAULT_LOADING_TEXT,
        subText: DEFAULT_SUB_TEXT,
        showProgress: false,
        progress: 0,
        onCancel: options.onCancel,
      };
      apply(req, options);
      active.set(id, req);
      recompute();
      return id;
    },
    update(id, patch) {
      const req = active.get(id);
      if (!req) return;
      apply(req, patch);
      recompute();
    },
    hide(id) {
      if (active.delete(id)) recompute();
    },
    hideAll() {
      if (active.size === 0) return;
      active.clear();
      recompute();
    },
    cancel() {
      if (!snapshot.isVisible || !snapshot.canCancel) return false;
      cancelAll();
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    bindGlobalEvents(target) {
      const hideAll = () => store.hideAll();
      target.addEventListener('error', hideAll);
      target.addEventListener('unhandledrejection', hideAll);
      target.addEventListener(LOADER_CANCEL_EVENT, cancelAll);
      return () => {
        target.removeEventListener('error', hideAll);
        target.removeEventListener('unhandledrejection', hideAll);
        target.removeEventListener(LOADER_CANCEL_EVENT, cancelAll);
      };
    },
  };
  return store;
}

/** The app's one loader, bound to the page's global errors from the start (not from the overlay's mount). */
export const loader = createLoaderStore();
if (typeof window !== 'undefined') loader.bindGlobalEvents(window);

/** Shows the loader while `work` runs and hides it however `work` ends. */
export async function withLoader<T>(work: () => Promise<T>, options?: LoaderOptions): Promise<T> {
  const id = loader.show(options);
  try {
    return await work();
  } finally {
    loader.hide(id);
  }
}

/**
 * For an API client's `onActivity`: the loader shows while at least one of its requests runs
 * (docs/requirements.md §4), as one loader entry however many requests overlap.
 */
export function loaderActivity(store: LoaderStore = loader): (delta: 1 | -1) => void {
  let active = 0;
  let id: LoaderId | undefined;
  return (delta) => {
    active = Math.max(0, active + delta);
    if (active > 0 && !id) id = store.show();
    if (active === 0 && id) {
      store.hide(id);
      id = undefined;
    }
  };
}
