// What a reminder push carries (issue 6 contract; docs/requirements.md §5 validation) and the messages the service
// worker and the pages exchange about it. Shared by sw/push.ts and the page (src/lib/push-messages.ts),
// so both sides agree on one reading of a payload.
//
// The same fields arrive from Web Push (JSON, any value types) and from Firebase Cloud Messaging
// (`data` values are always strings), so every field is read as text and `snoozed` also as "true".

import { MEAL_SLOTS, type MealSlot } from '../schemas/dose-slot.ts';
import { PUSH_ACTION_LATER, PUSH_ACTION_TAKEN, type PushAction } from '../schemas/push.ts';

export { PUSH_ACTION_LATER, PUSH_ACTION_TAKEN };
/** "Remind Later" asks the server to send the reminder again this much later. */
export const REMIND_LATER_MS = 15 * 60_000;

/** The part the notification is shown from; its texts are already in the patient's language. */
export interface PushNotice {
  title: string;
  body?: string;
  tag?: string;
  /** The buttons' titles in the patient's language, when the server sent them. */
  actions?: Partial<Record<PushAction, string>>;
}

/** A reminder's buttons when the server did not name them. */
export const DEFAULT_ACTION_TITLES: Record<PushAction, string> = { [PUSH_ACTION_TAKEN]: 'Mark as Taken', [PUSH_ACTION_LATER]: 'Remind Later' };

/** A meal-time medicine reminder: the four fields docs/requirements.md §5 requires, plus what the server adds. */
export interface MedicineReminderData {
  type: 'medicine';
  prescrNo: string;
  medicineName: string;
  dose: string;
  /** The local meal time "HH:MM" the dose belongs to. */
  time: string;
  meal?: string;
  /** The instant the reminder was due (ISO). */
  notificationTime?: string;
  /** A "Remind Later" resend. */
  snoozed?: boolean;
}

/** A glucometer day, or any other notice the server may send later: shown, nothing kept. */
export interface NoticeData {
  type: string;
  time?: string;
  notificationTime?: string;
}

/** A severe-low alert to a staff device (issue 18): tapping it opens that patient's report. */
export interface SevereLowData {
  type: 'severeLow';
  hospNo: string;
  valueMgDl?: number;
  measuredAt?: string;
  notificationTime?: string;
}

export type PushData = MedicineReminderData | SevereLowData | NoticeData;

export interface ValidPush {
  notification: PushNotice;
  data: PushData;
}

/** The fallback title of a notification part that has none (showNotification needs one). */
const DEFAULT_TITLE = 'Eddy';
/** Nothing the server sends is longer; a bigger value is cut, not trusted to fit anywhere. */
const MAX_TEXT = 500;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-blank string or number (FCM sends strings, a Web Push sender might send a number). */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  return v.slice(0, MAX_TEXT);
}

