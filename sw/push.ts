/// <reference lib="webworker" />
// Reminder pushes in the service worker (issue 6; docs/requirements.md §4 push handling, §5 push validation).
//
// 'push': ignores a push without a notification part or a data part, a medicine reminder missing
// prescrNo, medicineName, dose or time, and any push while nobody is logged in (no replay session in
// the outbox: logout and a 401 clear it). Otherwise a medicine reminder is kept sealed in the push
// inbox for the page's pending list, the notification is shown (medicine reminders with "Mark as
// Taken" and "Remind Later", titled in the device's language when the server names them), and open
// pages hear {type:'push-received', data}.
//
// 'notificationclick':
// - "Mark as Taken": the dose is recorded through an open page (it answers {ok:true} on a
//   MessageChannel port within 3 s), otherwise queued in the outbox like any write and sent. Both
//   carry the same client id, so if the page was merely slow the server still records it once.
// - "Remind Later": POST /users/medicines/remindLater goes through the outbox (offline-safe) and
//   pages hear {type:'remind later', data, remindAt}.
// - The notification itself: focuses an open window of the app or opens /app.
// - A severe-low alert to staff (issue 18): shown only while this device's staff alerts are on
//   (sync/storage/staff-alerts-flag.ts), kept on screen until acted on; a tap opens that patient's report.
//
// 'pushsubscriptionchange': the browser renewed the subscription; it is made again with the same
// server key and the new token is queued for the server like any write.
import { uuidv7 } from '../sync/ids.ts';
import { log } from '../sync/log.ts';
import { enqueue, getReplaySession } from '../sync/outbox.ts';
import { addToInbox, removeFromInbox } from '../sync/storage/push-inbox.ts';
import { staffAlertsOn } from '../sync/storage/staff-alerts-flag.ts';
import { mutation } from '../schemas/mutations.ts';
import type { PushConfigJson } from '../schemas/push.ts';
import {
  DEFAULT_ACTION_TITLES,
  isMedicineReminder,
  isSevereLow,
  slotOfReminder,
  parsePushPayload,
  PUSH_ACTION_LATER,
  PUSH_ACTION_TAKEN,
  REMIND_LATER_MS,
  type IntakeFromPush,
  type MarkTakenMessage,
  type MedicineReminderData,
  type PushData,
  type PushReceivedMessage,
  type RemindLaterMessage,
  type ValidPush,
} from '../sync/push-payload.ts';

declare const self: ServiceWorkerGlobalScope;

/** How long "Mark as Taken" waits for an open page before queueing the dose itself. */
export const PAGE_ANSWER_TIMEOUT_MS = 3_000;
const ICON = '/icons/icon-192.png';

/** What a shown notification carries, for its click. */
interface NotificationData {
  push: PushData;
  /** The reminder's inbox entry, while the page has not taken it yet. */
  inboxId?: string;
}

// Not in TypeScript's webworker lib (Chromium and Firefox support them).
interface ReminderNotificationOptions extends NotificationOptions {
  actions?: { action: string; title: string }[];
  renotify?: boolean;
  timestamp?: number;
}
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  readonly newSubscription: PushSubscription | null;
  readonly oldSubscription: PushSubscription | null;
}

/**
 * event.waitUntil keeps the worker alive until the work is done. It throws for an event that a
 * script made (tests dispatch synthetic NotificationEvents): the work runs all the same.
 */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  const settled = work.catch((err: unknown) => log.error('push handling failed', err));
  try {
    event.waitUntil(settled);
  } catch {
    // Untrusted or already finished event: nothing to extend.
  }
}

async function pages(): Promise<readonly WindowClient[]> {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true });
}

async function tellPages(message: PushReceivedMessage | RemindLaterMessage): Promise<void> {
  for (const page of await pages()) page.postMessage(message);
}

/**
 * Whether someone is logged in on this device (a push for nobody is not shown). A session that
 * cannot be read (the database busy or failing) counts as none, and says so: a reminder dropped
 * silently could not be told apart from one never sent.
 */
