// The page's side of the installable, offline-first app (docs/requirements.md §4, §8, §9): registers the service
// worker (sw/sw.ts, built to /sw.js), looks for a new version at start-up and every 20 s, switches to
// a waiting version and reloads once, reloads once when a lazily loaded chunk is missing (a new
// deploy replaced it), asks the worker to replay the outbox, and shows the browser's install prompt.
//
// Framework-free on purpose: React reads the two stores with useSyncExternalStore, and the tests
// run it in Node with fakes for window, navigator.serviceWorker and the storages (see PwaEnv).
import { inBackground } from '../../sync/background.ts';
import { log } from '../../sync/log.ts';
import type { ReplayDoneMessage } from '../../sync/drain.ts';

export type { ReplayDoneMessage };

export const SW_URL = '/sw.js';
/** Background Sync tag the worker replays the outbox on (sw/sw.ts). */
export const OUTBOX_SYNC_TAG = 'eddy-outbox';
/** docs/requirements.md §9: service worker update poll. */
export const UPDATE_POLL_MS = 20_000;
/** docs/requirements.md §9: chunk-reload guard; also the window in which a version switch reloads only once. */
export const RELOAD_GUARD_MS = 10_000;
/** docs/requirements.md §9: install prompt delay. */
export const INSTALL_PROMPT_DELAY_MS = 2_000;
/** docs/requirements.md §2: the permanent "don't show the install prompt" choice lives in local storage. */
export const INSTALL_HIDDEN_KEY = 'eddy-install-prompt-hidden';
/** sessionStorage markers: when this tab last reloaded for a missing chunk / a new version. */
export const CHUNK_RELOAD_KEY = 'eddy-chunk-reload-at';
export const SW_RELOAD_KEY = 'eddy-sw-reload-at';

export interface InstallState {
  /** The browser offered installation and the prompt has not been used yet. */
  available: boolean;
  /** The user chose never to see the prompt again. */
  hidden: boolean;
  /** The app was installed in this session (the UI shows the installed notice). */
  installed: boolean;
}

export interface ReadableStore<T> {
  get(): T;
  /** Returns the unsubscribe function (the shape useSyncExternalStore wants). */
  subscribe(listener: () => void): () => void;
}

// The small parts of the browser this module uses, so tests can hand in fakes.
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
export interface WorkerLike extends EventTarget {
  readonly state: string;
  postMessage(message: unknown): void;
}
export interface RegistrationLike extends EventTarget {
  readonly installing: WorkerLike | null;
  readonly waiting: WorkerLike | null;
  readonly active: WorkerLike | null;
  update(): Promise<unknown>;
  /** Background Sync; missing in browsers without it (Firefox, Safari). */
  readonly sync?: { register(tag: string): Promise<void> } | undefined;
}
export interface ContainerLike extends EventTarget {
  readonly controller: WorkerLike | null;
  register(url: string, options?: RegistrationOptions): Promise<RegistrationLike>;
  getRegistration(): Promise<RegistrationLike | undefined>;
  startMessages?(): void;
}
export interface PwaEnv {
  /** Receives load, beforeinstallprompt, appinstalled, vite:preloadError, unhandledrejection. */
  window: EventTarget;
  document: { readonly readyState: DocumentReadyState };
  navigator: { readonly serviceWorker?: ContainerLike | undefined; readonly onLine?: boolean };
  sessionStorage: StorageLike;
  localStorage: StorageLike;
  reload(): void;
  now(): number;
  /** Off in development: Vite's dev server has no /sw.js. */
  serviceWorkerEnabled: boolean;
}

/** Chromium's install prompt event; not in TypeScript's DOM lib. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export type InstallOutcome = 'accepted' | 'dismissed' | 'unavailable';

export interface Pwa {
  /** Registers the worker (after load) and starts listening; calling it again does nothing. */
  start(): void;
  /** Removes every listener and timer (tests; a page never needs it). */
  stop(): void;
  /** Set when registering the service worker failed (docs/requirements.md §8): the app will not work offline. */
  registrationError: ReadableStore<boolean>;
  install: ReadableStore<InstallState>;
  /** Shows the captured install prompt now (e.g. from an "Install" button). */
  promptInstall(): Promise<InstallOutcome>;
  hideInstallPromptPermanently(): void;
  /** Asks the worker to replay the outbox now, and registers Background Sync for later. */
  requestReplay(): Promise<boolean>;
  onReplayDone(listener: (message: ReplayDoneMessage) => void): () => void;
  /** For error boundaries that catch a failed lazy import themselves: reloads once if it is one. */
  handleChunkLoadError(error: unknown): boolean;
}

function createStore<T>(initial: T): ReadableStore<T> & { set(value: T): void } {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// The messages browsers use for a dynamic import or stylesheet that could not be loaded
// (Chromium, Firefox, Safari, Vite's CSS preload, webpack-style ChunkLoadError).
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (?:CSS )?chunk \S+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return typeof error === 'string' && CHUNK_ERROR.test(error);
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === 'ChunkLoadError' || (typeof message === 'string' && CHUNK_ERROR.test(message));
}

