import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { toast } from '../../lib/ui/toast-store.ts';

/** Log out (spec §4): the session ends on this device even when the server cannot be told. */
export function useStaffLogout(): () => Promise<void> {
  const { t } = useLingui();
  const navigate = useNavigate();
  return async () => {
    try {
      await staffRuntime.session.logout();
      toast({ type: 'success', text: t`You have successfully logged out.` });
      await navigate({ to: '/admin' });
    } catch {
      toast({ type: 'error', text: t`An unexpected error occurred` });
    }
  };
}
