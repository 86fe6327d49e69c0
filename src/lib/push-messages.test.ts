// The page's side of reminder pushes on the real stack: RxDB with the encrypted Dexie storage on
// fake-indexeddb, the real push inbox and data key; the service worker is an EventTarget posting
// the messages the contract fixes.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { destroyDataKey, getDataKey } from '../../sync/storage/crypto.ts';
import { addToInbox, clearInbox, readInbox } from '../../sync/storage/push-inbox.ts';
import type { MedicineReminderData } from '../../sync/push-payload.ts';
import { deviceTimeZone, timeFormat, zoneShortName } from './dates.ts';
import { PENDING_MEDICINE_TTL_MS, PROFILE_ID } from '../../sync/storage/collections.ts';
import { destroyEddyDatabase, openEddyDatabase, type EddyDatabase } from '../../sync/storage/database.ts';
import { addPending, recordIntake, startPushMessages, tidyPending, toPendingMedicine, takeInbox } from './push-messages.ts';
import { PUSH_TOAST_DURATION, type ToastOptions } from './ui/toast-store.ts';

const reminder: MedicineReminderData = {
  type: 'medicine',
  prescrNo: 'RX-100001-01',
  medicineName: 'Metformin 500 mg tablet',
  dose: '1-0-1',
  time: '08:00',
  notificationTime: '2026-11-24T07:00:00.000Z',
};
const NOW = Date.parse('2026-11-24T07:00:30.000Z');
const intakeId = '0193a1c2-7b5e-7c3d-8e9f-0123456789ab';

let db: EddyDatabase;
let n = 0;
beforeEach(async () => {
  await getDataKey();
  db = await openEddyDatabase({ name: `push-messages-${++n}` });
});
afterEach(async () => {
  await destroyEddyDatabase(db);
  await clearInbox();
  await destroyDataKey();
});

const pending = async () => (await db.pendingMedicines.find().exec()).map((d) => d.toJSON(false));

describe('a reminder as a pending medicine', () => {
  it('cuts dose, prescrNo and userId to 20 characters and the name to 100, and expires 2 h after arrival', () => {
    const long: MedicineReminderData = {
      ...reminder,
      prescrNo: 'RX-' + '9'.repeat(30),
      medicineName: 'N'.repeat(150),
      dose: '1 tablet after breakfast with water',
    };
    const p = toPendingMedicine(long, '1000011234567890123456789', NOW, 'id-1');
    expect(p).toEqual({
      _id: 'id-1',
      time: '08:00',
      prescrNo: ('RX-' + '9'.repeat(30)).slice(0, 20),
      name: 'N'.repeat(100),
      dose: '1 tablet after break',
      userId: '10000112345678901234',
      timestamp: NOW,
      notificationTime: '2026-11-24T07:00:00.000Z',
      expiry: NOW + 2 * 3_600_000,
    });
  });

  it('never cuts a value down to blanks', () => {
    expect(toPendingMedicine({ ...reminder, dose: '   ' + '1'.repeat(30) }, '100001', NOW).dose).toBe('1'.repeat(20));
  });
});

