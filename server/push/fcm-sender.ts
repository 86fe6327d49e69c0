// Firebase Cloud Messaging, the optional provider (PUSH_PROVIDER=fcm). firebase-admin is large and
// only needed here, so it is imported on first use and never loaded by a Web Push server.
import type { App } from 'firebase-admin/app';
import type { Messaging } from 'firebase-admin/messaging';
import type { PushMessage } from './messages.ts';
import { PUSH_TTL_SECONDS, type DeviceToken, type PushSender, type SendOutcome } from './sender.ts';
import { errorCode, errorMessage } from '../lib/errors.ts';

// FCM's answers for a registration token that will never work again.
const GONE_CODES = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);
const TRANSIENT_CODES = new Set([
  'messaging/internal-error',
  'messaging/server-unavailable',
  'messaging/message-rate-exceeded',
  'messaging/quota-exceeded',
  'app/network-error',
  'app/network-timeout',
]);

/** FCM data values must be strings: the contract's `data` part with every value as text. */
export function fcmData(message: PushMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.data)) if (v !== undefined) out[k] = String(v);
  return out;
}

export function fcmSender(serviceAccount: Record<string, unknown>): PushSender {
  let messaging: Promise<Messaging> | undefined;
  const client = () =>
    (messaging ??= (async () => {
      const { initializeApp, cert, getApps } = await import('firebase-admin/app');
      const { getMessaging } = await import('firebase-admin/messaging');
      const name = 'eddy-reminders';
      const app: App = getApps().find((a) => a.name === name) ?? initializeApp({ credential: cert(serviceAccount) }, name);
      return getMessaging(app);
    })());

  return {
    provider: 'fcm',
    async send(device: DeviceToken, message: PushMessage): Promise<SendOutcome> {
      const { title, body, tag, actions } = message.notification;
      try {
        await (
          await client()
        ).send({
          token: device.token,
          notification: { title, body },
          data: fcmData(message),
          webpush: {
            headers: { TTL: String(PUSH_TTL_SECONDS), Urgency: 'high' },
            notification: { title, body, tag, ...(actions ? { actions } : {}) },
          },
        });
        return { ok: true };
      } catch (err) {
        const code = errorCode(err);
        const text = `FCM: ${code !== undefined ? `${code} ` : ''}${errorMessage(err)}`;
        if (code !== undefined && GONE_CODES.has(code)) return { ok: false, gone: true, transient: false, error: text };
        return { ok: false, gone: false, transient: code === undefined || TRANSIENT_CODES.has(code), error: text };
      }
    },
  };
}
