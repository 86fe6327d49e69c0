import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { toast } from '../../lib/ui/toast-store.ts';

const ALERTS_OFF_TIMEOUT_MS = 3_000;

async function turnAlertsOffIfOn(): Promise<void> {
  const alerts = await import('../../lib/staff-alerts.ts');
  if ((await alerts.alertsState()) === 'on') await alerts.turnAlertsOff();
}

/** Log out (docs/requirements.md §4): the session ends on this device even when the server cannot be told. */
export function useStaffLogout(): () => Promise<void> {
  const { t } = useLingui();
  const navigate = useNavigate();
  return async () => {
    try {
      // The server is told while the session still opens it; logout does not wait long for it.
      await Promise.race([turnAlertsOffIfOn().catch(() => undefined), new Promise((r) => setTimeout(r, ALERTS_OFF_TIMEOUT_MS))]);
      await staffRuntime.session.logout();
      toast({ type: 'success', text: t`You have successfully logged out.` });
      await navigate({ to: '/admin' });
    } catch {
      toast({ type: 'error', text: t`An unexpected error occurred` });
    }
  };
}