export function isReplayDoneMessage(data: unknown): data is ReplayDoneMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  return m['type'] === 'replay-done' && typeof m['sent'] === 'number' && typeof m['kept'] === 'number' && typeof m['rejected'] === 'number';
}

export function createPwa(env: PwaEnv): Pwa {
  const registrationError = createStore(false);
  const isHidden = () => read(env.localStorage, INSTALL_HIDDEN_KEY) !== null;
  const install = createStore<InstallState>({ available: false, hidden: isHidden(), installed: false });
  const disposers: Array<() => void> = [];
  let started = false;
  let reloading = false;
  let deferredPrompt: BeforeInstallPromptEvent | undefined;
  let promptTimer: ReturnType<typeof setTimeout> | undefined;

  const listen = (target: EventTarget, type: string, handler: (event: Event) => void, options?: AddEventListenerOptions) => {
    target.addEventListener(type, handler, options);
    disposers.push(() => target.removeEventListener(type, handler));
  };

  const updateInstall = (patch: Partial<InstallState>) => install.set({ ...install.get(), ...patch });

  /**
   * Reloads unless this tab already reloaded for the same reason within the guard window: a new
   * version or a missing chunk must not turn into a reload loop (e.g. a chunk that is really gone).
   * The marker lives in sessionStorage so it survives the reload it guards.
   */
  function reloadGuarded(markerKey: string): boolean {
    if (reloading) return false;
    const now = env.now();
    const last = Number(read(env.sessionStorage, markerKey));
    if (last > 0 && now - last >= 0 && now - last < RELOAD_GUARD_MS) return false;
    // Without a marker nothing would stop a loop, so no marker, no reload.
    if (!write(env.sessionStorage, markerKey, String(now))) return false;
    reloading = true;
    // Said in the console, so a reload nobody asked for can be told apart in a test's trail.
    log.warn(markerKey === SW_RELOAD_KEY ? 'Reloading: a new version of the app took over' : 'Reloading: a part of the app failed to load');
    env.reload();
    return true;
  }

  function handleChunkLoadError(error: unknown): boolean {
    return isChunkLoadError(error) && reloadGuarded(CHUNK_RELOAD_KEY);
  }

  async function promptInstall(): Promise<InstallOutcome> {
    const event = deferredPrompt;
    if (!event) return 'unavailable';
    clearTimeout(promptTimer);
    // A prompt can be shown once; after that the browser fires beforeinstallprompt again if it
    // still considers the app installable.
    deferredPrompt = undefined;
    updateInstall({ available: false });
    try {
      await event.prompt();
      return (await event.userChoice).outcome;
    } catch (err) {
      // E.g. Chromium wants a user gesture: keep the prompt for an "Install" button.
      deferredPrompt = event;
      updateInstall({ available: true });
      log.warn('Install prompt could not be shown', err);
      return 'unavailable';
    }
  }

  function hideInstallPromptPermanently(): void {
    clearTimeout(promptTimer);
    write(env.localStorage, INSTALL_HIDDEN_KEY, '1');
    updateInstall({ hidden: true });
  }

  function watchInstallPrompt(): void {
    listen(env.window, 'beforeinstallprompt', (event) => {
      // Keep the browser's own banner away: the prompt is shown by us, 2 s later (docs/requirements.md §4).
      event.preventDefault();
      deferredPrompt = event as BeforeInstallPromptEvent;
      updateInstall({ available: true, hidden: isHidden() });
      clearTimeout(promptTimer);
      if (!isHidden()) promptTimer = setTimeout(() => inBackground(promptInstall(), 'Install prompt could not be shown'), INSTALL_PROMPT_DELAY_MS);
    });
    listen(env.window, 'appinstalled', () => {
      clearTimeout(promptTimer);
      deferredPrompt = undefined;
      updateInstall({ available: false, installed: true });
    });
    disposers.push(() => clearTimeout(promptTimer));
  }

  function watchChunkErrors(): void {
    // Vite dispatches this for a failed lazy import or CSS preload; preventing it stops the error
    // from propagating, which we only want when the page is about to reload anyway.
    listen(env.window, 'vite:preloadError', (event) => {
      if (reloadGuarded(CHUNK_RELOAD_KEY)) event.preventDefault();
    });
    listen(env.window, 'unhandledrejection', (event) => {
      handleChunkLoadError((event as PromiseRejectionEvent).reason);
    });
  }

  async function registerWorker(container: ContainerLike): Promise<void> {
    // A page opened before any worker existed is taken over by clients.claim() on first install:
    // that controllerchange is not a new version, and the page already runs the current code.
    let hadController = container.controller !== null;
    let switching = false;
    listen(container, 'controllerchange', () => {
      if (!hadController && !switching) {
        hadController = true;
        return;
      }
      reloadGuarded(SW_RELOAD_KEY);
    });

    let registration: RegistrationLike;
    try {
      registration = await container.register(SW_URL, { scope: '/' });
    } catch (err) {
      registrationError.set(true);
      log.error('Service worker registration failed', err);
      return;
    }
    registrationError.set(false);

    // A new version that finished installing waits while an older one is active; tell it to take
    // over (sw/sw.ts skips waiting only on this message). The reload follows on controllerchange.
    const switchTo = (worker: WorkerLike) => {
      switching = true;
      worker.postMessage({ type: 'skip-waiting' });
    };
    if (registration.waiting && registration.active) switchTo(registration.waiting);
    listen(registration, 'updatefound', () => {
      const worker = registration.installing;
      if (!worker) return;
      listen(worker, 'statechange', () => {
        // With no active worker this is the first install: it activates by itself.
        if (worker.state === 'installed' && registration.active && registration.active !== worker) switchTo(worker);
      });
    });

    const checkForUpdate = () => {
      if (env.navigator.onLine === false) return;
      // Offline, a server restart or a deploy in progress: the next poll tries again.
      registration.update().catch(() => undefined);
    };
    checkForUpdate();
    const timer = setInterval(checkForUpdate, UPDATE_POLL_MS);
    disposers.push(() => clearInterval(timer));
  }

  function start(): void {
    if (started) return;
    started = true;
    watchChunkErrors();
    watchInstallPrompt();
    const container = env.navigator.serviceWorker;
    if (!env.serviceWorkerEnabled || !container) return;
    // After load, so the worker's precaching does not compete with the page's own first requests.
    const go = () => inBackground(registerWorker(container), 'Service worker registration failed');
    if (env.document.readyState === 'complete') go();
    else listen(env.window, 'load', go, { once: true });
  }

  function stop(): void {
    for (const dispose of disposers.splice(0)) dispose();
    started = false;
  }

  async function requestReplay(): Promise<boolean> {
    const container = env.navigator.serviceWorker;
    if (!container) return false;
    const registration = await container.getRegistration().catch(() => undefined);
    const worker = registration?.active;
    if (!registration || !worker) return false;
    worker.postMessage({ type: 'replay' });
    // Background Sync delivers what is left after the page is closed; the browser may refuse it
    // (permission, unsupported): the message above has replayed for now either way.
    await registration.sync?.register(OUTBOX_SYNC_TAG).catch(() => undefined);
    return true;
  }

  function onReplayDone(listener: (message: ReplayDoneMessage) => void): () => void {
    const container = env.navigator.serviceWorker;
    if (!container) return () => undefined;
    const handler = (event: Event) => {
      const data: unknown = (event as MessageEvent).data;
      if (isReplayDoneMessage(data)) listener(data);
    };
    container.addEventListener('message', handler);
    // Messages from the worker are queued until the page opts in.
    container.startMessages?.();
    return () => container.removeEventListener('message', handler);
  }

  return {
    start,
    stop,
    registrationError,
    install,
    promptInstall,
    hideInstallPromptPermanently,
    requestReplay,
    onReplayDone,
    handleChunkLoadError,
  };
}

