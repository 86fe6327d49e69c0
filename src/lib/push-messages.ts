// The page's side of reminder pushes (docs/requirements.md §3 pending medicines, §4 push handling, §5 truncation, §9
// 2 h expiry and 8 s push notices). The service worker keeps what a push brought in the push inbox
// (sync/storage/push-inbox.ts); this module moves it into the pendingMedicines collection, on start and on
// each 'push-received', and answers the worker's 'mark medicine taken' and 'remind later'.
//
// A pending entry leaves when it expires (2 h after it arrived), when its medicine is marked taken
// here, from the notification, or on another device (an intake of that medicine taken after the
// reminder arrived, once replication brings it).
import { msg } from '@lingui/core/macro';
import type { RxCollection } from 'rxdb';
import { uuidv7 } from '../../sync/ids.ts';
import { log } from '../../sync/log.ts';
import { readInbox, removeFromInbox } from '../../sync/storage/push-inbox.ts';
import { isMedicineReminder, readPushPageMessage, type IntakeFromPush, type MedicineReminderData, type PushData } from '../../sync/push-payload.ts';
import { deviceTimeZone, timeFormat, zoneShortName, zonesDiffer, type ClockZones } from './dates.ts';
import {
  PENDING_MEDICINE_LIMITS,
  PENDING_MEDICINE_TTL_MS,
  PROFILE_ID,
  type MedicineIntake,
  type PendingMedicine,
  type ProfileDoc,
} from '../../sync/storage/collections.ts';
import { i18n } from './i18n.ts';
import { PUSH_TOAST_DURATION, type ToastOptions } from './ui/toast-store.ts';

export interface PushCollections {
  pendingMedicines: RxCollection<PendingMedicine>;
  medicineIntakes: RxCollection<MedicineIntake>;
  /** The profile, for its time zone: a reminder's time is on the profile's clock. */
  profile?: RxCollection<ProfileDoc>;
}

/** How often expired entries are removed from the collection (the list hides them by itself). */
export const PURGE_EVERY_MS = 60_000;
/** The schema's limits of the two free-text time fields. */
const TIME_MAX = 40;

/** Trimmed first, so a cut never leaves a value of spaces only (the schemas refuse blank text). */
const cut = (value: string, max: number): string => value.trim().slice(0, max);

/** A reminder as a pending entry, its fields cut to docs/requirements.md §5's lengths; it expires 2 h after arrival. */
export function toPendingMedicine(data: MedicineReminderData, userId: string, receivedAt: number, id: string = uuidv7()): PendingMedicine {
  const pending: PendingMedicine = {
    _id: id,
    time: cut(data.time, TIME_MAX),
    prescrNo: cut(data.prescrNo, PENDING_MEDICINE_LIMITS.prescrNo),
    name: cut(data.medicineName, PENDING_MEDICINE_LIMITS.name),
    dose: cut(data.dose, PENDING_MEDICINE_LIMITS.dose),
    userId: cut(userId, PENDING_MEDICINE_LIMITS.userId),
    timestamp: receivedAt,
    expiry: receivedAt + PENDING_MEDICINE_TTL_MS,
  };
  if (data.notificationTime) pending.notificationTime = cut(data.notificationTime, TIME_MAX);
  return pending;
}

const samePrescription = (prescrNo: string) => ({ prescrNo: cut(prescrNo, PENDING_MEDICINE_LIMITS.prescrNo) });

/** Stores a reminder; a resend of the same dose reminder ("Remind Later") replaces the earlier one. */
export async function addPending(cols: PushCollections, pending: PendingMedicine): Promise<void> {
  await cols.pendingMedicines.find({ selector: { prescrNo: pending.prescrNo, time: pending.time } }).remove();
  await cols.pendingMedicines.insert(pending);
}

/**
 * Records a dose the worker made (same `_id` as the worker's, so the server keeps one) unless it is
 * already here, and clears that medicine's pending reminders.
 */
export async function recordIntake(cols: PushCollections, intake: IntakeFromPush): Promise<void> {
  if (!(await cols.medicineIntakes.findOne(intake._id).exec())) {
    try {
      await cols.medicineIntakes.insert({
        _id: intake._id,
        prescrNo: intake.prescrNo,
        medicineName: intake.medicineName,
        dose: intake.dose,
        takenAt: intake.takenAt,
        ...(intake.slot ? { slot: intake.slot } : {}),
      });
    } catch (err) {
      // Another tab got the same message and stored it first: that is the dose recorded.
      if (!(await cols.medicineIntakes.findOne(intake._id).exec())) throw err;
    }
  }
  await cols.pendingMedicines.find({ selector: samePrescription(intake.prescrNo) }).remove();
}

/** Removes expired entries and those whose medicine was taken after the reminder arrived. */
export async function tidyPending(cols: PushCollections, now: number): Promise<void> {
  await cols.pendingMedicines.find({ selector: { expiry: { $lte: now } } }).remove();
  const pending = await cols.pendingMedicines.find().exec();
  if (pending.length === 0) return;
  const since = new Date(Math.min(...pending.map((p) => p.timestamp))).toISOString();
  const intakes = await cols.medicineIntakes.find({ selector: { takenAt: { $gte: since } } }).exec();
  const answered = pending.filter((p) =>
    intakes.some((i) => cut(i.prescrNo, PENDING_MEDICINE_LIMITS.prescrNo) === p.prescrNo && Date.parse(i.takenAt) >= p.timestamp),
  );
  await Promise.all(answered.map((p) => p.remove()));
}

