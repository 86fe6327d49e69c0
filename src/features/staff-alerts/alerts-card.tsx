import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Icon } from '../../components/icon.tsx';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { alertsState, refreshAlerts, turnAlertsOff, turnAlertsOn, type AlertsState } from '../../lib/staff-alerts.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { SEVERE_LOW_LEVEL } from '../../../schemas/admin.ts';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import './staff-alerts.css';

/**
 * Severe-low alerts on this device (issue 18): a switch, what it does and below which level each
 * of the staff member's hospitals alerts. The browser asks for the notification permission when
 * the switch is first turned on.
 */
export function AlertsCard({ hospitals }: { hospitals: readonly StaffHospital[] }) {
  const { t, i18n } = useLingui();
  const { api } = useStaffRuntime();
  const [state, setState] = useState<AlertsState | undefined>();
  const [busy, setBusy] = useState(false);
  // The last try found that this network does not reach the browser's push service.
  const [noPushService, setNoPushService] = useState(false);

  useEffect(() => {
    let live = true;
    inBackground(
      alertsState().then((s) => {
        if (!live) return;
        setState(s);
        if (s === 'on') inBackground(refreshAlerts(api), 'staff alert token not renewed');
      }),
      'Reading whether staff alerts are on failed',
    );
    return () => {
      live = false;
    };
  }, [api]);

  async function toggle() {
    setBusy(true);
    try {
      if (state === 'on') {
        await turnAlertsOff(api);
        setState('off');
        toast({ type: 'success', text: t`Severe-low alerts are off on this device.` });
        return;
      }
      const result = await turnAlertsOn(api);
      setNoPushService(result === 'no-push-service');
      if (result === 'on') toast({ type: 'success', text: t`Severe-low alerts are on: this device will show a notification within a minute of a severe low.` });
      else if (result === 'offline') toast({ type: 'error', text: t`You are offline. Alerts can be turned on once this device is back online.` });
      else if (result === 'failed') toast({ type: 'error', text: t`Alerts could not be turned on. Please try again.` });
      setState(await alertsState());
    } finally {
      setBusy(false);
    }
  }

  const levels = [...new Set(hospitals.map((h) => h.severeLowMgDl ?? SEVERE_LOW_LEVEL.default))];
  const level = (mgdl: number) => `${i18n.number(mgdl)}\u00a0mg/dL`;
  const on = state === 'on';
  return (
    <section className="card staff-alerts" aria-labelledby="staff-alerts-title" data-testid="staff-alerts">
      <div className="staff-alerts-text">
        <h2 id="staff-alerts-title">
          <Icon icon={on ? 'mdi:bell' : 'mdi:bell-off'} /> <Trans>Severe-low alerts on this device</Trans>
        </h2>
        <p>
          {levels.length === 1 ? (
            <Trans>
              When a patient of your hospitals records a glucose below {{ level: level(levels[0] ?? SEVERE_LOW_LEVEL.default) }}, this device shows a
              notification with the patient, the value and when it was measured. Tapping it opens the patient’s report.
            </Trans>
          ) : (
            <Trans>
              When a patient of your hospitals records a glucose below their hospital’s level, this device shows a notification with the patient, the value and
              when it was measured. Tapping it opens the patient’s report.
            </Trans>
          )}
        </p>
        {levels.length > 1 && (
          <ul className="staff-alerts-levels">
            {hospitals.map((h) => (
              <li key={h._id}>
                {h.name}: <Trans>below {{ level: level(h.severeLowMgDl ?? SEVERE_LOW_LEVEL.default) }}</Trans>
              </li>
            ))}
          </ul>
        )}
        {state === 'blocked' && (
          <p className="staff-alerts-problem" role="status">
            <Trans>Notifications are blocked for this site in the browser’s settings. Allow them there, then turn alerts on.</Trans>
          </p>
        )}
        {noPushService && state !== 'on' && (
          <p className="staff-alerts-problem" role="alert">
            <Trans>
              This network does not reach the browser’s push service (a hospital network without internet, for example), so alerts cannot be turned on here.
              Severe lows head the worklist below each time this page is opened or refreshed; try again on a network with internet.
            </Trans>
          </p>
        )}
        {state === 'unsupported' && (
          <p className="staff-alerts-problem" role="status">
            <Trans>This browser cannot show notifications from this site. Install the app, or use a browser that supports web push.</Trans>
          </p>
        )}
      </div>
      {state !== undefined && state !== 'unsupported' && (
        <button
          type="button"
          className={`button ${on ? 'button--secondary' : ''} staff-alerts-switch`}
          disabled={busy || state === 'blocked'}
          onClick={() => inBackground(toggle(), 'Switching the staff alerts failed')}
        >
          {on ? <Trans>Turn alerts off</Trans> : <Trans>Turn alerts on</Trans>}
        </button>
      )}
    </section>
  );
}
