// The reminders state the screens show, with a fake browser (permission, storage) and a fake
// subscription layer (its own logic is tested in sync/push-subscription.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../sync/api-client.ts';
import type { PushSubscriptions } from '../../sync/push-subscription.ts';
import { createReminders, REMINDERS_OFF_KEY, REMINDERS_PROMPT_DISMISSED_KEY, type RemindersEnv } from './reminders.ts';
import type { ToastOptions } from './ui/toast-store.ts';

function setup(opts: { permission?: NotificationPermission; answer?: NotificationPermission; supported?: boolean; failWith?: unknown } = {}) {
  const items = new Map<string, string>();
  const browser = { permission: opts.permission ?? 'default', asked: 0, onChange: undefined as (() => void) | undefined };
  const env: RemindersEnv = {
    supported: () => opts.supported ?? true,
    permission: () => browser.permission,
    requestPermission: async () => {
      browser.asked++;
      browser.permission = opts.answer ?? 'granted';
      return browser.permission;
    },
    storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) },
    watchPermission: (cb) => {
      browser.onChange = cb;
    },
  };
  const calls: string[] = [];
  let subscribed = false;
  const subscriptions: PushSubscriptions = {
    subscribe: async () => {
      calls.push('subscribe');
      if (opts.failWith) throw opts.failWith;
      subscribed = true;
      return { provider: 'webpush', token: 'e', publicKey: 'k', expirationTime: null, timeZone: 'UTC', locale: 'en', savedAt: 0 };
    },
    refresh: async () => {
      calls.push('refresh');
      if (opts.failWith) throw opts.failWith;
      subscribed = true;
      return 'saved';
    },
    unsubscribe: async () => {
      calls.push('unsubscribe');
      subscribed = false;
    },
    forget: async () => {
      calls.push('forget');
      subscribed = false;
    },
    isSubscribed: async () => subscribed,
  };
  const toasts: ToastOptions[] = [];
  const reminders = createReminders({ subscriptions, env, notify: (t) => toasts.push(t) });
  const text = (t: ToastOptions | undefined) => (t ? (typeof t.text === 'string' ? t.text : (t.text.message ?? t.text.id)) : undefined);
  return { reminders, browser, items, calls, toasts, text };
}

