import { useSyncExternalStore } from 'react';
import type { RemindersState } from '../../lib/reminders.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

/** This device's reminder state, kept current (permission, subscription, busy). */
export function useReminders(): RemindersState {
  const { reminders } = useRuntime();
  return useSyncExternalStore(reminders.subscribe, reminders.get, reminders.get);
}
