import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reminderJobs } from '../db/schema.ts';
import { createPushSender } from '../push/create-sender.ts';
import { resolvePushSettings } from '../push/settings.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { runReminderPass } from '../reminders/scheduler.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { startPushPeer, type PushPeer } from '../testing/push-peer.ts';

let h: Harness;
let fx: Fixture;
let peer: PushPeer;
let token: string;
const URL = '/api/users/medicines/remindLater';
const body = (extra: Record<string, unknown> = {}) => ({
  prescrNo: 'RX-LATER-1',
  medicineName: 'Metformin 500 mg tablet',
  dose: '1-0-1',
  time: '08:00',
  ...extra,
});
const jobsOf = (patientId: string) => h.db.select().from(reminderJobs).where(eq(reminderJobs.patientId, patientId));
/** HH:MM in UTC, `hours` from now: meal times that no pass in this test falls on. */
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString().slice(11, 16);
/** Taken once: a test that computed it again could cross a minute boundary (CI 2026-11-28: 06:13 against 06:12). */
const mealTimes = { breakfast: inHours(5), lunch: inHours(6), dinner: inHours(7) };

beforeAll(async () => {
  h = await createHarness({ PUSH_ALLOW_INSECURE_ENDPOINTS: '1' });
  fx = await seedFixture(h.db, 'UTC');
  peer = await startPushPeer();
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  await medicineRepo.insert(h.db, { patientId: fx.patientA.id, prescrNo: 'RX-LATER-1', name: 'Metformin 500 mg tablet', dose: '1-0-1' });
  await medicineRepo.insert(h.db, { patientId: fx.patientA2.id, prescrNo: 'RX-OTHER', name: 'Sitagliptin', dose: '1-0-0' });
  await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: mealTimes });
});
afterAll(async () => {
  await peer.close();
  await h.close();
});

describe('POST /api/users/medicines/remindLater', () => {
  it('schedules the reminder once more, 15 minutes from now by default', async () => {
    const before = Date.now();
    const res = await call(h.app, 'POST', URL, { token, body: body() });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Reminder scheduled');
    const remindAt = new Date(String(res.json['remindAt'])).getTime();
    expect(remindAt).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(remindAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(await jobsOf(fx.patientA.id)).toHaveLength(1);
  });

  it('is idempotent on _id: the same request again schedules nothing new', async () => {
    const _id = randomUUID();
    const remindAt = new Date(Date.now() + 20 * 60_000).toISOString();
    const first = await call(h.app, 'POST', URL, { token, body: body({ _id, remindAt }) });
    const again = await call(h.app, 'POST', URL, { token, body: body({ _id, remindAt: new Date(Date.now() + 30 * 60_000).toISOString() }) });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json['remindAt']).toBe(first.json['remindAt']);
    expect((await jobsOf(fx.patientA.id)).filter((j) => j.dedupeKey === `snooze:${_id}`)).toHaveLength(1);
  });

  it('sends the snoozed reminder at remindAt to every device, with snoozed: true', async () => {
    const patientToken = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await call(h.app, 'POST', '/api/users/notificationToken', { token: patientToken, body: { token: peer.subscribe('phone') } });
    await h.db.delete(reminderJobs);
    const remindAt = new Date(Date.now() + 10 * 60_000);
    remindAt.setUTCMilliseconds(0);
    const res = await call(h.app, 'POST', URL, { token, body: body({ _id: randomUUID(), remindAt: remindAt.toISOString() }) });
    expect(res.json['remindAt']).toBe(remindAt.toISOString());

    const sender = createPushSender(await resolvePushSettings(h.config, h.db));
    const early = await runReminderPass({ db: h.db, sender }, new Date(remindAt.getTime() - 1000));
    expect(early.outcomes).toEqual([]);
    const due = await runReminderPass({ db: h.db, sender }, remindAt);
    expect(due.outcomes.map((o) => o.status)).toEqual(['sent']);
    const [message] = peer.of('phone').map((r) => r.json);
    expect(message?.['data']).toEqual({
      type: 'medicine',
      prescrNo: 'RX-LATER-1',
      medicineName: 'Metformin 500 mg tablet',
      dose: '1-0-1',
      time: '08:00',
      notificationTime: remindAt.toISOString(),
      snoozed: true,
    });
    expect((message?.['notification'] as { title: string; body: string }).body).toBe('Metformin 500 mg tablet — 1-0-1 (08:00 UTC)'); // the zone of the meal time is named;
    expect((await runReminderPass({ db: h.db, sender }, new Date(remindAt.getTime() + 60_000))).outcomes).toEqual([]);
    expect(peer.of('phone')).toHaveLength(1);
  });

  it('words a snooze of a meal reminder as the first one was', async () => {
    const { breakfast } = mealTimes;
    const res = await call(h.app, 'POST', URL, { token, body: body({ time: breakfast }) });
    const [row] = (await jobsOf(fx.patientA.id)).filter((j) => j.dueAt.toISOString() === res.json['remindAt']);
    expect(row?.payload).toMatchObject({ portion: '1', data: { meal: 'breakfast', time: breakfast, snoozed: true } });
  });

  it('accepts a request that arrives late (the device was offline) and sends it at once', async () => {
    const res = await call(h.app, 'POST', URL, { token, body: body({ remindAt: new Date(Date.now() - 45 * 60_000).toISOString() }) });
    expect(res.status).toBe(200);
    expect(Math.abs(new Date(String(res.json['remindAt'])).getTime() - Date.now())).toBeLessThan(5000);
  });

  it.each([
    [{ remindAt: new Date(Date.now() + 3 * 3600_000).toISOString() }, 400, 'remindAt must be within 2 hours of now'],
    [{ remindAt: new Date(Date.now() - 3 * 3600_000).toISOString() }, 400, 'remindAt must be within 2 hours of now'],
    [{ remindAt: 'tomorrow' }, 400, 'remindAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [{ time: '8 am' }, 400, 'time must be a time in 24-hour HH:MM format'],
    [{ _id: 'not-a-uuid' }, 400, '_id must be a valid UUID'],
    [{ prescrNo: 'RX-NOPE' }, 404, 'Medicine not found'],
    [{ prescrNo: 'RX-OTHER' }, 404, 'Medicine not found'],
  ])('refuses %j', async (extra, status, message) => {
    const before = (await jobsOf(fx.patientA.id)).length;
    const res = await call(h.app, 'POST', URL, { token, body: body(extra) });
    expect(res.status).toBe(status);
    expect(res.json['message']).toBe(message);
    expect(await jobsOf(fx.patientA.id)).toHaveLength(before);
  });

  it('needs the fields and a patient', async () => {
    expect((await call(h.app, 'POST', URL, { token, body: { prescrNo: 'RX-LATER-1' } })).json['message']).toBe('medicineName is required');
    expect((await call(h.app, 'POST', URL, { body: body() })).status).toBe(401);
    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect((await call(h.app, 'POST', URL, { token: adminToken, body: body(), headers: { 'x-hosp-no': fx.patientA.hospNo } })).status).toBe(403);
  });
});
