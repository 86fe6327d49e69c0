import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { ApiClient } from '../../../sync/api-client.ts';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { toast } from '../../lib/ui/toast-store.ts';

const ALERTS_OFF_TIMEOUT_MS = 3_000;

async function turnAlertsOffIfOn(api: ApiClient): Promise<void> {
  const alerts = await import('../../lib/staff-alerts.ts');
  if ((await alerts.alertsState()) === 'on') await alerts.turnAlertsOff(api);
}

/** Log out (docs/requirements.md §4): the session ends on this device even when the server cannot be told. */
export function useStaffLogout(): () => Promise<void> {
  const { t } = useLingui();
  const navigate = useNavigate();
  const staffRuntime = useStaffRuntime();
  return async () => {
    try {
      // The server is told while the session still opens it; logout does not wait long for it.
      await Promise.race([turnAlertsOffIfOn(staffRuntime.api).catch(() => undefined), new Promise((r) => setTimeout(r, ALERTS_OFF_TIMEOUT_MS))]);
      await staffRuntime.session.logout();
      toast({ type: 'success', text: t`You have successfully logged out.` });
      await navigate({ to: '/admin' });
    } catch {
      toast({ type: 'error', text: t`An unexpected error occurred` });
    }
  };
}
