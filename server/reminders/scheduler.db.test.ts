// The scheduler against a real database and a real push-service peer on loopback: what arrives is
// decrypted with the subscription's own keys, exactly as the patient's browser would.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushMessageSchema } from '../../schemas/push.ts';
import { openDatabase, type Db } from '../db/client.ts';
import { pushTokens, reminderJobs } from '../db/schema.ts';
import { createPushSender } from '../push/create-sender.ts';
import type { PushSender } from '../push/sender.ts';
import { resolvePushSettings, type VapidDetails } from '../push/settings.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { startPushPeer, verifyVapid, type PushPeer } from '../testing/push-peer.ts';
import { runReminderPass } from './scheduler.ts';

let h: Harness;
let fx: Fixture;
let peer: PushPeer;
let sender: PushSender;
let vapid: VapidDetails;

beforeAll(async () => {
  h = await createHarness({ PUSH_ALLOW_INSECURE_ENDPOINTS: '1', MAIL_FROM: 'Ward 7 <ward7@hospital.example>' });
  fx = await seedFixture(h.db, 'Europe/Madrid');
  peer = await startPushPeer();
  const settings = await resolvePushSettings(h.config, h.db);
  if (settings.provider !== 'webpush') throw new Error('expected Web Push');
  vapid = settings.vapid;
  sender = createPushSender(settings);
});
afterAll(async () => {
  await peer.close();
  await h.close();
});
// Every test plans for the patients with a device; each test's devices are its own.
afterEach(async () => {
  await h.db.delete(pushTokens);
  peer.requests.length = 0;
});

const pass = (iso: string, opts: { dryRun?: boolean; db?: Db } = {}) => runReminderPass({ db: opts.db ?? h.db, sender }, new Date(iso), opts);

async function prescribe(patientId: string, p: { prescrNo: string; name: string; dose: string; startDate?: string; endDate?: string }) {
  await medicineRepo.insert(h.db, { patientId, ...p });
}

async function subscribe(patient: { hospNo: string; password: string }, device: string, extra: Record<string, unknown> = {}) {
  const token = await loginPatient(h.app, patient.hospNo, patient.password);
  const res = await call(h.app, 'POST', '/api/users/notificationToken', { token, body: { token: peer.subscribe(device), ...extra } });
  expect(res.status).toBe(200);
  return token;
}

const ajv = new Ajv({ strict: false });
ajvFormats.default(ajv);
const isPushMessage = ajv.compile(pushMessageSchema);