const loggedIn = async (): Promise<boolean> => {
  try {
    return (await getReplaySession()) !== undefined;
  } catch (err) {
    log.warn('Push: the session could not be read; the notification is not shown', err);
    return false;
  }
};

async function handlePush(data: PushMessageData | null): Promise<void> {
  let payload: unknown;
  try {
    payload = data?.json();
  } catch {
    return; // not JSON: not ours
  }
  const push: ValidPush | undefined = parsePushPayload(payload);
  if (!push) return;
  if (isSevereLow(push.data)) {
    // For the staff member who turned alerts on here, whoever else uses the device (sync/storage/staff-alerts-flag.ts).
    if (await staffAlertsOn()) await show(push, { push: push.data });
    return;
  }
  if (!(await loggedIn())) return;
  const notificationData: NotificationData = { push: push.data };
  if (isMedicineReminder(push.data)) {
    const id = crypto.randomUUID();
    if (await addToInbox({ kind: 'reminder', id, receivedAt: Date.now(), notification: push.notification, data: push.data })) notificationData.inboxId = id;
  }
  await show(push, notificationData);
  await tellPages({ type: 'push-received', data: push.data });
}

async function show(push: ValidPush, data: NotificationData): Promise<void> {
  const options: ReminderNotificationOptions = { icon: ICON, data, timestamp: Date.now() };
  // A severe low stays on screen until someone acts on it.
  if (isSevereLow(push.data)) options.requireInteraction = true;
  if (push.notification.body) options.body = push.notification.body;
  if (push.notification.tag) {
    options.tag = push.notification.tag;
    // A resend ("Remind Later") replaces the earlier notification and must alert again.
    options.renotify = true;
  }
  if (isMedicineReminder(push.data)) {
    // Titled in the device's language by the server (the notification's own words are too).
    const titles = { ...DEFAULT_ACTION_TITLES, ...push.notification.actions };
    options.actions = [
      { action: PUSH_ACTION_TAKEN, title: titles[PUSH_ACTION_TAKEN] },
      { action: PUSH_ACTION_LATER, title: titles[PUSH_ACTION_LATER] },
    ];
  }
  await self.registration.showNotification(push.notification.title, options);
}

/** Asks open pages to record the dose; true once one of them answered {ok:true} in time. */
async function recordThroughPage(intake: IntakeFromPush): Promise<boolean> {
  const open = await pages();
  if (open.length === 0) return false;
  return new Promise<boolean>((resolve) => {
    const channels: MessageChannel[] = [];
    let unanswered = open.length;
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      for (const c of channels) c.port1.close();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), PAGE_ANSWER_TIMEOUT_MS);
    const message: MarkTakenMessage = { type: 'mark medicine taken', intake };
    for (const page of open) {
      const channel = new MessageChannel();
      channels.push(channel);
      channel.port1.onmessage = (e: MessageEvent) => {
        if ((e.data as { ok?: unknown } | null)?.ok === true) finish(true);
        else if (--unanswered === 0) finish(false); // every page said it could not
      };
      page.postMessage(message, [channel.port2]);
    }
  });
}

async function markTaken(reminder: MedicineReminderData, inboxId: string | undefined, onReplay: () => Promise<unknown>): Promise<void> {
  const slot = slotOfReminder(reminder);
  const intake: IntakeFromPush = {
    _id: uuidv7(),
    prescrNo: reminder.prescrNo,
    medicineName: reminder.medicineName,
    dose: reminder.dose,
    takenAt: new Date().toISOString(),
    ...(slot ? { slot } : {}),
  };
  // Answered: the reminder must not become a pending entry afterwards.
  if (inboxId) await removeFromInbox([inboxId]);
  if (await recordThroughPage(intake)) return;
  await enqueue({ collection: 'medicineIntakes', docId: intake._id, ...mutation('dose.markTaken', intake), madeAt: Date.now() });
  // The next page to open shows the dose at once and clears the reminder from its pending list.
  await addToInbox({ kind: 'taken', id: crypto.randomUUID(), receivedAt: Date.now(), intake });
  await onReplay();
}

