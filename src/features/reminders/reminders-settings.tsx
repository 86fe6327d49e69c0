// The profile's Reminders section: whether this device gets reminders, and the one thing the patient
// can do about it (turn them on or off; when the browser blocks them, how to allow them there).
import { Trans } from '@lingui/react/macro';
import { inBackground } from '../../../sync/background.ts';
import { Icon } from '../../components/icon.tsx';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { useReminders } from './use-reminders.ts';
import './reminders.css';

export function RemindersSettings() {
  const { reminders } = useRuntime();
  const { status, busy } = useReminders();
  return (
    <section className="card" aria-labelledby="reminders-title" data-testid="reminders-settings">
      <h2 id="reminders-title">
        <Trans>Reminders</Trans>
      </h2>
      <p className="field-hint">
        <Trans>At your meal times to take your medicines, and on your glucometer days to check your blood glucose.</Trans>
      </p>
      <p className={`reminders-status reminders-status--${status}`} role="status">
        <Icon
          icon={status === 'on' || status === 'checking' ? 'mdi:bell' : status === 'off' ? 'mdi:bell-off' : 'mdi:alert-circle'}
          className="reminders-status-icon"
        />
        <span>
          {status === 'checking' ? (
            <Trans>Checking reminders on this device…</Trans>
          ) : status === 'on' ? (
            <Trans>Reminders are on for this device.</Trans>
          ) : status === 'off' ? (
            <Trans>Reminders are off for this device.</Trans>
          ) : status === 'blocked' ? (
            <Trans>Your browser blocks reminders for Eddy.</Trans>
          ) : (
            <Trans>This browser cannot show reminders.</Trans>
          )}
        </span>
      </p>
      {status === 'blocked' && (
        <p className="field-hint">
          <Trans>
            To allow them, open the site settings (the icon beside the address bar, or Settings › Site settings › Notifications in the browser), allow
            notifications for Eddy, then reload this page.
          </Trans>
        </p>
      )}
      {status === 'unsupported' && (
        <p className="field-hint">
          <Trans>
            Use a recent Chrome, Edge, Firefox or Safari. On an iPhone or iPad, first add Eddy to the Home Screen (Share › Add to Home Screen) and open it from
            there.
          </Trans>
        </p>
      )}
      {status === 'on' && (
        <button
          type="button"
          className="button button--secondary reminders-action"
          disabled={busy}
          onClick={() => inBackground(reminders.turnOff(), 'reminders could not be turned off')}
        >
          <Icon icon="mdi:bell-off" />
          <Trans>Turn off reminders</Trans>
        </button>
      )}
      {status === 'off' && (
        <button
          type="button"
          className="button reminders-action"
          disabled={busy}
          onClick={() => inBackground(reminders.turnOn(), 'reminders could not be turned on')}
        >
          <Icon icon="mdi:bell" />
          <Trans>Turn on reminders</Trans>
        </button>
      )}
    </section>
  );
}
