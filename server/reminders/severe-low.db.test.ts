// Severe-low alerts (issue 18) against a real database and a real push-service peer on loopback:
// the trigger queues at most one alert per patient per hour whichever path writes the reading, and a
// scheduler pass sends it to the devices of the hospital's staff who turned alerts on, and to no
// one else, decrypted here as the staff member's browser would.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushMessageSchema } from '../../schemas/push.ts';
import { openDatabase } from '../db/client.ts';
import { auditLog, glucoseReadings, hospitals, reminderJobs, staffPushSubscriptions } from '../db/schema.ts';
import { hashPassword, sha256 } from '../lib/crypto.ts';
import { createPushSender } from '../push/create-sender.ts';
import type { PushSender } from '../push/sender.ts';
import { resolvePushSettings } from '../push/settings.ts';
import { staffRepo } from '../repositories/staff.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { startPushPeer, type PushPeer } from '../testing/push-peer.ts';
import { runReminderPass } from './scheduler.ts';
import { SEVERE_LOW_AUDIT_ACTION } from './severe-low.ts';

let h: Harness;
let fx: Fixture;
let peer: PushPeer;
let sender: PushSender;
let nurse: string; // admin of hospital A
let otherAdmin: string; // admin of hospital B only
const doctorA = 'doctor-token-of-hospital-a-0001';
const revokedDoctor = 'doctor-token-revoked-000000001';
let patientA: string;
let patientA2: string;

const ajv = new Ajv({ strict: false });
ajvFormats.default(ajv);
const isPushMessage = ajv.compile(pushMessageSchema);

beforeAll(async () => {
  h = await createHarness({ PUSH_ALLOW_INSECURE_ENDPOINTS: '1' });
  fx = await seedFixture(h.db, 'UTC');
  await h.db.update(hospitals).set({ timeZone: 'Asia/Kolkata' }).where(eq(hospitals.id, fx.hospitalA.id));
  peer = await startPushPeer();
  const settings = await resolvePushSettings(h.config, h.db);
  sender = createPushSender(settings);
  const b = await staffRepo.insertAdmin(h.db, { email: 'ward-b@test.hospital', name: 'Ward B', passwordHash: await hashPassword('Admin-pass-2') });
  await staffRepo.grantHospitals(h.db, b.id, [fx.hospitalB.id]);
  const year = new Date(Date.now() + 365 * 86_400_000);
  await staffRepo.insertDoctorToken(h.db, { tokenHash: sha256(doctorA), doctorName: 'Dr Rao', hospitalIds: [fx.hospitalA.id], expiresAt: year });
  const revoked = await staffRepo.insertDoctorToken(h.db, {
    tokenHash: sha256(revokedDoctor),
    doctorName: 'Dr Gone',
    hospitalIds: [fx.hospitalA.id],
    expiresAt: year,
  });
  nurse = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  otherAdmin = await loginAdmin(h.app, 'ward-b@test.hospital', 'Admin-pass-2');
  patientA = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  patientA2 = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
  await alertsOn(nurse, 'nurse-phone', 'en');
  await alertsOn(doctorA, 'doctor-phone', 'es');
  await alertsOn(otherAdmin, 'ward-b-phone');
  await alertsOn(revokedDoctor, 'revoked-phone');
  await staffRepo.revokeDoctorToken(h.db, revoked.id);
});
afterAll(async () => {
  await peer.close();
  await h.close();
});
afterEach(async () => {
  await h.db.delete(reminderJobs);
  await h.db.delete(glucoseReadings);
  await h.db.delete(auditLog);
  await h.db.update(hospitals).set({ severeLowMgDl: 54 });
  peer.requests.length = 0;
});

async function alertsOn(token: string, device: string, locale?: string) {
  const res = await call(h.app, 'POST', '/api/admin/alerts/on', { token, body: { token: peer.subscribe(device), ...(locale ? { locale } : {}) } });
  expect(res.status, res.body).toBe(200);
}