async function remindLater(reminder: MedicineReminderData, onReplay: () => Promise<unknown>): Promise<void> {
  const id = uuidv7();
  const remindAt = new Date(Date.now() + REMIND_LATER_MS).toISOString();
  const { prescrNo, medicineName, dose, time } = reminder;
  await enqueue({
    collection: 'reminders',
    docId: id,
    ...mutation('dose.remindLater', { _id: id, prescrNo, medicineName, dose, time, remindAt }),
    madeAt: Date.now(),
  });
  await tellPages({ type: 'remind later', data: reminder, remindAt });
  await onReplay();
}

async function openApp(): Promise<void> {
  const open = await pages();
  const app = open.find((c) => /\/app(?:\/|$)/.test(new URL(c.url).pathname)) ?? open[0];
  if (app) {
    await app.focus();
    return;
  }
  await self.clients.openWindow('/app');
}

/** A severe-low alert opens that patient's report in the staff area (an open staff window goes there). */
async function openReport(hospNo: string): Promise<void> {
  // Quoted as the router writes a string (a number like "3011001" would otherwise read as a number).
  const url = `/admin/report?patient=${encodeURIComponent(JSON.stringify(hospNo))}`;
  const staffWindow = (await pages()).find((c) => /^\/admin(?:\/|$)/.test(new URL(c.url).pathname));
  // navigate() needs a window this worker controls; any other gets a window of its own.
  const there = staffWindow ? await staffWindow.navigate(url).catch(() => null) : null;
  if (there) await there.focus();
  else await self.clients.openWindow(url);
}

async function handleClick(action: string, data: Partial<NotificationData> | null, onReplay: () => Promise<unknown>): Promise<void> {
  const push = data?.push;
  if (push && isSevereLow(push)) {
    await openReport(push.hospNo);
    return;
  }
  const reminder = push && isMedicineReminder(push) ? push : undefined;
  if (reminder && (action === PUSH_ACTION_TAKEN || action === PUSH_ACTION_LATER) && (await loggedIn())) {
    if (action === PUSH_ACTION_TAKEN) await markTaken(reminder, data?.inboxId, onReplay);
    else await remindLater(reminder, onReplay);
    return;
  }
  // The notification itself, or an action after logout (the patient must log in first).
  await openApp();
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function resubscribe(event: PushSubscriptionChangeEvent, onReplay: () => Promise<unknown>): Promise<void> {
  if (!(await loggedIn())) return;
  let key: ArrayBuffer | Uint8Array<ArrayBuffer> | null = event.oldSubscription?.options.applicationServerKey ?? null;
  if (!key) {
    // The answer's type, derived from the schema the server answers through.
    const config: PushConfigJson = await fetch('/api/push/config').then((r) => r.json());
    // With FCM the page renews its token through the Firebase SDK at its next start.
    if (config.provider !== 'webpush' || !config.publicKey) return;
    key = base64UrlToBytes(config.publicKey);
  }
  const subscription = event.newSubscription ?? (await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.['p256dh'] || !keys['auth']) return;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const body = { token: { endpoint, keys: { p256dh: keys['p256dh'], auth: keys['auth'] } }, ...(timeZone ? { timeZone } : {}) };
  await enqueue({ collection: 'pushToken', docId: uuidv7(), ...mutation('push.register', body), madeAt: Date.now() });
  await onReplay();
}

/** Registers the push listeners; `replay` drains the outbox and tells the pages (sw/sw.ts). */
export function registerPushHandlers(replay: () => Promise<unknown>): void {
  self.addEventListener('push', (event) => keepAlive(event, handlePush(event.data)));

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    keepAlive(event, handleClick(event.action, event.notification.data as Partial<NotificationData> | null, replay));
  });

  self.addEventListener('pushsubscriptionchange', (event) => keepAlive(event, resubscribe(event, replay)));
}
