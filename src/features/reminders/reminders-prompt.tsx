// The dashboard's offer to turn reminders on (issue 6: the permission is asked at a sensible moment,
// never on page load). Shown while the browser has not been asked yet and the patient has not said
// "Not now" on this device; the browser's own question comes only from the tap on the button.
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { Icon } from '../../components/icon.tsx';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { useReminders } from './use-reminders.ts';
import './reminders.css';

export function RemindersPrompt() {
  const { reminders } = useRuntime();
  const state = useReminders();
  const titleId = useId();
  if (state.status === 'unsupported' || state.permission !== 'default' || state.promptDismissed) return null;
  return (
    <section className="card reminders-prompt" aria-labelledby={titleId} data-testid="reminders-prompt">
      <Icon icon="mdi:bell" className="reminders-prompt-icon" />
      <div className="reminders-prompt-body">
        <h2 id={titleId} className="reminders-prompt-title">
          <Trans>Reminders</Trans>
        </h2>
        <p className="reminders-prompt-text">
          <Trans>
            Eddy can remind you on this device at your meal times to take your medicines, and on your glucometer days to check your blood glucose. You can mark
            a dose as taken straight from the reminder.
          </Trans>
        </p>
        <div className="reminders-prompt-actions">
          <button type="button" className="button" disabled={state.busy} onClick={() => inBackground(reminders.turnOn(), 'reminders could not be turned on')}>
            <Trans>Turn on reminders</Trans>
          </button>
          <button type="button" className="button button--secondary" disabled={state.busy} onClick={() => reminders.dismissPrompt()}>
            <Trans>Not now</Trans>
          </button>
        </div>
      </div>
    </section>
  );
}
