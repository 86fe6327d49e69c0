import { Trans } from '@lingui/react/macro';
import { useClock } from '../../lib/clock.tsx';

/**
 * Says once, on the dashboard, which clock its times are on when this device is in another zone
 * than the profile's: the report and the care team read the same readings on the profile's clock.
 */
export function ClockNote() {
  const { differs, deviceZone, profileZone } = useClock();
  if (!differs || !profileZone) return null;
  return (
    <p className="notice" role="note" data-testid="clock-note">
      <Trans>
        Times are on this device’s clock ({deviceZone}); your profile’s zone is {profileZone}. Your reports show times on your profile’s clock.
      </Trans>
    </p>
  );
}