describe('a scheduler pass', () => {
  it('sends each due reminder once to every device, encrypted, with nothing else about the patient', async () => {
    // Europe/Madrid is UTC+1 in December; 2026-12-01 is a Tuesday.
    const token = await subscribe(fx.patientA, 'alice-phone', { timeZone: 'Europe/Madrid', locale: 'en' });
    await subscribe(fx.patientA, 'alice-tablet', { locale: 'es' });
    await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' } });
    await call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: 'Tuesday' } });
    await prescribe(fx.patientA.id, { prescrNo: 'RX-100001-01', name: 'Metformin 500 mg tablet', dose: '1-0-1' });
    await prescribe(fx.patientA.id, { prescrNo: 'RX-NIGHT', name: 'Insulin glargine', dose: '0-0-1' });
    await prescribe(fx.patientA.id, { prescrNo: 'RX-ENDED', name: 'Amoxicillin', dose: '1-1-1', endDate: '2026-11-30' });
    await prescribe(fx.patientA.id, { prescrNo: 'RX-LATER', name: 'Sitagliptin', dose: '1-0-0', startDate: '2026-12-02' });

    const result = await pass('2026-12-01T07:04:00Z');
    expect(result.outcomes.map((o) => [o.kind, o.status, o.reached, o.devices])).toEqual([
      ['glucometerAlert', 'sent', 2, 2],
      ['medicine', 'sent', 2, 2],
    ]);

    const phone = peer.of('alice-phone').map((r) => r.json);
    const tablet = peer.of('alice-tablet').map((r) => r.json);
    expect(phone).toHaveLength(2);
    expect(tablet).toHaveLength(2);
    const medicine = phone.find((m) => (m['data'] as { type: string }).type === 'medicine');
    expect(medicine).toEqual({
      notification: {
        title: 'Time for your medicine',
        // The meal time on the patient's clock, its zone named (the phone may be elsewhere).
        body: 'Metformin 500 mg tablet — 1 (breakfast, 08:00 GMT+1)',
        tag: 'med-RX-100001-01-2026-12-01-breakfast',
        actions: [
          { action: 'taken', title: 'Mark as Taken' },
          { action: 'later', title: 'Remind Later' },
        ],
      },
      data: {
        type: 'medicine',
        prescrNo: 'RX-100001-01',
        medicineName: 'Metformin 500 mg tablet',
        dose: '1-0-1',
        time: '08:00',
        meal: 'breakfast',
        notificationTime: '2026-12-01T07:00:00.000Z',
      },
    });
    expect(phone.find((m) => (m['data'] as { type: string }).type === 'glucometerAlert')).toEqual({
      notification: { title: 'Glucometer day', body: 'Today is a glucose check day: please check your blood glucose.', tag: 'gluco-2026-12-01' },
      data: { type: 'glucometerAlert', time: '08:00', notificationTime: '2026-12-01T07:00:00.000Z' },
    });
    // The Spanish device gets the same data, worded in Spanish.
    const spanish = tablet.find((m) => (m['data'] as { type: string }).type === 'medicine');
    expect(spanish?.['notification']).toMatchObject({
      title: 'Hora de su medicamento',
      body: 'Metformin 500 mg tablet — 1 (desayuno, 08:00 CET)',
      tag: 'med-RX-100001-01-2026-12-01-breakfast',
    });
    expect((spanish?.['notification'] as { actions?: { title: string }[] }).actions?.map((a) => a.title)).toEqual(['Marcar como tomado', 'Recordar más tarde']);
    expect(spanish?.['data']).toEqual(medicine?.['data']);

    const patient = await patientRepo.byId(h.db, fx.patientA.id);
    for (const r of peer.requests) {
      expect(isPushMessage(r.json), JSON.stringify(isPushMessage.errors)).toBe(true);
      for (const secret of [patient?.name, patient?.hospNo, patient?.id, fx.hospitalA.name, 'Alice', 'Madrid']) expect(r.text).not.toContain(secret);
      // Only ciphertext on the wire.
      expect(r.body.includes(Buffer.from('Metformin'))).toBe(false);
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      expect(r.headers['ttl']).toBe('7200');
      expect(r.headers['urgency']).toBe('high');
      expect(verifyVapid(r.headers, { publicKey: vapid.publicKey, audience: peer.origin })).toMatchObject({ sub: 'mailto:ward7@hospital.example' });
    }

    const rows = await h.db.select().from(reminderJobs).where(eq(reminderJobs.patientId, fx.patientA.id));
    expect(rows.map((r) => [r.dedupeKey, r.status, r.attempts]).sort()).toEqual([
      ['gluco:2026-12-01', 'sent', 1],
      ['med:RX-100001-01:2026-12-01:breakfast', 'sent', 1],
    ]);

    // Later passes in the same window send nothing again; lunch has nothing due; dinner has two.
    expect((await pass('2026-12-01T07:05:00Z')).outcomes).toEqual([]);
    expect((await pass('2026-12-01T07:29:00Z')).outcomes).toEqual([]);
    expect((await pass('2026-12-01T12:31:00Z')).outcomes).toEqual([]);
    expect(peer.requests).toHaveLength(4);
    const dinner = await pass('2026-12-01T19:00:00Z');
    expect(dinner.outcomes.map((o) => ('data' in o.payload && o.payload.data.type === 'medicine' ? o.payload.data.prescrNo : '')).sort()).toEqual([
      'RX-100001-01',
      'RX-NIGHT',
    ]);
    expect(peer.requests).toHaveLength(8);
  });

  it('forgets a subscription the push service reports gone (410), and still reaches the other devices', async () => {
    await subscribe(fx.patientA2, 'aaron-old-phone');
    await subscribe(fx.patientA2, 'aaron-new-phone');
    await prescribe(fx.patientA2.id, { prescrNo: 'RX-A2', name: 'Gliclazide 80 mg', dose: '1-0-0' });
    peer.setStatus('aaron-old-phone', 410);

    const result = await pass('2026-12-02T07:00:00Z'); // 08:00 in Madrid
    expect(result.outcomes.map((o) => [o.status, o.reached, o.devices])).toEqual([['sent', 1, 2]]);
    expect(result.removedDevices).toBe(1);
    const left = await h.db.select().from(pushTokens).where(eq(pushTokens.patientId, fx.patientA2.id));
    expect(left.map((t) => JSON.parse(t.token) as { endpoint: string }).map((s) => s.endpoint)).toEqual([`${peer.origin}/push/aaron-new-phone`]);

    // 404 is "gone" too; with no device reached the reminder is recorded as failed.
    peer.setStatus('aaron-new-phone', 404);
    const lunch = await pass('2026-12-02T12:00:00Z');
    expect(lunch.outcomes).toEqual([]); // 1-0-0: nothing at lunch
    const next = await pass('2026-12-03T07:00:00Z');
    expect(next.outcomes.map((o) => [o.status, o.reached])).toEqual([['failed', 0]]);
    expect(await h.db.select().from(pushTokens).where(eq(pushTokens.patientId, fx.patientA2.id))).toEqual([]);
    // Without a device the patient is no longer planned at all.
    expect((await pass('2026-12-04T07:00:00Z')).outcomes).toEqual([]);
  });

  it('leaves alone device tokens of the other provider (FCM tokens on a Web Push server)', async () => {
    await h.db.insert(pushTokens).values({ patientId: fx.patientA2.id, provider: 'fcm', token: 'fcm-registration-token-kept' });
    await prescribe(fx.patientA2.id, { prescrNo: 'RX-FCM', name: 'Gliclazide', dose: '1-1-1' });
    expect((await pass('2026-12-09T07:00:00Z')).outcomes).toEqual([]);
    expect(await h.db.select().from(reminderJobs).where(eq(reminderJobs.dedupeKey, 'med:RX-FCM:2026-12-09:breakfast'))).toEqual([]);
    expect(await h.db.select().from(pushTokens).where(eq(pushTokens.patientId, fx.patientA2.id))).toHaveLength(1);
  });

  it('retries a reminder that reached no device because the push service was down, within the window only', async () => {
    await subscribe(fx.patientB, 'bob-phone');
    await prescribe(fx.patientB.id, { prescrNo: 'RX-B', name: 'Metformin', dose: '1-0-0' });
    peer.setStatus('bob-phone', 503);
    const first = await pass('2026-12-05T07:00:00Z');
    expect(first.outcomes.map((o) => o.status)).toEqual(['retry']);
    peer.setStatus('bob-phone', 201);
    const second = await pass('2026-12-05T07:01:00Z');
    expect(second.outcomes.map((o) => [o.status, o.reached])).toEqual([['sent', 1]]);
    const [row] = await h.db.select().from(reminderJobs).where(eq(reminderJobs.dedupeKey, 'med:RX-B:2026-12-05:breakfast'));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(peer.of('bob-phone').filter((r) => r.headers['ttl'])).toHaveLength(2); // one refused, one delivered
  });

  it('after a long outage sends nothing stale: pending reminders past the catch-up window expire', async () => {
    await subscribe(fx.patientB, 'bob-phone-2');
    // The server planned breakfast and a remind-later, then went down before sending them.
    const planned = await pass('2026-12-06T07:00:00Z', { dryRun: true });
    const payload = planned.outcomes[0]?.payload;
    if (!payload) throw new Error('breakfast should be due');
    await h.db.insert(reminderJobs).values([
      { patientId: fx.patientB.id, kind: 'medicine', dedupeKey: 'med:RX-B:2026-12-06:breakfast', dueAt: new Date('2026-12-06T07:00:00Z'), payload },
      { patientId: fx.patientB.id, kind: 'medicine', dedupeKey: 'snooze:outage', dueAt: new Date('2026-12-06T07:15:00Z'), payload },
    ]);
    // Back three hours later.
    const result = await pass('2026-12-06T10:00:00Z');
    expect(result.outcomes).toEqual([]);
    expect(result.expired).toBe(2);
    expect(peer.of('bob-phone-2')).toEqual([]);
    const rows = await h.db.select().from(reminderJobs).where(eq(reminderJobs.patientId, fx.patientB.id));
    expect(
      rows
        .filter((r) => r.dedupeKey.includes('2026-12-06') || r.dedupeKey === 'snooze:outage')
        .map((r) => [r.dedupeKey, r.status])
        .sort(),
    ).toEqual([
      ['med:RX-B:2026-12-06:breakfast', 'expired'],
      ['snooze:outage', 'expired'],
    ]);
  });

  it('a dry run plans and reports, and sends and writes nothing', async () => {
    await subscribe(fx.patientB, 'bob-phone-3');
    const before = await h.db.select().from(reminderJobs);
    const result = await pass('2026-12-07T07:10:00Z', { dryRun: true });
    expect(result.outcomes.map((o) => [o.hospNo, o.status, o.devices, o.dueAt.toISOString()])).toEqual([
      [fx.patientB.hospNo, 'due', 1, '2026-12-07T07:00:00.000Z'],
    ]);
    expect(await h.db.select().from(reminderJobs)).toEqual(before);
    expect(peer.requests).toEqual([]);
    // Once sent, a dry run no longer lists it.
    await pass('2026-12-07T07:10:00Z');
    expect((await pass('2026-12-07T07:11:00Z', { dryRun: true })).outcomes).toEqual([]);
  });
});

