import { fcmSender } from './fcm-sender.ts';
import type { PushSender } from './sender.ts';
import type { PushSettings } from './settings.ts';
import { webPushSender } from './web-push-sender.ts';

export function createPushSender(settings: PushSettings): PushSender {
  return settings.provider === 'webpush' ? webPushSender(settings) : fcmSender(settings.serviceAccount);
}
