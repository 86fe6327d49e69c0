import { Trans } from '@lingui/react/macro';
import { Icon } from '../../components/icon.tsx';

/**
 * Shown instead of the profile while it is not on this device yet (the first sync after login is
 * still running, or it could not run offline), so the patient never sees an empty form.
 */
export function ProfilePending({ offline }: { offline: boolean }) {
  return (
    <section className="card profile-pending" role="status">
      <Icon icon={offline ? 'mdi:cloud-off-outline' : 'mdi:refresh'} className="profile-pending-icon" />
      <p>
        {offline ? (
          <Trans>
            Your profile has not been downloaded to this device yet, and you are offline. Connect to the internet once and it will appear here, together with
            your reminder settings.
          </Trans>
        ) : (
          <Trans>Loading your profile from the hospital…</Trans>
        )}
      </p>
    </section>
  );
}