describe('several instances', () => {
  it('two schedulers passing at the same instant send each reminder exactly once', async () => {
    // Twelve patients with three medicines each at breakfast and a glucometer day: 48 reminders,
    // more than one claim batch, to two devices each.
    const many: { id: string; device: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const p = await patientRepo.insert(h.db, {
        hospNo: `MI-${i}`,
        hospitalId: fx.hospitalA.id,
        name: `Many ${i}`,
        timeZone: i % 2 ? 'Asia/Kolkata' : 'UTC',
        glucometerAlerts: ['2026-12-08'],
      });
      for (const n of [1, 2, 3]) await prescribe(p.id, { prescrNo: `MI-${i}-${n}`, name: `Medicine ${n}`, dose: '1-0-1' });
      for (const d of ['a', 'b']) {
        const device = `many-${i}-${d}`;
        await h.db.insert(pushTokens).values({ patientId: p.id, provider: 'webpush', token: JSON.stringify(peer.subscribe(device)) });
        many.push({ id: p.id, device });
      }
    }
    // UTC patients have breakfast at 08:00Z, Kolkata ones at 02:30Z: two instants, both in one run.
    peer.delayMs = 5;
    // A second instance: with PostgreSQL its own connection pool on the same database.
    const other = h.databaseUrl ? await openDatabase({ databaseUrl: h.databaseUrl, poolMax: 4 }) : undefined;
    try {
      for (const at of ['2026-12-08T02:30:00Z', '2026-12-08T08:00:00Z']) {
        const [a, b] = await Promise.all([pass(at), pass(at, { db: other?.db ?? h.db })]);
        const ids = [...a.outcomes, ...b.outcomes].map((o) => o.jobId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toHaveLength(24);
        expect([...a.outcomes, ...b.outcomes].every((o) => o.status === 'sent' && o.reached === 2)).toBe(true);
      }
    } finally {
      peer.delayMs = 0;
      await other?.close();
    }
    for (const { device } of many) {
      const tags = peer.of(device).map((r) => (r.json['notification'] as { tag: string }).tag);
      expect(tags.sort()).toEqual(
        ['gluco-2026-12-08', ...[1, 2, 3].map((n) => `med-${device.replace(/^many-(\d+)-.$/, 'MI-$1')}-${n}-2026-12-08-breakfast`)].sort(),
      );
    }
  });
});
