// The banner on the real install logic of src/lib/pwa.ts, with a fake browser around it: a window
// that fires beforeinstallprompt, and a prompt that, like Chromium's, refuses to show without a tap.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPwa, INSTALL_HIDDEN_KEY, INSTALL_PROMPT_DELAY_MS, type Pwa, type StorageLike } from '../lib/pwa.ts';
import { toasts } from '../lib/ui/toast-store.ts';
import { InstallBanner } from './install-banner.tsx';

class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, value);
  removeItem = (key: string) => void this.map.delete(key);
}

let win: EventTarget;
let storage: MemoryStorage;
let tapped: boolean;
let prompts: number;

function makePwa(): Pwa {
  const pwa = createPwa({
    window: win,
    document: { readyState: 'complete' },
    navigator: {},
    sessionStorage: new MemoryStorage(),
    localStorage: storage,
    reload: () => undefined,
    now: () => Date.now(),
    serviceWorkerEnabled: false,
  });
  pwa.start();
  return pwa;
}

function offerInstall(): void {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: () => {
      prompts++;
      return tapped ? Promise.resolve() : Promise.reject(new DOMException('The prompt() method must be called with a user gesture', 'NotAllowedError'));
    },
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  });
  act(() => void win.dispatchEvent(event));
}

const show = (pwa: Pwa) =>
  render(
    <I18nProvider i18n={i18n}>
      <InstallBanner pwa={pwa} />
    </I18nProvider>,
  );

/** Lets the timers run and the rejected automatic prompt settle. */
async function wait(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const banner = () => screen.queryByRole('complementary', { name: 'Install Eddy on this device' });

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
beforeEach(() => {
  vi.useFakeTimers();
  win = new EventTarget();
  storage = new MemoryStorage();
  tapped = false;
  prompts = 0;
});
afterEach(() => {
  cleanup();
  act(() => toasts.clear());
  vi.useRealTimers();
});

describe('InstallBanner', () => {
  it('appears 2 s after the browser offers installation, not before, and survives the failed automatic prompt', async () => {
    const pwa = makePwa();
    show(pwa);
    offerInstall();
    await wait(INSTALL_PROMPT_DELAY_MS - 100);
    expect(banner()).toBeNull();
    await wait(200);
    // pwa.ts tried the prompt on its own at 2 s; the browser refused it without a tap.
    expect(prompts).toBe(1);
    expect(banner()).not.toBeNull();
  });

  it('never appears without an offer', async () => {
    show(makePwa());
    await wait(10_000);
    expect(banner()).toBeNull();
  });

  it('"Install" shows the browser prompt from the tap and the banner goes', async () => {
    const pwa = makePwa();
    show(pwa);
    offerInstall();
    await wait(INSTALL_PROMPT_DELAY_MS + 100);
    tapped = true;
    fireEvent.click(screen.getByRole('button', { name: 'Install' }));
    await wait(0);
    expect(prompts).toBe(2);
    expect(banner()).toBeNull();
  });

  it('"Don\'t show again" hides it for good, also for the next page load', async () => {
    const pwa = makePwa();
    const { unmount } = show(pwa);
    offerInstall();
    await wait(INSTALL_PROMPT_DELAY_MS + 100);
    fireEvent.click(screen.getByRole('button', { name: "Don't show again" }));
    expect(banner()).toBeNull();
    expect(storage.getItem(INSTALL_HIDDEN_KEY)).not.toBeNull();
    unmount();
    pwa.stop();

    // The next visit: same storage, a new page, the browser offers installation again.
    win = new EventTarget();
    show(makePwa());
    offerInstall();
    await wait(10_000);
    expect(banner()).toBeNull();
    expect(prompts).toBe(1);
  });

  it('the close button hides it for now without remembering anything', async () => {
    const pwa = makePwa();
    show(pwa);
    offerInstall();
    await wait(INSTALL_PROMPT_DELAY_MS + 100);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(banner()).toBeNull();
    expect(storage.getItem(INSTALL_HIDDEN_KEY)).toBeNull();
  });

  it('says once that Eddy was installed', async () => {
    const pwa = makePwa();
    const { unmount } = show(pwa);
    act(() => void win.dispatchEvent(new Event('appinstalled')));
    const installed = () => toasts.getSnapshot().filter((t) => t.text === 'Eddy was installed. You can open it from your home screen.');
    expect(installed()).toHaveLength(1);
    expect(installed()[0]?.type).toBe('success');
    unmount();
    act(() => toasts.clear());
    show(pwa);
    expect(installed()).toHaveLength(0);
  });
});
