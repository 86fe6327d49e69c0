// What the server needs to send pushes, settled once at start-up. Web Push needs a VAPID key pair
// that never changes (every browser subscription is bound to its public key): given by the
// environment, or generated on the first start and kept in the database. Several instances starting
// at once may each generate a pair; the first one stored wins and everyone reads that one back.
import { readFile } from 'node:fs/promises';
import webpush from 'web-push';
import { ConfigError, endpointPolicyOf, type Config, type FirebaseWebConfig } from '../config.ts';
import type { EndpointPolicy } from './endpoint-policy.ts';
import type { Db } from '../db/client.ts';
import { settingsRepo } from '../repositories/settings.ts';
import { errorMessage } from '../lib/errors.ts';

export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export type PushSettings =
  | { provider: 'webpush'; vapid: VapidDetails; policy: EndpointPolicy }
  | {
      provider: 'fcm';
      serviceAccount: Record<string, unknown>;
      webConfig: FirebaseWebConfig;
      vapidKey: string;
    };

const VAPID_SETTING = 'vapidKeys';

export async function vapidKeys(config: Config, db: Db): Promise<{ publicKey: string; privateKey: string }> {
  if (config.vapidKeys) return config.vapidKeys;
  const stored = await settingsRepo.get<{ publicKey: string; privateKey: string }>(db, VAPID_SETTING);
  if (stored) return stored;
  await settingsRepo.setIfAbsent(db, VAPID_SETTING, webpush.generateVAPIDKeys());
  const winner = await settingsRepo.get<{ publicKey: string; privateKey: string }>(db, VAPID_SETTING);
  if (!winner) throw new Error('VAPID keys could not be stored');
  return winner;
}

export async function resolvePushSettings(config: Config, db: Db): Promise<PushSettings> {
  if (config.push.provider === 'webpush') {
    return { provider: 'webpush', vapid: { subject: config.vapidSubject, ...(await vapidKeys(config, db)) }, policy: endpointPolicyOf(config) };
  }
  const { serviceAccountPath, webConfig, vapidKey } = config.push;
  let serviceAccount: unknown;
  try {
    serviceAccount = JSON.parse(await readFile(serviceAccountPath, 'utf8'));
  } catch (err) {
    throw new ConfigError([`FCM_SERVICE_ACCOUNT: cannot read a JSON service account from ${serviceAccountPath} (${errorMessage(err)})`]);
  }
  if (typeof serviceAccount !== 'object' || serviceAccount === null || !('private_key' in serviceAccount) || typeof serviceAccount.private_key !== 'string') {
    throw new ConfigError([`FCM_SERVICE_ACCOUNT: ${serviceAccountPath} is not a Firebase service-account key (no private_key)`]);
  }
  return { provider: 'fcm', serviceAccount: { ...serviceAccount }, webConfig, vapidKey };
}

/** `GET /api/push/config`: what a browser needs to subscribe. Public by nature. */
export function publicPushConfig(settings: PushSettings) {
  if (settings.provider === 'webpush') return { provider: 'webpush' as const, publicKey: settings.vapid.publicKey };
  return { provider: 'fcm' as const, publicKey: settings.vapidKey, firebase: settings.webConfig };
}
