import { useSyncExternalStore } from 'react';
import type { StaffState } from '../../sync/staff-session.ts';
import { staffRuntime, type StaffChoices } from './staff-runtime.ts';

export function useStaffSession(): StaffState {
  return useSyncExternalStore(staffRuntime.session.subscribe, () => staffRuntime.session.state);
}

export function useStaffChoices(): StaffChoices {
  return useSyncExternalStore(staffRuntime.subscribeChoices, staffRuntime.getChoices);
}
