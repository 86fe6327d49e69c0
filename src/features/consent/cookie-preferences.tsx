// "Cookie preferences" (docs/requirements.md §4 reset): forgets the saved choice and reloads, so the banner asks again.
import { Trans } from '@lingui/react/macro';
import { log } from '../../../sync/log.ts';
import { resetConsent } from './consent-record.ts';

export function CookiePreferences({ className = 'button button--secondary' }: { className?: string }) {
  return (
    <>
      <p className="field-hint">
        <Trans>Choose again which cookies Eddy may use on this device. The page reloads and asks you.</Trans>
      </p>
      <button
        type="button"
        className={className}
        onClick={() => void resetConsent().catch((err: unknown) => log.error('Resetting the cookie preferences failed', err))}
      >
        <Trans>Cookie preferences</Trans>
      </button>
    </>
  );
}
