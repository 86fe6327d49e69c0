// Severe-low alerts on this staff device (issue 18): the browser's push subscription given to the
// server under the staff member (POST /admin/alerts/on), and the flag the service worker reads
// before it shows an alert (sync/storage/staff-alerts-flag.ts). The token record is kept sealed in the staff
// area's own namespace of the secure store, so it leaves with the staff session.
import { ApiError, type ApiClient } from '../../sync/api-client.ts';
import { log } from '../../sync/log.ts';
import { createPushSubscriptions, PushServiceUnreachableError, type PushTokenRecord } from '../../sync/push-subscription.ts';
import { sealedItem } from '../../sync/storage/secure-storage.ts';
import { setStaffAlertsOn, staffAlertsOn } from '../../sync/storage/staff-alerts-flag.ts';
import { i18n } from './i18n.ts';

export type AlertsState = 'on' | 'off' | 'blocked' | 'unsupported';
/** `no-push-service`: the browser's push service did not answer (a network without internet). */
export type TurnOnResult = 'on' | 'blocked' | 'unsupported' | 'offline' | 'no-push-service' | 'failed';

/** The subscriptions of the staff API client `api` (the staff runtime's), made once for it. */
const made = new WeakMap<ApiClient, ReturnType<typeof createPushSubscriptions>>();
function subscriptionsOf(api: ApiClient): ReturnType<typeof createPushSubscriptions> {
  let subscriptions = made.get(api);
  if (!subscriptions) {
    subscriptions = createPushSubscriptions({
      api,
      store: sealedItem<PushTokenRecord>('admin', 'alertToken'),
      registration: async () => navigator.serviceWorker?.getRegistration(),
      locale: () => i18n.locale,
      paths: { save: '/admin/alerts/on', remove: '/admin/alerts/off' },
      // The browser's subscription may carry a patient's reminders too (one per browser): kept.
      keepBrowserSubscription: true,
    });
    made.set(api, subscriptions);
  }
  return subscriptions;
}

const supported = (): boolean =>
  typeof Notification !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof PushManager !== 'undefined';

export async function alertsState(): Promise<AlertsState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return Notification.permission === 'granted' && (await staffAlertsOn()) ? 'on' : 'off';
}

/** Asks for the notification permission (a click's answer) and gives the server this device. */
export async function turnAlertsOn(api: ApiClient): Promise<TurnOnResult> {
  if (!supported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'blocked';
  try {
    await subscriptionsOf(api).subscribe();
  } catch (err) {
    if (err instanceof ApiError && err.status === 0) return 'offline';
    if (err instanceof PushServiceUnreachableError) {
      log.warn('staff alerts: the browser cannot reach its push service from this network', err);
      return 'no-push-service';
    }
    log.warn('staff alerts could not be turned on', err);
    return 'failed';
  }
  await setStaffAlertsOn(true);
  return 'on';
}

/** This device stops showing alerts at once; the server is told when it can be. */
export async function turnAlertsOff(api: ApiClient): Promise<void> {
  await setStaffAlertsOn(false);
  await subscriptionsOf(api).unsubscribe();
}

/** Start of the staff area with alerts on: the server hears the token again if it changed. */
export async function refreshAlerts(api: ApiClient): Promise<void> {
  if ((await alertsState()) !== 'on') return;
  await subscriptionsOf(api)
    .refresh()
    .catch((err: unknown) => log.warn('staff alert token not renewed', err));
}
