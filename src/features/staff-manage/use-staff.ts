import { useEffect } from 'react';
import type { StoredStaff } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import { useStaffRuntime, useStaffSession } from '../../lib/runtime-context.tsx';

/** The logged-in staff member (undefined while the stored session is restored, or when logged out). */
export function useStaffMember(): { staff: StoredStaff | undefined; settled: boolean } {
  const staffRuntime = useStaffRuntime();
  const state = useStaffSession();
  useEffect(() => {
    if (state.status === 'unknown') inBackground(staffRuntime.ensureRestored(), 'Restoring the staff session failed');
  }, [state.status, staffRuntime]);
  return { staff: state.status === 'logged-in' ? state.staff : undefined, settled: state.status !== 'unknown' };
}