let n = 0;
async function record(token: string, value: number, recordedAt = new Date(), extra: Record<string, unknown> = {}) {
  n += 1;
  const _id = `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const res = await call(h.app, 'POST', '/api/glucose/add', { token, body: { _id, type: 'Random', value, recordedAt: recordedAt.toISOString(), ...extra } });
  expect(res.status, res.body).toBe(201);
  return _id;
}

const jobs = () => h.db.select().from(reminderJobs).where(eq(reminderJobs.kind, 'severeLow'));
const pass = (now = new Date()) => runReminderPass({ db: h.db, sender }, now);

describe('a severe low queues an alert with its write', () => {
  it('below the level (54 mg/dL by default) and not at it', async () => {
    await record(patientA, 54);
    expect(await jobs()).toHaveLength(0);
    const id = await record(patientA, 53.9);
    const [job] = await jobs();
    expect(job).toMatchObject({ patientId: fx.patientA.id, dedupeKey: `severe-low:${id}`, status: 'pending' });
    expect(job?.payload).toMatchObject({ readingId: id, valueMgDl: 53.9 });
  });

  it("at the patient's hospital's own level", async () => {
    await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: nurse, body: { severeLowMgDl: 60 } }).then((r) =>
      expect(r.status, r.body).toBe(200),
    );
    await record(patientA, 58);
    expect(await jobs()).toHaveLength(1);
    const refused = await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: nurse, body: { severeLowMgDl: 90 } });
    expect(refused.status).toBe(400);
  });

  it('once per patient per hour, and for each patient on their own', async () => {
    await record(patientA, 45);
    await record(patientA, 40);
    await record(patientA2, 50);
    expect((await jobs()).map((j) => j.patientId).sort()).toEqual([fx.patientA.id, fx.patientA2.id].sort());
    // An hour after the first alert, the next low alerts again.
    await h.db.update(reminderJobs).set({ dueAt: sql`${reminderJobs.dueAt} - interval '61 minutes'`, status: 'sent' });
    await record(patientA, 42);
    expect((await jobs()).filter((j) => j.patientId === fx.patientA.id)).toHaveLength(2);
  });

  it('once, when eight writes of lows of one patient arrive at the same moment', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => record(patientA, 40 + i)));
    expect(await jobs()).toHaveLength(1);
  });

  it('when a reading is changed to a low, through the batch too, but not for a reading measured over 24 hours before', async () => {
    const id = await record(patientA, 120);
    const [row] = await h.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, id));
    const res = await call(h.app, 'POST', '/api/batch', {
      token: patientA,
      body: {
        mutations: [{ path: '/glucose/update', body: { mutationId: 'tablet-1:1', glucoseId: id, gtype: 'Random', gvalue: 47, baseVersion: row?.version } }],
      },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json, res.body).toMatchObject({ results: [{ status: 200 }] });
    expect(await jobs()).toHaveLength(1);
    await h.db.delete(reminderJobs);
    await record(patientA2, 41, new Date(Date.now() - 25 * 3_600_000));
    expect(await jobs()).toHaveLength(0);
  });
});

describe('a scheduler pass sends the alert', () => {
  it("to the devices of the patient's hospital's staff with alerts on, each in its language, audited", async () => {
    // A few minutes ago, on the minute: the trigger queues no alert for a reading measured more than
    // 24 hours before it arrives (a fixed date here stopped working a day after it was written).
    const measured = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000);
    const now = new Date(measured.getTime() + 60_000);
    // The hospital's clock is Kolkata's, UTC+5:30.
    const ist = new Date(measured.getTime() + 330 * 60_000);
    const two = (n: number) => String(n).padStart(2, '0');
    const atKolkata = `${ist.toLocaleString('en', { month: 'short', timeZone: 'UTC' })} ${ist.getUTCDate()}, ${two(ist.getUTCHours())}:${two(ist.getUTCMinutes())}`;
    await record(patientA, 45, measured);
    await h.db.update(reminderJobs).set({ dueAt: measured });
    const result = await pass(now);
    expect(result.outcomes.map((o) => [o.kind, o.status, o.reached, o.devices])).toEqual([['severeLow', 'sent', 2, 2]]);
    expect(peer.requests.map((r) => r.name).sort()).toEqual(['doctor-phone', 'nurse-phone']);
    const [english] = peer.of('nurse-phone');
    expect(isPushMessage(english?.json)).toBe(true);
    expect(english?.json).toEqual({
      notification: { title: 'Severe low: 45 mg/dL (2.5 mmol/L)', body: `Alice Able (200001), measured ${atKolkata} GMT+5:30`, tag: 'severe-low:200001' },
      data: { type: 'severeLow', hospNo: '200001', valueMgDl: 45, measuredAt: measured.toISOString(), notificationTime: now.toISOString() },
    });
    expect((peer.of('doctor-phone')[0]?.json['notification'] as { title: string }).title).toBe('Hipoglucemia grave: 45 mg/dL (2,5 mmol/L)');
    const audit = await h.db.select().from(auditLog).where(eq(auditLog.action, SEVERE_LOW_AUDIT_ACTION));
    expect(audit.map((a) => [a.actorKind, a.actorLabel, a.hospNo]).sort()).toEqual([
      ['admin', fx.adminEmail, '200001'],
      ['doctor', 'Dr Rao', '200001'],
    ]);
    // Sent once: the next pass finds nothing.
    expect((await pass(new Date(now.getTime() + 60_000))).outcomes).toEqual([]);
  });

  it('as the patient took it, and says how late a low recorded offline arrived', async () => {
    const measured = new Date(Date.now() - (3 * 60 + 5) * 60_000);
    await record(patientA2, 2.2 * 18.016, measured, { unit: 'mmol/L', enteredValue: 2.2 });
    const now = new Date();
    await pass(now);
    const body = peer.of('nurse-phone')[0]?.json['notification'] as { title: string; body: string };
    expect(body.title).toBe('Severe low: 2.2 mmol/L (40 mg/dL)');
    expect(body.body).toMatch(/^Aaron Adams \(200002\), measured .+, received 3 hr, 5 min later$/);
  });

  it('not for a reading deleted before the pass, and not to a device turned off', async () => {
    const id = await record(patientA, 44);
    const [row] = await h.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, id));
    await call(h.app, 'POST', '/api/glucose/delete', { token: patientA, body: { glucoseId: id, baseVersion: row?.version } }).then((r) =>
      expect(r.status, r.body).toBe(200),
    );
    const result = await pass();
    expect(result.outcomes.map((o) => [o.status, o.error])).toEqual([['failed', 'the reading was deleted or changed before the alert went out']]);
    expect(peer.requests).toHaveLength(0);

    const off = await call(h.app, 'POST', '/api/admin/alerts/off', { token: nurse, body: { endpoint: `${peer.origin}/push/nurse-phone` } });
    expect(off.json).toEqual({ message: 'Severe-low alerts are off for this device' });
    await record(patientA2, 43);
    await pass();
    expect(peer.requests.map((r) => r.name)).toEqual(['doctor-phone']);
    await alertsOn(nurse, 'nurse-phone', 'en');
  });

  it('once, when two instances pass at the same moment', async () => {
    await record(patientA, 45);
    await record(patientA2, 47);
    peer.delayMs = 5;
    // A second instance: with PostgreSQL its own connection pool on the same database.
    const other = h.databaseUrl ? await openDatabase({ databaseUrl: h.databaseUrl, poolMax: 4 }) : undefined;
    try {
      const now = new Date();
      const [a, b] = await Promise.all([pass(now), runReminderPass({ db: other?.db ?? h.db, sender }, now)]);
      const outcomes = [...a.outcomes, ...b.outcomes];
      expect(outcomes.map((o) => [o.hospNo, o.status, o.reached]).sort()).toEqual([
        ['200001', 'sent', 2],
        ['200002', 'sent', 2],
      ]);
    } finally {
      peer.delayMs = 0;
      await other?.close();
    }
    expect(peer.requests).toHaveLength(4);
    expect(await h.db.select().from(auditLog).where(eq(auditLog.action, SEVERE_LOW_AUDIT_ACTION))).toHaveLength(4);
  });

  it('forgets a staff device its push service reports gone', async () => {
    await alertsOn(nurse, 'nurse-old-phone');
    peer.setStatus('nurse-old-phone', 410);
    await record(patientA, 46);
    const result = await pass();
    expect(result.removedDevices).toBe(1);
    const left = await h.db.select({ token: staffPushSubscriptions.token }).from(staffPushSubscriptions);
    expect(left.some((r) => r.token.includes('nurse-old-phone'))).toBe(false);
  });

  it('refuses patients and a staff member turning off another’s device', async () => {
    const asPatient = await call(h.app, 'POST', '/api/admin/alerts/on', { token: patientA, body: { token: peer.subscribe('patient-phone') } });
    expect(asPatient.status).toBe(403);
    const before = await h.db.select().from(staffPushSubscriptions);
    const off = await call(h.app, 'POST', '/api/admin/alerts/off', { token: otherAdmin, body: { endpoint: `${peer.origin}/push/nurse-phone` } });
    expect(off.status).toBe(200);
    expect(await h.db.select().from(staffPushSubscriptions)).toHaveLength(before.length);
  });
});
