// Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payload encryption (RFC 8291): the
// web-push library builds the encrypted request, and it is sent with undici's fetch through an agent
// that connects to public addresses only (endpoint-policy.ts), to the push services allowed; a
// push-service peer on loopback over plain http can stand in for the real one in tests.
import { fetch } from 'undici';
import webpush from 'web-push';
import { endpointProblem, isTestPeer, publicOnlyAgent, type EndpointPolicy, type LookupAll } from './endpoint-policy.ts';
import type { PushMessage } from './messages.ts';
import { PUSH_TTL_SECONDS, type DeviceToken, type PushSender, type SendOutcome } from './sender.ts';
import type { VapidDetails } from './settings.ts';
import { errorCause, errorCode, errorMessage } from '../lib/errors.ts';

const TIMEOUT_MS = 15_000;

export interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export function parseSubscription(token: string): Subscription | undefined {
  try {
    const v: unknown = JSON.parse(token);
    if (typeof v !== 'object' || v === null || !('endpoint' in v) || !('keys' in v)) return undefined;
    const { endpoint, keys } = v;
    if (typeof endpoint !== 'string' || typeof keys !== 'object' || keys === null || !('p256dh' in keys) || !('auth' in keys)) return undefined;
    const { p256dh, auth } = keys;
    if (typeof p256dh === 'string' && typeof auth === 'string') return { endpoint, keys: { p256dh, auth } };
  } catch {
    // not a subscription
  }
  return undefined;
}

/** `resolve` stands in for the system's resolver in tests. */
export function webPushSender(opts: { vapid: VapidDetails; policy: EndpointPolicy; resolve?: LookupAll }): PushSender {
  const agent = publicOnlyAgent(opts.resolve);
  return {
    provider: 'webpush',
    async send(device: DeviceToken, message: PushMessage): Promise<SendOutcome> {
      const subscription = parseSubscription(device.token);
      if (!subscription) return { ok: false, gone: true, transient: false, error: 'not a push subscription' };
      // Stored before the policy (or under a wider one): never sent to, and dropped.
      const refused = endpointProblem(subscription.endpoint, opts.policy);
      if (refused) return { ok: false, gone: true, transient: false, error: `push endpoint refused: ${refused}` };
      let request;
      try {
        request = webpush.generateRequestDetails(subscription, JSON.stringify(message), {
          vapidDetails: opts.vapid,
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        // Keys that cannot encrypt (wrong length, not a P-256 point) will never work.
        return { ok: false, gone: true, transient: false, error: `invalid subscription: ${errorMessage(err)}` };
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.headers)) headers[k] = String(v);
      let res: Awaited<ReturnType<typeof fetch>>;
      try {
        const peer = isTestPeer(new URL(request.endpoint), opts.policy);
        res = await fetch(request.endpoint, {
          method: 'POST',
          headers,
          body: request.body ? new Uint8Array(request.body) : null,
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'error',
          ...(peer ? {} : { dispatcher: agent }),
        });
      } catch (err) {
        const cause = errorCause(err);
        // A name that resolves inside the network is no push service: never tried again.
        if (errorCode(cause) === 'EPUSHADDRESS') return { ok: false, gone: true, transient: false, error: `push endpoint refused: ${errorMessage(cause)}` };
        return { ok: false, gone: false, transient: true, error: `push service unreachable: ${errorMessage(cause ?? err)}` };
      }
      await res.body?.cancel();
      if (res.status >= 200 && res.status < 300) return { ok: true };
      if (res.status === 404 || res.status === 410)
        return { ok: false, gone: true, transient: false, error: `push service answered ${res.status}: subscription gone` };
      return { ok: false, gone: false, transient: res.status === 429 || res.status >= 500, error: `push service answered ${res.status}` };
    },
  };
}