// Storage can throw (disabled cookies, Safari private mode, quota): treat that as "nothing stored".
function read(storage: StorageLike, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}
function write(storage: StorageLike, key: string, value: string): boolean {
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** window.localStorage itself throws when storage is blocked; defer that to read()/write(). */
function lazyStorage(get: () => Storage): StorageLike {
  return {
    getItem: (key) => get().getItem(key),
    setItem: (key, value) => get().setItem(key, value),
    removeItem: (key) => get().removeItem(key),
  };
}

function browserEnv(): PwaEnv {
  return {
    window,
    document,
    navigator: {
      serviceWorker: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
      get onLine() {
        return navigator.onLine;
      },
    },
    sessionStorage: lazyStorage(() => window.sessionStorage),
    localStorage: lazyStorage(() => window.localStorage),
    reload: () => window.location.reload(),
    now: () => Date.now(),
    serviceWorkerEnabled: import.meta.env.PROD,
  };
}

let browserPwa: Pwa | undefined;
/** The page's instance, created on first use. */
export const getPwa = (): Pwa => (browserPwa ??= createPwa(browserEnv()));

export const startPwa = (): void => getPwa().start();
export const registrationError: ReadableStore<boolean> = {
  get: () => getPwa().registrationError.get(),
  subscribe: (listener) => getPwa().registrationError.subscribe(listener),
};
export const installState: ReadableStore<InstallState> = {
  get: () => getPwa().install.get(),
  subscribe: (listener) => getPwa().install.subscribe(listener),
};
export const isInstallPromptHidden = (): boolean => getPwa().install.get().hidden;
export const hideInstallPromptPermanently = (): void => getPwa().hideInstallPromptPermanently();
export const promptInstall = (): Promise<InstallOutcome> => getPwa().promptInstall();
export const requestReplay = (): Promise<boolean> => getPwa().requestReplay();
export const onReplayDone = (listener: (message: ReplayDoneMessage) => void): (() => void) => getPwa().onReplayDone(listener);
export const handleChunkLoadError = (error: unknown): boolean => getPwa().handleChunkLoadError(error);
