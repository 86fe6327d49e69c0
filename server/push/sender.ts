// Sending one message to one device. Each provider answers in the same three ways the scheduler
// acts on: delivered, gone (the push service says the subscription no longer exists: forget it),
// or failed (transient ones may be retried while the reminder is still current).
import type { PushMessage } from './messages.ts';

export type PushProvider = 'webpush' | 'fcm';

export interface DeviceToken {
  id: string;
  provider: PushProvider;
  token: string;
  locale: string | null;
}

export type SendOutcome = { ok: true } | { ok: false; gone: boolean; transient: boolean; error: string };

export interface PushSender {
  /** The kind of device token this sender can reach. */
  provider: PushProvider;
  send(device: DeviceToken, message: PushMessage): Promise<SendOutcome>;
}

/** A reminder is worth delivering only while the patient can still act on it (docs/requirements.md §9: 2 hours). */
export const PUSH_TTL_SECONDS = 2 * 3600;
