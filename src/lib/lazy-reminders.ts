// The reminders store as the screens get it from the runtime, loading the real one (src/lib/reminders.ts
// and sync/push-subscription.ts) on first use: like RxDB, reminders are needed only after login, and
// the login route's JavaScript budget (DESIGN.md §4) has no room for them.
import type { Reminders, RemindersState } from './reminders.ts';

/** Until the module is loaded: nothing to offer yet, nothing to press. */
export const REMINDERS_LOADING: RemindersState = { status: 'checking', permission: 'default', busy: true, promptDismissed: true };

export function lazyReminders(load: () => Promise<Reminders>, onLoadError: (err: unknown) => void): Reminders {
  let state = REMINDERS_LOADING;
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
  const use = <T>(fn: (r: Reminders) => Promise<T> | T) => ready().then(fn);

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      ready().catch(onLoadError);
      return () => listeners.delete(listener);
    },
    turnOn: () => use((r) => r.turnOn()),
    turnOff: () => use((r) => r.turnOff()),
    dismissPrompt: () => void use((r) => r.dismissPrompt()).catch(onLoadError),
    refresh: () => use((r) => r.refresh()),
    forget: () => use((r) => r.forget()),
  };
}