/** Moves what the worker left in the inbox into the database, then deletes it there. */
export async function takeInbox(cols: PushCollections, userId: string, now: number): Promise<void> {
  const done: string[] = [];
  for (const item of await readInbox(now)) {
    try {
      if (item.kind === 'taken') await recordIntake(cols, item.intake);
      // An entry that expired while the app was closed is not shown at all.
      else if (item.receivedAt + PENDING_MEDICINE_TTL_MS > now) await addPending(cols, toPendingMedicine(item.data, userId, item.receivedAt));
      done.push(item.id);
    } catch (err) {
      // Kept for the next try; the inbox drops it after a day at the latest.
      log.error('a push could not be stored', err);
    }
  }
  await removeFromInbox(done);
  await tidyPending(cols, now);
}

/**
 * The in-app notice of a push that just arrived (8 s, docs/requirements.md §9). A reminder's time is
 * the profile's clock's (the server sends on it): its zone is named when this device's differs.
 */
export function receivedNotice(data: PushData, zones: ClockZones = { device: deviceTimeZone() }): ToastOptions {
  if (isMedicineReminder(data)) {
    const { medicineName, dose } = data;
    const time = zones.profile && zonesDiffer(zones.device, zones.profile) ? `${data.time} ${zoneShortName(i18n.locale || 'en', zones.profile)}` : data.time;
    return { type: 'info', title: msg`Time for your medicine`, text: msg`${medicineName}, ${dose} (${time})`, duration: PUSH_TOAST_DURATION };
  }
  if (data.type === 'glucometerAlert') {
    return {
      type: 'info',
      title: msg`Glucometer day`,
      text: msg`Today is a glucose check day: please check your blood glucose.`,
      duration: PUSH_TOAST_DURATION,
    };
  }
  return { type: 'info', text: msg`You have a new reminder. Open your notifications to read it.`, duration: PUSH_TOAST_DURATION };
}

/** "We will remind you … at 6:43 PM": on this device's clock, naming its zone when the profile's differs. */
export function remindLaterNotice(data: MedicineReminderData, remindAt: string, zones: ClockZones = { device: deviceTimeZone() }): ToastOptions {
  const name = data.medicineName;
  const when = timeFormat(i18n.locale || 'en', 'time', zones).format(remindAt);
  return { type: 'info', text: msg`We will remind you about ${name} again at ${when}.`, duration: PUSH_TOAST_DURATION };
}

/** The part of navigator.serviceWorker used here. */
export interface MessageSource extends EventTarget {
  startMessages?(): void;
}

export interface PushMessagesOptions {
  cols: PushCollections;
  /** The logged-in patient's hospital number (the pending entries' userId). */
  userId: string;
  notify: (options: ToastOptions) => void;
  source: MessageSource | undefined;
  now?: () => number;
}

/** Starts listening to the worker and takes what waits in the inbox; returns the stop function. */
export function startPushMessages(opts: PushMessagesOptions): () => void {
  const now = opts.now ?? Date.now;
  let stopped = false;
  // One inbox pass at a time: a push arriving during the start-up pass waits for it. Nothing waits
  // for the queue (it is fed from events, a timer and a subscription): a pass that fails is logged.
  let queue: Promise<void> = Promise.resolve();
  const run = (work: () => Promise<void>): void => {
    queue = queue.then(() => (stopped ? undefined : work())).catch((err: unknown) => log.error('push messages', err));
  };

  // The profile's zone as it changes (a pull, another tab), for the notices' times.
  let profileZone: string | undefined;
  const profile = opts.cols.profile?.findOne(PROFILE_ID).$.subscribe({
    next: (doc) => (profileZone = doc?.timeZone || undefined),
    error: (err: unknown) => log.error('local query failed', err),
  });
  const zones = (): ClockZones => ({ device: deviceTimeZone(), profile: profileZone });

  const onMessage = (event: Event) => {
    const { data, ports } = event as MessageEvent;
    const message = readPushPageMessage(data);
    if (!message) return;
    if (message.type === 'push-received') {
      opts.notify(receivedNotice(message.data, zones()));
      run(() => takeInbox(opts.cols, opts.userId, now()));
    } else if (message.type === 'mark medicine taken') {
      const port = ports[0];
      run(async () => {
        try {
          await recordIntake(opts.cols, message.intake);
          opts.notify({ type: 'success', text: msg`Medicine recorded successfully`, duration: PUSH_TOAST_DURATION });
          port?.postMessage({ ok: true });
        } catch (err) {
          // The worker then queues the dose itself.
          port?.postMessage({ ok: false });
          throw err;
        }
      });
    } else {
      opts.notify(remindLaterNotice(message.data, message.remindAt, zones()));
    }
  };

  opts.source?.addEventListener('message', onMessage);
  // Messages from the worker are queued until the page opts in.
  opts.source?.startMessages?.();
  run(() => takeInbox(opts.cols, opts.userId, now()));
  const timer = setInterval(() => run(() => tidyPending(opts.cols, now())), PURGE_EVERY_MS);
  // A dose taken elsewhere (another device, the worker's queued write pulled back) clears its reminder.
  const intakes = opts.cols.medicineIntakes.insert$.subscribe(() => run(() => tidyPending(opts.cols, now())));

  return () => {
    stopped = true;
    opts.source?.removeEventListener('message', onMessage);
    clearInterval(timer);
    intakes.unsubscribe();
    profile?.unsubscribe();
  };
}
