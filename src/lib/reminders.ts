// Whether this device gets reminders, as the screens see it (issue 6 "asked at a sensible moment,
// not on page load"): the dashboard's prompt and the profile's Reminders section read this store and
// call turnOn/turnOff. The browser's permission is asked only from the patient's tap on "Turn on
// reminders"; after login, with the permission already granted, the subscription is kept current
// by itself (sync/push-subscription.ts refresh).
//
// Two choices are kept on the device in plain local storage (they say nothing about the patient):
// "Not now" on the prompt, and "Turn off reminders", which must survive a new login, or the next
// start would subscribe again just because the browser still grants the permission.
import { msg } from '@lingui/core/macro';
import { ApiError } from '../../sync/api-client.ts';
import { inBackground } from '../../sync/background.ts';
import { log } from '../../sync/log.ts';
import type { PushSubscriptions } from '../../sync/push-subscription.ts';
import type { ReadableStore, StorageLike } from './pwa.ts';
import type { ToastOptions } from './ui/toast-store.ts';
import { REMINDERS_PROMPT_DISMISSED_KEY, remindersSupported } from './lazy-reminders.ts';

export { REMINDERS_PROMPT_DISMISSED_KEY };
export const REMINDERS_OFF_KEY = 'eddy-reminders-off';

/**
 * on/off: this device's subscription; blocked: the browser refuses (the patient must allow it
 * there); checking: not known yet (the module is loading, see lazy-reminders.ts).
 */
export type ReminderStatus = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

export interface RemindersState {
  status: ReminderStatus;
  /** Notification.permission; 'default' until the patient answered the browser's question. */
  permission: NotificationPermission | 'unsupported';
  /** A turn on/off is under way. */
  busy: boolean;
  /** "Not now" was chosen on this device. */
  promptDismissed: boolean;
}

export interface RemindersEnv {
  supported(): boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  storage: StorageLike;
  /** Calls back when the permission changes in the browser's settings. */
  watchPermission?(onChange: () => void): void;
}

export interface RemindersOptions {
  subscriptions: PushSubscriptions;
  env: RemindersEnv;
  notify: (options: ToastOptions) => void;
}

export type Reminders = ReadableStore<RemindersState> & {
  turnOn(): Promise<void>;
  turnOff(): Promise<void>;
  dismissPrompt(): void;
  /**
   * After login and after a change of language: keeps the server's copy of the token (and the
   * language and time zone it words and times reminders by) current when reminders are on.
   */
  refresh(): Promise<void>;
  /** Logout, 401: forget the token and the subscription. */
  forget(): Promise<void>;
};

const MSG_TOKEN_FAILED = msg`Failed to save notification token`;

function read(storage: StorageLike, key: string): boolean {
  try {
    return storage.getItem(key) !== null;
  } catch {
    return false;
  }
}
function write(storage: StorageLike, key: string, on: boolean): void {
  try {
    if (on) storage.setItem(key, '1');
    else storage.removeItem(key);
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
}

export function createReminders({ subscriptions, env, notify }: RemindersOptions): Reminders {
  const listeners = new Set<() => void>();
  const permissionNow = (): RemindersState['permission'] => (env.supported() ? env.permission() : 'unsupported');
  const statusFor = (permission: RemindersState['permission'], subscribed: boolean): ReminderStatus =>
    permission === 'unsupported'
      ? 'unsupported'
      : permission === 'denied'
        ? 'blocked'
        : permission === 'granted' && subscribed && !read(env.storage, REMINDERS_OFF_KEY)
          ? 'on'
          : 'off';
  let state: RemindersState = {
    status: statusFor(permissionNow(), false),
    permission: permissionNow(),
    busy: false,
    promptDismissed: read(env.storage, REMINDERS_PROMPT_DISMISSED_KEY),
  };

  const set = (patch: Partial<RemindersState>) => {
    state = { ...state, ...patch };
    for (const l of [...listeners]) l();
  };

  async function check(): Promise<void> {
    const permission = permissionNow();
    const subscribed = permission === 'granted' && (await subscriptions.isSubscribed());
    set({ permission, status: statusFor(permission, subscribed), promptDismissed: read(env.storage, REMINDERS_PROMPT_DISMISSED_KEY) });
  }

  function failed(err: unknown): void {
    log.warn('reminders could not be turned on', err);
    // A 401 already told the patient the session is over.
    if (err instanceof ApiError && err.status === 401) return;
    notify(
      err instanceof ApiError
        ? { type: 'error', text: MSG_TOKEN_FAILED }
        : { type: 'error', text: msg`Reminders could not be turned on on this device. Please try again later.` },
    );
  }

  async function busy(work: () => Promise<void>): Promise<void> {
    if (state.busy) return;
    set({ busy: true });
    try {
      await work();
    } finally {
      await check().catch(() => undefined);
      set({ busy: false });
    }
  }

  const reminders: Reminders = {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    turnOn: () =>
      busy(async () => {
        if (!env.supported()) return;
        write(env.storage, REMINDERS_OFF_KEY, false);
        let permission = env.permission();
        // Only ever from the patient's tap: browsers ignore (or punish) a request without one.
        if (permission === 'default') permission = await env.requestPermission();
        if (permission !== 'granted') {
          notify({ type: 'warning', text: msg`Your browser blocks reminders for Eddy. You can allow notifications in the browser's site settings.` });
          return;
        }
        try {
          await subscriptions.subscribe();
          notify({ type: 'success', text: msg`Reminders are on` });
        } catch (err) {
          failed(err);
        }
      }),

    turnOff: () =>
      busy(async () => {
        write(env.storage, REMINDERS_OFF_KEY, true);
        await subscriptions.unsubscribe();
        notify({ type: 'success', text: msg`Reminders are off` });
      }),

    dismissPrompt() {
      write(env.storage, REMINDERS_PROMPT_DISMISSED_KEY, true);
      set({ promptDismissed: true });
    },

    async refresh() {
      if (env.supported() && env.permission() === 'granted' && !read(env.storage, REMINDERS_OFF_KEY)) {
        try {
          await subscriptions.refresh();
        } catch (err) {
          // The server refused the token: the patient should know reminders will not come. Offline,
          // or a push service that cannot be reached, is tried again at the next start.
          if (err instanceof ApiError && err.status !== 0 && err.status !== 401) notify({ type: 'error', text: MSG_TOKEN_FAILED });
          else log.warn('push subscription not renewed', err);
        }
      }
      await check();
    },

    async forget() {
      await subscriptions.forget();
      await check();
    },
  };
  env.watchPermission?.(() => inBackground(check(), 'reminders: the notification permission could not be checked'));
  return reminders;
}

/** The browser's Notification and Push APIs (a secure context is needed for both). */
export function browserRemindersEnv(): RemindersEnv {
  const supported = remindersSupported;
  return {
    supported,
    permission: () => Notification.permission,
    requestPermission: () => Notification.requestPermission(),
    storage: {
      getItem: (key) => localStorage.getItem(key),
      setItem: (key, value) => localStorage.setItem(key, value),
      removeItem: (key) => localStorage.removeItem(key),
    },
    watchPermission(onChange) {
      if (!supported()) return;
      navigator.permissions
        ?.query({ name: 'notifications' })
        .then((status) => status.addEventListener('change', onChange))
        .catch(() => undefined);
    },
  };
}
