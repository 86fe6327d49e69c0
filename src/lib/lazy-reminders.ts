// The reminders store as the screens get it from the runtime, loading the real one (src/lib/reminders.ts
// and sync/push-subscription.ts) on first use: like RxDB, reminders are needed only after login, and
// the login route's JavaScript budget (docs/requirements.md §11) has no room for them.
import type { Reminders, RemindersState } from './reminders.ts';

/** Until the module is loaded: nothing to offer yet, nothing to press. */
export const REMINDERS_LOADING: RemindersState = { status: 'checking', permission: 'default', busy: true, promptDismissed: true };

/** Where this device keeps the patient's "Not now" to the dashboard's offer (src/lib/reminders.ts). */
export const REMINDERS_PROMPT_DISMISSED_KEY = 'eddy-reminders-prompt-dismissed';

/** Whether this browser can show reminders at all (a secure page with a service worker, Push and notifications). */
export const remindersSupported = (): boolean =>
  typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * Until the module is loaded, in a browser: what the browser says at once (permission, "Not now"),
 * still with nothing to press. The dashboard's offer is then there from the first paint instead of
 * appearing above the page a moment later and pushing it down (Lighthouse's layout shift).
 */
export function remindersLoadingInBrowser(): RemindersState {
  let dismissed = true;
  try {
    dismissed = localStorage.getItem(REMINDERS_PROMPT_DISMISSED_KEY) !== null;
  } catch {
    // Storage blocked: the offer waits for the module.
  }
  return { ...REMINDERS_LOADING, permission: remindersSupported() ? Notification.permission : 'unsupported', promptDismissed: dismissed };
}

export function lazyReminders(load: () => Promise<Reminders>, onLoadError: (err: unknown) => void, initial: RemindersState = REMINDERS_LOADING): Reminders {
  let state = initial;
  const listeners = new Set<() => void>();
  let loading: Promise<Reminders> | undefined;

  function ready(): Promise<Reminders> {
    if (!loading) {
      const started = load().then((controller) => {
        const publish = () => {
          state = controller.get();
          for (const l of [...listeners]) l();
        };
        controller.subscribe(publish);
        publish();
        return controller;
      });
      // A failed load (e.g. offline before the worker precached it) may be tried again later.
      started.catch(() => {
        if (loading === started) loading = undefined;
      });
      loading = started;
    }
    return loading;
  }
  const withReminders = <T>(fn: (r: Reminders) => Promise<T> | T) => ready().then(fn);

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      ready().catch(onLoadError);
      return () => listeners.delete(listener);
    },
    turnOn: () => withReminders((r) => r.turnOn()),
    turnOff: () => withReminders((r) => r.turnOff()),
    dismissPrompt: () => void withReminders((r) => r.dismissPrompt()).catch(onLoadError),
    refresh: () => withReminders((r) => r.refresh()),
    forget: () => withReminders((r) => r.forget()),
  };
}
