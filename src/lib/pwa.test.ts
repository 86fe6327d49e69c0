// The page's PWA logic in Node: fakes stand in for window, navigator.serviceWorker, the worker
// registration and the storages; Vitest's fake timers drive the 20 s poll and the 2 s prompt delay.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_RELOAD_KEY,
  INSTALL_HIDDEN_KEY,
  INSTALL_PROMPT_DELAY_MS,
  OUTBOX_SYNC_TAG,
  RELOAD_GUARD_MS,
  SW_RELOAD_KEY,
  UPDATE_POLL_MS,
  createPwa,
  isChunkLoadError,
  type ContainerLike,
  type Pwa,
  type PwaEnv,
  type RegistrationLike,
  type StorageLike,
  type WorkerLike,
} from './pwa.ts';

class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

class FakeWorker extends EventTarget implements WorkerLike {
  state = 'installing';
  readonly messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  setState(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget implements RegistrationLike {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  updates = 0;
  syncTags: string[] = [];
  sync: RegistrationLike['sync'] = { register: async (tag: string) => void this.syncTags.push(tag) };
  update() {
    this.updates++;
    return Promise.resolve();
  }
  /** A new version is found and starts installing. */
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

class FakeContainer extends EventTarget implements ContainerLike {
  controller: WorkerLike | null = null;
  registration = new FakeRegistration();
  registerCalls: string[] = [];
  failWith: Error | undefined;
  register(url: string) {
    this.registerCalls.push(url);
    return this.failWith ? Promise.reject(this.failWith) : Promise.resolve(this.registration);
  }
  getRegistration() {
    return Promise.resolve<RegistrationLike | undefined>(this.registration);
  }
  /** The page gets a (new) controller. */
  changeController(worker: WorkerLike) {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

interface Harness {
  env: PwaEnv;
  window: EventTarget;
  container: FakeContainer;
  sessionStorage: MemoryStorage;
  localStorage: MemoryStorage;
  reloads: () => number;
  /** A fresh page load in the same tab: same storages, new window and module state. */
  reloadPage(): Harness;
}

function harness(opts: { readyState?: DocumentReadyState; storages?: [MemoryStorage, MemoryStorage]; online?: boolean } = {}): Harness {
  const [sessionStorage, localStorage] = opts.storages ?? [new MemoryStorage(), new MemoryStorage()];
  const window = new EventTarget();
  const container = new FakeContainer();
  let reloads = 0;
  const state = { online: opts.online ?? true };
  const env: PwaEnv = {
    window,
    document: { readyState: opts.readyState ?? 'complete' },
    navigator: {
      serviceWorker: container,
      get onLine() {
        return state.online;
      },
    },
    sessionStorage,
    localStorage,
    reload: () => void reloads++,
    now: () => Date.now(),
    serviceWorkerEnabled: true,
  };
  return {
    env,
    window,
    container,
    sessionStorage,
    localStorage,
    reloads: () => reloads,
    reloadPage: () => harness({ ...opts, storages: [sessionStorage, localStorage] }),
  };
}

const started: Pwa[] = [];
function start(h: Harness): Pwa {
  const pwa = createPwa(h.env);
  pwa.start();
  started.push(pwa);
  return pwa;
}

/** Lets the awaited register() and the handlers after it run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-01T08:00:00Z') });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const pwa of started.splice(0)) pwa.stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('registration', () => {
  it('registers /sw.js once the page has loaded', async () => {
    const h = harness({ readyState: 'loading' });
    start(h);
    await settle();
    expect(h.container.registerCalls).toEqual([]);
    h.window.dispatchEvent(new Event('load'));
    await settle();
    expect(h.container.registerCalls).toEqual(['/sw.js']);
  });

  it('sets the registration-error flag when registering fails, and tells subscribers', async () => {
    const h = harness();
    h.container.failWith = new Error('SecurityError');
    const pwa = createPwa(h.env);
    started.push(pwa);
    const seen: boolean[] = [];
    pwa.registrationError.subscribe(() => seen.push(pwa.registrationError.get()));
    expect(pwa.registrationError.get()).toBe(false);
    pwa.start();
    await settle();
    expect(pwa.registrationError.get()).toBe(true);
    expect(seen).toEqual([true]);
  });

  it('leaves the flag down when registering works', async () => {
    const pwa = start(harness());
    await settle();
    expect(pwa.registrationError.get()).toBe(false);
  });

  it('does not register when disabled (development) or unsupported', async () => {
    const h = harness();
    h.env.serviceWorkerEnabled = false;
    const pwa = start(h);
    await settle();
    expect(h.container.registerCalls).toEqual([]);
    expect(pwa.registrationError.get()).toBe(false);

    const h2 = harness();
    h2.env.navigator = {};
    const pwa2 = start(h2);
    await settle();
    expect(pwa2.registrationError.get()).toBe(false);
  });
});

describe('update check', () => {
  it('runs at start-up and then every 20 s, and stops with stop()', async () => {
    const h = harness();
    const pwa = start(h);
    await settle();
    expect(h.container.registration.updates).toBe(1);
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_MS - 1);
    expect(h.container.registration.updates).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.container.registration.updates).toBe(2);
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_MS * 3);
    expect(h.container.registration.updates).toBe(5);
    pwa.stop();
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_MS * 3);
    expect(h.container.registration.updates).toBe(5);
  });

  it('skips the check while offline and survives a failing check', async () => {
    const h = harness({ online: false });
    start(h);
    await settle();
    expect(h.container.registration.updates).toBe(0);

    const h2 = harness();
    let calls = 0;
    h2.container.registration.update = () => (calls++, Promise.reject(new TypeError('Failed to fetch')));
    const pwa = start(h2);
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_MS * 2);
    expect(calls).toBe(3);
    expect(pwa.registrationError.get()).toBe(false);
  });
});

describe('new version', () => {
  it('tells a new version that finished installing to take over, then reloads once', async () => {
    const h = harness();
    const old = new FakeWorker();
    old.state = 'activated';
    h.container.controller = old;
    h.container.registration.active = old;
    start(h);
    await settle();

    const next = new FakeWorker();
    h.container.registration.found(next);
    next.setState('installed');
    expect(next.messages).toEqual([{ type: 'skip-waiting' }]);

    h.container.changeController(next);
    expect(h.reloads()).toBe(1);
    // A second controllerchange on the same page (e.g. another tab's switch) does not reload again.
    h.container.changeController(new FakeWorker());
    expect(h.reloads()).toBe(1);
    expect(h.sessionStorage.getItem(SW_RELOAD_KEY)).toBe(String(Date.now()));
  });

  it('switches to a version that was already waiting when the page opened', async () => {
    const h = harness();
    const old = new FakeWorker();
    const waiting = new FakeWorker();
    waiting.state = 'installed';
    h.container.controller = old;
    Object.assign(h.container.registration, { active: old, waiting });
    start(h);
    await settle();
    expect(waiting.messages).toEqual([{ type: 'skip-waiting' }]);
  });

  it('the reloaded page does not reload again right away (sessionStorage guard), but may later', async () => {
    const h = harness();
    h.container.controller = new FakeWorker();
    start(h);
    await settle();
    h.container.changeController(new FakeWorker());
    expect(h.reloads()).toBe(1);

    const after = h.reloadPage();
    after.container.controller = new FakeWorker();
    start(after);
    await settle();
    after.container.changeController(new FakeWorker());
    expect(after.reloads()).toBe(0);

    // Past the guard window a newer version reloads the page again.
    await vi.advanceTimersByTimeAsync(RELOAD_GUARD_MS);
    const later = after.reloadPage();
    later.container.controller = new FakeWorker();
    start(later);
    await settle();
    later.container.changeController(new FakeWorker());
    expect(later.reloads()).toBe(1);
  });

  it('does not reload on the first install, when the new worker merely claims the page', async () => {
    const h = harness();
    start(h);
    await settle();
    const first = new FakeWorker();
    h.container.registration.found(first);
    first.setState('installed');
    expect(first.messages).toEqual([]);
    h.container.registration.active = first;
    first.setState('activated');
    h.container.changeController(first);
    expect(h.reloads()).toBe(0);
    expect(h.sessionStorage.getItem(SW_RELOAD_KEY)).toBeNull();
  });

  it('does not reload when the guard marker cannot be written (no loop protection, no reload)', async () => {
    const h = harness();
    h.sessionStorage.setItem = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    h.container.controller = new FakeWorker();
    start(h);
    await settle();
    h.container.changeController(new FakeWorker());
    expect(h.reloads()).toBe(0);
  });
});

describe('chunk load errors', () => {
  const chunkError = () => new TypeError('Failed to fetch dynamically imported module: https://eddy.test/assets/app-x1.js');

  function rejection(reason: unknown): Event {
    return Object.assign(new Event('unhandledrejection'), { reason });
  }
  function preloadError(payload: unknown): Event {
    return Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload });
  }

  it('recognises the browsers’ messages', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('x'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/app.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });

  it('an unhandled chunk rejection reloads once; a second one within 10 s does not', async () => {
    const h = harness();
    start(h);
    h.window.dispatchEvent(rejection(chunkError()));
    expect(h.reloads()).toBe(1);
    expect(h.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(Date.now()));

    // The reloaded page fails again 9.999 s later: the chunk is really gone; no loop.
    await vi.advanceTimersByTimeAsync(RELOAD_GUARD_MS - 1);
    const again = h.reloadPage();
    start(again);
    again.window.dispatchEvent(rejection(chunkError()));
    expect(again.reloads()).toBe(0);

    // Once the window has passed, a new failure reloads again.
    await vi.advanceTimersByTimeAsync(1);
    const later = h.reloadPage();
    start(later);
    later.window.dispatchEvent(rejection(chunkError()));
    expect(later.reloads()).toBe(1);
  });

  it("other rejections don't reload", () => {
    const h = harness();
    start(h);
    h.window.dispatchEvent(rejection(new Error('Network request failed')));
    h.window.dispatchEvent(rejection(undefined));
    expect(h.reloads()).toBe(0);
  });

  it("Vite's preload error reloads and is prevented; within the guard it propagates", async () => {
    const h = harness();
    start(h);
    const first = preloadError(chunkError());
    h.window.dispatchEvent(first);
    expect(h.reloads()).toBe(1);
    expect(first.defaultPrevented).toBe(true);

    const again = h.reloadPage();
    start(again);
    const second = preloadError(chunkError());
    again.window.dispatchEvent(second);
    expect(again.reloads()).toBe(0);
    expect(second.defaultPrevented).toBe(false);
  });

  it('handleChunkLoadError serves error boundaries that caught the failure themselves', () => {
    const h = harness();
    const pwa = start(h);
    expect(pwa.handleChunkLoadError(new Error('boom'))).toBe(false);
    expect(pwa.handleChunkLoadError(chunkError())).toBe(true);
    expect(h.reloads()).toBe(1);
  });
});

describe('install prompt', () => {
  class FakePromptEvent extends Event {
    prompts = 0;
    outcome: 'accepted' | 'dismissed' = 'accepted';
    failPrompt = false;
    constructor() {
      super('beforeinstallprompt', { cancelable: true });
    }
    prompt() {
      this.prompts++;
      return this.failPrompt ? Promise.reject(new DOMException('gesture', 'NotAllowedError')) : Promise.resolve();
    }
    get userChoice() {
      return Promise.resolve({ outcome: this.outcome });
    }
  }

  it('is captured and shown automatically 2 s after the event', async () => {
    const h = harness();
    const pwa = start(h);
    const event = new FakePromptEvent();
    h.window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(pwa.install.get()).toMatchObject({ available: true, hidden: false });
    await vi.advanceTimersByTimeAsync(INSTALL_PROMPT_DELAY_MS - 1);
    expect(event.prompts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(event.prompts).toBe(1);
    expect(pwa.install.get().available).toBe(false);
  });

  it('is never shown automatically once hidden permanently, also after a reload', async () => {
    const h = harness();
    const pwa = start(h);
    const event = new FakePromptEvent();
    h.window.dispatchEvent(event);
    pwa.hideInstallPromptPermanently();
    await vi.advanceTimersByTimeAsync(INSTALL_PROMPT_DELAY_MS * 2);
    expect(event.prompts).toBe(0);
    expect(pwa.install.get().hidden).toBe(true);
    expect(h.localStorage.getItem(INSTALL_HIDDEN_KEY)).not.toBeNull();

    const next = h.reloadPage();
    const pwa2 = start(next);
    expect(pwa2.install.get().hidden).toBe(true);
    const event2 = new FakePromptEvent();
    next.window.dispatchEvent(event2);
    await vi.advanceTimersByTimeAsync(INSTALL_PROMPT_DELAY_MS * 2);
    expect(event2.prompts).toBe(0);
    // An explicit "Install" button still works.
    await expect(pwa2.promptInstall()).resolves.toBe('accepted');
    expect(event2.prompts).toBe(1);
  });

  it('keeps the prompt for a button when the browser refuses to show it without a gesture', async () => {
    const h = harness();
    const pwa = start(h);
    const event = new FakePromptEvent();
    event.failPrompt = true;
    h.window.dispatchEvent(event);
    await vi.advanceTimersByTimeAsync(INSTALL_PROMPT_DELAY_MS);
    expect(event.prompts).toBe(1);
    expect(pwa.install.get().available).toBe(true);
    event.failPrompt = false;
    event.outcome = 'dismissed';
    await expect(pwa.promptInstall()).resolves.toBe('dismissed');
    await expect(pwa.promptInstall()).resolves.toBe('unavailable');
  });

  it('reports the installation', () => {
    const h = harness();
    const pwa = start(h);
    h.window.dispatchEvent(new FakePromptEvent());
    h.window.dispatchEvent(new Event('appinstalled'));
    expect(pwa.install.get()).toEqual({ available: false, hidden: false, installed: true });
  });
});

describe('outbox replay', () => {
  it('asks the active worker to replay and registers Background Sync', async () => {
    const h = harness();
    const active = new FakeWorker();
    h.container.registration.active = active;
    const pwa = start(h);
    await expect(pwa.requestReplay()).resolves.toBe(true);
    expect(active.messages).toEqual([{ type: 'replay' }]);
    expect(h.container.registration.syncTags).toEqual([OUTBOX_SYNC_TAG]);
  });

  it('works without Background Sync, and reports false without a worker', async () => {
    const h = harness();
    const active = new FakeWorker();
    Object.assign(h.container.registration, { active, sync: undefined });
    const pwa = start(h);
    await expect(pwa.requestReplay()).resolves.toBe(true);
    expect(active.messages).toEqual([{ type: 'replay' }]);

    const none = harness();
    await expect(start(none).requestReplay()).resolves.toBe(false);
  });

  it("passes the worker's replay-done messages to subscribers until they unsubscribe", () => {
    const h = harness();
    const pwa = start(h);
    const seen: unknown[] = [];
    const off = pwa.onReplayDone((m) => seen.push(m));
    const done = { type: 'replay-done', sent: 2, kept: 1, rejected: 0, unauthorized: false };
    h.container.dispatchEvent(new MessageEvent('message', { data: done }));
    h.container.dispatchEvent(new MessageEvent('message', { data: { type: 'something-else' } }));
    off();
    h.container.dispatchEvent(new MessageEvent('message', { data: done }));
    expect(seen).toEqual([done]);
  });
});