/** The known buttons' titles of a notification part's `actions` list; unknown entries are dropped. */
function actionTitles(v: unknown): PushNotice['actions'] {
  if (!Array.isArray(v)) return undefined;
  const out: Partial<Record<PushAction, string>> = {};
  for (const a of v) {
    if (!isRecord(a)) continue;
    const title = textOf(a['title'])?.slice(0, 60);
    if ((a['action'] === PUSH_ACTION_TAKEN || a['action'] === PUSH_ACTION_LATER) && title !== undefined) out[a['action']] = title;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const isMedicineReminder = (data: PushData): data is MedicineReminderData => data.type === 'medicine';
export const isSevereLow = (data: PushData): data is SevereLowData => data.type === 'severeLow';

/**
 * The push as the app may use it, or undefined when it must be ignored (docs/requirements.md §5): no notification
 * part, no data part, a medicine reminder without prescrNo, medicineName, dose or time, or a
 * severe-low alert without the patient's hospital number. Unknown
 * fields are dropped, so nothing the sender adds is stored or passed on unchecked.
 */
export function parsePushPayload(payload: unknown): ValidPush | undefined {
  if (!isRecord(payload)) return undefined;
  const { notification, data } = payload;
  if (!isRecord(notification) || !isRecord(data)) return undefined;

  const notice: PushNotice = { title: textOf(notification['title']) ?? DEFAULT_TITLE };
  const body = textOf(notification['body']);
  const tag = textOf(notification['tag']);
  if (body !== undefined) notice.body = body;
  if (tag !== undefined) notice.tag = tag;
  const actions = actionTitles(notification['actions']);
  if (actions) notice.actions = actions;

  const type = textOf(data['type']) ?? '';
  const time = textOf(data['time']);
  const notificationTime = textOf(data['notificationTime']);
  if (type === 'medicine') {
    const prescrNo = textOf(data['prescrNo']);
    const medicineName = textOf(data['medicineName']);
    const dose = textOf(data['dose']);
    if (prescrNo === undefined || medicineName === undefined || dose === undefined || time === undefined) return undefined;
    const reminder: MedicineReminderData = { type, prescrNo, medicineName, dose, time };
    const meal = textOf(data['meal']);
    if (meal !== undefined) reminder.meal = meal;
    if (notificationTime !== undefined) reminder.notificationTime = notificationTime;
    if (data['snoozed'] === true || data['snoozed'] === 'true') reminder.snoozed = true;
    return { notification: notice, data: reminder };
  }
  if (type === 'severeLow') {
    const hospNo = textOf(data['hospNo']);
    if (hospNo === undefined) return undefined;
    const alert: SevereLowData = { type, hospNo };
    const value = Number(data['valueMgDl']);
    if (data['valueMgDl'] !== undefined && Number.isFinite(value)) alert.valueMgDl = value;
    const measuredAt = textOf(data['measuredAt']);
    if (measuredAt !== undefined) alert.measuredAt = measuredAt;
    if (notificationTime !== undefined) alert.notificationTime = notificationTime;
    return { notification: notice, data: alert };
  }
  const other: NoticeData = { type };
  if (time !== undefined) other.time = time;
  if (notificationTime !== undefined) other.notificationTime = notificationTime;
  return { notification: notice, data: other };
}

/** A dose taken from a notification; the same shape as a medicine intake (schemas/medicine.ts). */
export interface IntakeFromPush {
  _id: string;
  prescrNo: string;
  medicineName: string;
  dose: string;
  takenAt: string;
  /** The meal the reminder was for: the dose belongs to it (one per medicine, day and meal). */
  slot?: MealSlot;
}

/** The reminder's meal as a dose slot, when it names one. */
export const slotOfReminder = (reminder: { meal?: string }): MealSlot | undefined => MEAL_SLOTS.find((m) => m === reminder.meal);

// Worker → pages (besides 'replay-done', see sync/outbox.ts).
export interface PushReceivedMessage {
  type: 'push-received';
  data: PushData;
}
/** Sent with a MessageChannel port; the page answers {ok:true} on it once the dose is stored. */
export interface MarkTakenMessage {
  type: 'mark medicine taken';
  intake: IntakeFromPush;
}
export interface RemindLaterMessage {
  type: 'remind later';
  data: MedicineReminderData;
  /** ISO instant the server was asked to send the reminder again. */
  remindAt: string;
}
export type PushPageMessage = PushReceivedMessage | MarkTakenMessage | RemindLaterMessage;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isIntakeFromPush(v: unknown): v is IntakeFromPush {
  if (!isRecord(v)) return false;
  return (
    typeof v['_id'] === 'string' &&
    UUID.test(v['_id']) &&
    textOf(v['prescrNo']) !== undefined &&
    textOf(v['medicineName']) !== undefined &&
    textOf(v['dose']) !== undefined &&
    typeof v['takenAt'] === 'string' &&
    Number.isFinite(Date.parse(v['takenAt'])) &&
    (v['slot'] === undefined || MEAL_SLOTS.some((m) => m === v['slot']))
  );
}

/** A message from the worker about pushes, checked field by field (anything else is ignored). */
export function readPushPageMessage(v: unknown): PushPageMessage | undefined {
  if (!isRecord(v)) return undefined;
  if (v['type'] === 'push-received') {
    const parsed = parsePushPayload({ notification: {}, data: v['data'] });
    return parsed ? { type: 'push-received', data: parsed.data } : undefined;
  }
  if (v['type'] === 'mark medicine taken') return isIntakeFromPush(v['intake']) ? { type: 'mark medicine taken', intake: v['intake'] } : undefined;
  if (v['type'] === 'remind later') {
    const parsed = parsePushPayload({ notification: {}, data: v['data'] });
    const remindAt = v['remindAt'];
    if (!parsed || !isMedicineReminder(parsed.data) || typeof remindAt !== 'string' || !Number.isFinite(Date.parse(remindAt))) return undefined;
    return { type: 'remind later', data: parsed.data, remindAt };
  }
  return undefined;
}