describe('reminders', () => {
  it('asks the browser only when the patient taps "Turn on", then subscribes', async () => {
    const { reminders, browser, calls, toasts, text } = setup();
    expect(reminders.get()).toMatchObject({ status: 'off', permission: 'default', promptDismissed: false });
    await reminders.refresh(); // login: nothing asked, nothing subscribed
    expect(browser.asked).toBe(0);
    expect(calls).toEqual([]);
    await reminders.turnOn();
    expect(browser.asked).toBe(1);
    expect(calls).toEqual(['subscribe']);
    expect(reminders.get()).toMatchObject({ status: 'on', permission: 'granted', busy: false });
    expect(text(toasts.at(-1))).toBe('Reminders are on');
  });

  it('says so when the patient or the browser refuses, and shows "blocked"', async () => {
    const { reminders, calls, toasts } = setup({ answer: 'denied' });
    await reminders.turnOn();
    expect(calls).toEqual([]);
    expect(reminders.get().status).toBe('blocked');
    expect(toasts.at(-1)?.type).toBe('warning');
  });

  it("'Failed to save notification token' when the server refuses; another message when the push service does", async () => {
    const refused = setup({ failWith: new ApiError(400, 'timeZone must be a valid IANA time zone') });
    await refused.reminders.turnOn();
    expect(refused.toasts.at(-1)).toMatchObject({ type: 'error' });
    expect(refused.text(refused.toasts.at(-1))).toBe('Failed to save notification token');
    expect(refused.reminders.get().status).toBe('off');

    const noService = setup({ failWith: new DOMException('Registration failed - push service error', 'AbortError') });
    await noService.reminders.turnOn();
    expect(noService.text(noService.toasts.at(-1))).toMatch(/could not be turned on/);
  });

  it('after login with the permission granted keeps the token current; a refusal is reported, offline is not', async () => {
    const ok = setup({ permission: 'granted' });
    await ok.reminders.refresh();
    expect(ok.calls).toEqual(['refresh']);
    expect(ok.reminders.get().status).toBe('on');

    const refused = setup({ permission: 'granted', failWith: new ApiError(400, 'bad token') });
    await refused.reminders.refresh();
    expect(refused.text(refused.toasts.at(-1))).toBe('Failed to save notification token');

    const offline = setup({ permission: 'granted', failWith: new ApiError(0, 'Something went wrong. Please try again.') });
    await offline.reminders.refresh();
    expect(offline.toasts).toEqual([]);
  });

  it('"Turn off" unsubscribes and is remembered: the next login does not subscribe again', async () => {
    const { reminders, calls, items } = setup({ permission: 'granted' });
    await reminders.refresh();
    await reminders.turnOff();
    expect(items.get(REMINDERS_OFF_KEY)).toBe('1');
    expect(reminders.get().status).toBe('off');
    await reminders.refresh();
    expect(calls).toEqual(['refresh', 'unsubscribe']);
    await reminders.turnOn();
    expect(items.has(REMINDERS_OFF_KEY)).toBe(false);
    expect(reminders.get().status).toBe('on');
  });

  it('"Not now" is kept on the device; logout forgets the subscription; unsupported browsers say so', async () => {
    const { reminders, items, calls } = setup({ permission: 'granted' });
    reminders.dismissPrompt();
    expect(items.get(REMINDERS_PROMPT_DISMISSED_KEY)).toBe('1');
    expect(reminders.get().promptDismissed).toBe(true);
    await reminders.refresh();
    await reminders.forget();
    expect(calls).toEqual(['refresh', 'forget']);
    expect(reminders.get().status).toBe('off');

    const old = setup({ supported: false });
    expect(old.reminders.get()).toMatchObject({ status: 'unsupported', permission: 'unsupported' });
    await old.reminders.turnOn();
    expect(old.calls).toEqual([]);
  });

  it('follows a permission changed in the browser settings', async () => {
    const { reminders, browser } = setup({ permission: 'granted' });
    await reminders.refresh();
    browser.permission = 'denied';
    browser.onChange?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(reminders.get().status).toBe('blocked');
  });
});

describe('reminders loaded on first use', () => {
  it('shows nothing to press until loaded, then mirrors the real store; a failed load is tried again', async () => {
    const { lazyReminders, REMINDERS_LOADING } = await import('./lazy-reminders.ts');
    const real = setup({ permission: 'granted' });
    let attempts = 0;
    const errors: unknown[] = [];
    const lazy = lazyReminders(
      async () => {
        if (++attempts === 1) throw new Error('chunk not loaded');
        return real.reminders;
      },
      (err) => errors.push(err),
    );
    expect(lazy.get()).toBe(REMINDERS_LOADING);
    expect(lazy.get()).toMatchObject({ status: 'checking', promptDismissed: true, busy: true });
    let changes = 0;
    lazy.subscribe(() => changes++);
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toHaveLength(1);
    await lazy.refresh();
    expect(real.calls).toEqual(['refresh']);
    expect(lazy.get()).toMatchObject({ status: 'on', permission: 'granted', busy: false });
    expect(changes).toBeGreaterThan(0);
    await lazy.turnOff();
    expect(lazy.get().status).toBe('off');
    expect(attempts).toBe(2);
  });
});

describe('the reminders offer before the module has loaded', () => {
  it('is known from what the browser says at once, with nothing to press', async () => {
    const { remindersLoadingInBrowser, REMINDERS_PROMPT_DISMISSED_KEY: key } = await import('./lazy-reminders.ts');
    const items = new Map<string, string>();
    vi.stubGlobal('window', { isSecureContext: true, PushManager: class {}, Notification: class {} });
    vi.stubGlobal('navigator', { serviceWorker: {} });
    vi.stubGlobal('Notification', { permission: 'default' });
    vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null });
    try {
      expect(remindersLoadingInBrowser()).toEqual({ status: 'checking', permission: 'default', busy: true, promptDismissed: false });
      items.set(key, '1');
      expect(remindersLoadingInBrowser().promptDismissed).toBe(true);
      vi.stubGlobal('window', { isSecureContext: false });
      expect(remindersLoadingInBrowser().permission).toBe('unsupported');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