describe('inbox → pendingMedicines', () => {
  it('moves reminders into the collection with the patient as userId, then deletes them from the inbox', async () => {
    await addToInbox({ kind: 'reminder', id: 'r1', receivedAt: NOW - 60_000, notification: { title: 'T' }, data: reminder });
    await takeInbox(db, '100001', NOW);
    expect(await pending()).toEqual([
      expect.objectContaining({
        prescrNo: 'RX-100001-01',
        name: 'Metformin 500 mg tablet',
        dose: '1-0-1',
        userId: '100001',
        timestamp: NOW - 60_000,
        expiry: NOW - 60_000 + PENDING_MEDICINE_TTL_MS,
      }),
    ]);
    expect(await readInbox(NOW)).toEqual([]);
  });

  it('does not show a reminder that expired while the app was closed', async () => {
    await addToInbox({ kind: 'reminder', id: 'old', receivedAt: NOW - PENDING_MEDICINE_TTL_MS - 1, notification: { title: 'T' }, data: reminder });
    await takeInbox(db, '100001', NOW);
    expect(await pending()).toEqual([]);
    expect(await readInbox(NOW)).toEqual([]);
  });

  it('a resend of the same dose reminder replaces the earlier entry', async () => {
    await addPending(db, toPendingMedicine(reminder, '100001', NOW - 900_000));
    await addPending(db, toPendingMedicine({ ...reminder, medicineName: 'Other tablet', prescrNo: 'RX-2' }, '100001', NOW - 900_000));
    await addToInbox({ kind: 'reminder', id: 'again', receivedAt: NOW, notification: { title: 'T' }, data: { ...reminder, snoozed: true } });
    await takeInbox(db, '100001', NOW);
    const rows = await pending();
    expect(rows.map((r) => [r.prescrNo, r.timestamp])).toEqual(
      expect.arrayContaining([
        ['RX-100001-01', NOW],
        ['RX-2', NOW - 900_000],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('a dose the worker recorded shows at once and clears the reminder', async () => {
    await addPending(db, toPendingMedicine(reminder, '100001', NOW - 60_000));
    const intake = {
      _id: intakeId,
      prescrNo: reminder.prescrNo,
      medicineName: reminder.medicineName,
      dose: reminder.dose,
      takenAt: new Date(NOW).toISOString(),
    };
    await addToInbox({ kind: 'taken', id: 't1', receivedAt: NOW, intake });
    await takeInbox(db, '100001', NOW);
    expect((await db.medicineIntakes.findOne(intakeId).exec())?.toJSON(false)).toEqual(intake);
    expect(await pending()).toEqual([]);
  });
});

describe('tidying the pending list', () => {
  it('removes entries 2 h after arrival, not before', async () => {
    await addPending(db, toPendingMedicine(reminder, '100001', NOW));
    await tidyPending(db, NOW + PENDING_MEDICINE_TTL_MS - 1);
    expect(await pending()).toHaveLength(1);
    await tidyPending(db, NOW + PENDING_MEDICINE_TTL_MS);
    expect(await pending()).toEqual([]);
  });

  it('removes an entry whose medicine was taken after the reminder arrived (e.g. on another device)', async () => {
    await addPending(db, toPendingMedicine(reminder, '100001', NOW));
    const base = { prescrNo: reminder.prescrNo, medicineName: reminder.medicineName, dose: reminder.dose };
    await db.medicineIntakes.insert({ _id: '0193a1c2-0000-7c3d-8e9f-0123456789ab', ...base, takenAt: new Date(NOW - 3_600_000).toISOString() });
    await tidyPending(db, NOW + 1000);
    expect(await pending()).toHaveLength(1); // taken before the reminder: that was the previous dose
    await db.medicineIntakes.insert({ _id: intakeId, ...base, takenAt: new Date(NOW + 500).toISOString() });
    await tidyPending(db, NOW + 1000);
    expect(await pending()).toEqual([]);
  });

  it('recording the same dose twice keeps one', async () => {
    const intake = { _id: intakeId, prescrNo: 'RX-1', medicineName: 'M', dose: '1', takenAt: new Date(NOW).toISOString() };
    await recordIntake(db, intake);
    await recordIntake(db, intake);
    expect(await db.medicineIntakes.find().exec()).toHaveLength(1);
  });
});

describe('messages from the service worker', () => {
  function start() {
    const source = new EventTarget() as EventTarget & { startMessages(): void; started: boolean };
    source.started = false;
    source.startMessages = () => {
      source.started = true;
    };
    const toasts: ToastOptions[] = [];
    const stop = startPushMessages({ cols: db, userId: '100001', notify: (t) => toasts.push(t), source, now: () => Date.now() });
    const post = (data: unknown, ports: MessagePort[] = []) => source.dispatchEvent(new MessageEvent('message', { data, ports }));
    return { source, toasts, stop, post };
  }
  const until = async <T>(fn: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 200; i++) {
      const v = await fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('timed out');
  };

  it("'push-received': an 8 s notice and the inbox's reminder on the pending list", async () => {
    const { source, toasts, stop, post } = start();
    expect(source.started).toBe(true);
    await addToInbox({ kind: 'reminder', id: 'live', receivedAt: Date.now(), notification: { title: 'T' }, data: reminder });
    post({ type: 'push-received', data: reminder });
    await until(async () => ((await pending()).length === 1 ? true : undefined));
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ type: 'info', duration: PUSH_TOAST_DURATION });
    expect(JSON.stringify(toasts[0])).toContain('Metformin 500 mg tablet');
    stop();
  });

  it("'mark medicine taken': stores the dose with the worker's id, clears pending, says so for 8 s and answers {ok:true}", async () => {
    await addPending(db, toPendingMedicine(reminder, '100001', Date.now() - 1000));
    const { toasts, stop, post } = start();
    const channel = new MessageChannel();
    const answer = new Promise((resolve) => channel.port1.addEventListener('message', (e) => resolve(e.data), { once: true }));
    channel.port1.start();
    const intake = { _id: intakeId, prescrNo: reminder.prescrNo, medicineName: reminder.medicineName, dose: reminder.dose, takenAt: new Date().toISOString() };
    post({ type: 'mark medicine taken', intake }, [channel.port2]);
    expect(await answer).toEqual({ ok: true });
    expect((await db.medicineIntakes.findOne(intakeId).exec())?.toJSON(false)).toEqual(intake);
    expect(await pending()).toEqual([]);
    expect(toasts).toEqual([expect.objectContaining({ type: 'success', duration: PUSH_TOAST_DURATION })]);
    expect(JSON.stringify(toasts[0])).toContain('Medicine recorded successfully');
    channel.port1.close();
    stop();
  });

  it("'remind later': an 8 s notice saying when; other messages are ignored", async () => {
    const { toasts, stop, post } = start();
    post({ type: 'replay-done', sent: 0, kept: 0, rejected: 0, unauthorized: false });
    post({ type: 'mark medicine taken', intake: { _id: 'x' } });
    post({ type: 'remind later', data: reminder, remindAt: new Date(Date.now() + 900_000).toISOString() });
    expect(toasts).toEqual([expect.objectContaining({ type: 'info', duration: PUSH_TOAST_DURATION })]);
    expect(JSON.stringify(toasts[0])).toContain('Metformin 500 mg tablet');
    stop();
  });

  it("name the profile's zone on a reminder's meal time, and this device's on the remind-later time, when the two differ", async () => {
    // A zone no test machine is in: GMT+13:45 in November.
    const profileZone = 'Pacific/Chatham';
    const { toasts, stop, post } = start();
    post({ type: 'push-received', data: reminder });
    post({ type: 'remind later', data: reminder, remindAt: '2026-11-24T07:15:00.000Z' });
    expect(JSON.stringify(toasts)).not.toMatch(/GMT|UTC/);
    await db.profile.insert({
      _id: PROFILE_ID,
      name: 'Jane Patient',
      hospNum: '100001',
      timeZone: profileZone,
      notificationTimings: { breakfast: '08:00', lunch: '13:00', dinner: '19:00' },
      glucometerAlerts: [],
    });
    await until(async () => {
      post({ type: 'push-received', data: reminder });
      const last = JSON.stringify(toasts.at(-1));
      return last.includes(`08:00 ${zoneShortName('en', profileZone, new Date())}`) ? true : undefined;
    });
    post({ type: 'remind later', data: reminder, remindAt: '2026-11-24T07:15:00.000Z' });
    expect(JSON.stringify(toasts.at(-1))).toContain(
      timeFormat('en', 'time', { device: deviceTimeZone(), profile: profileZone }).format('2026-11-24T07:15:00.000Z'),
    );
    expect(JSON.stringify(toasts.at(-1))).toContain(zoneShortName('en', deviceTimeZone(), new Date('2026-11-24T07:15:00.000Z')));
    stop();
  });
});
