import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { useLogout } from './use-logout.ts';

/**
 * Every way to log out (the header's icon, the profile's button): first tries to send what is
 * unsent; if entries are still not on the server (offline, refused), it says how many and asks
 * before a logout deletes them from the device. Nothing unsent goes without the patient agreeing.
 */
export function LogoutButton({ className, children }: { className: string; children: ReactNode }) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const logout = useLogout();
  const [unsent, setUnsent] = useState<number | undefined>();
  const [checking, setChecking] = useState(false);

  async function start() {
    setChecking(true);
    try {
      const left = await runtime.prepareLogout();
      if (left > 0) setUnsent(left);
      else await logout();
    } finally {
      setChecking(false);
    }
  }

  return (
    <>
      <button type="button" className={className} disabled={checking} aria-busy={checking} onClick={() => inBackground(start(), 'Logging out failed')}>
        {children}
      </button>
      <ConfirmDialog
        open={unsent !== undefined}
        danger
        title={t`Log out and delete unsent entries?`}
        confirmLabel={<Trans>Log out and delete them</Trans>}
        onConfirm={() => {
          setUnsent(undefined);
          inBackground(logout(), 'Logging out failed');
        }}
        onCancel={() => setUnsent(undefined)}
      >
        <p data-testid="unsent-warning">
          <Plural
            value={unsent ?? 0}
            one="# entry has not reached your hospital yet. Logging out deletes it from this device for good."
            other="# entries have not reached your hospital yet. Logging out deletes them from this device for good."
          />
        </p>
        <p>
          <Trans>Choose Cancel to stay logged in, then connect to the internet so they can be sent.</Trans>
        </p>
      </ConfirmDialog>
    </>
  );
}
