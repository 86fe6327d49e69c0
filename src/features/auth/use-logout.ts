import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import { useRuntime } from '../../lib/runtime-context.tsx';

/**
 * Logs the patient out: the server session ends, the local database, its key and the outbox are
 * destroyed, then the login page and 'You have successfully logged out.' (docs/requirements.md §8).
 */
export function useLogout(): () => Promise<void> {
  const { t } = useLingui();
  const runtime = useRuntime();
  const navigate = useNavigate();
  return useCallback(async () => {
    await runtime.session.logout();
    runtime.notify({ type: 'success', text: t`You have successfully logged out.` });
    await navigate({ to: '/' });
  }, [runtime, navigate, t]);
}
