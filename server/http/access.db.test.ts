// The access rules of docs/requirements.md §11: a patient token reaches only its own records whatever it sends;
// staff read a patient only through X-Hosp-No, only in their hospitals, read-only, and every such
// read is written to the audit log. Real Fastify `inject`, real database, no mocks.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, auditLog, glucoseReadings, labTests, symptoms } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let tokenA: string;
let tokenA2: string;
let adminToken: string;
let doctorToken: string;
let doctorTokenId: string;
const DOCTOR_NAME = 'Dr. Test Reader';

type Rec = { _id: string } & Record<string, unknown>;
type AuditEntry = { _id: string; at: string; actorKind: string; actor: string; hospNo: string; action: string; ip: string | null; userAgent: string | null };

const STAFF_WRITE_MSG = 'Staff accounts can only read patient records here. Use the admin area to make changes.';
const MALFORMED_MSG = 'X-Hosp-No must be a hospital number (letters, digits and - / . _, up to 32 characters)';
const FOREIGN_ID_MSG = 'This _id is already in use. Generate a new id for a new record.';

const hosp = (hospNo: string) => ({ 'x-hosp-no': hospNo });
const data = (json: Record<string, unknown>): Rec => json['data'] as Rec;
const isoDaysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000).toISOString();

async function auditRows(patientId?: string) {
  return h.db
    .select()
    .from(auditLog)
    .where(patientId ? eq(auditLog.patientId, patientId) : undefined)
    .orderBy(desc(auditLog.at));
}

async function auditCount(): Promise<number> {
  const [row] = await h.db.select({ n: count() }).from(auditLog);
  return row?.n ?? 0;
}

async function liveGlucoseCount(patientId: string): Promise<number> {
  const [row] = await h.db
    .select({ n: count() })
    .from(glucoseReadings)
    .where(and(eq(glucoseReadings.patientId, patientId), isNull(glucoseReadings.deletedAt)));
  return row?.n ?? 0;
}

async function glucoseIds(token: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await call(h.app, 'GET', '/api/glucose', { token, headers });
  expect(res.status).toBe(200);
  return (['fasting', 'postprandial', 'random'] as const).flatMap((k) => (res.json[k] as Rec[]).map((r) => r._id));
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  tokenA = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  tokenA2 = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  const created = await call(h.app, 'POST', '/api/admin/doctor-tokens', {
    token: adminToken,
    body: { doctorName: DOCTOR_NAME, hospitalIds: [fx.hospitalA.id], expiresAt: new Date(Date.now() + 3 * 24 * 3600_000).toISOString() },
  });
  if (created.status !== 201) throw new Error(`doctor token: ${created.status} ${created.body}`);
  doctorToken = String(created.json['token']);
  doctorTokenId = data(created.json)._id;
});
afterAll(() => h.close());

describe('a patient token reaches only its own records', () => {
  it('ignores X-Hosp-No from a patient on every read, and writes no audit entry', async () => {
    const mine = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA, body: { type: 'Fasting', value: 101 } })).json);
    const theirs = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA2, body: { type: 'Fasting', value: 202 } })).json);
    await call(h.app, 'POST', '/api/symptoms/add', { token: tokenA2, body: { symptom: 'Dizziness' } });
    await call(h.app, 'POST', '/api/appointments/add', { token: tokenA2, body: { doctor: 'Dr. Other', date: '2026-12-01T09:00:00.000Z' } });
    await call(h.app, 'POST', '/api/tests/add', { token: tokenA2, body: { name: 'HbA1c', value: 7.1, recordedAt: isoDaysAgo(1) } });
    const auditBefore = await auditCount();

    for (const headers of [{}, hosp(fx.patientA2.hospNo), hosp(fx.patientB.hospNo), hosp('not valid!')]) {
      const ids = await glucoseIds(tokenA, headers);
      expect(ids).toContain(mine._id);
      expect(ids).not.toContain(theirs._id);
    }

    const profile = await call(h.app, 'GET', '/api/users/', { token: tokenA, headers: hosp(fx.patientA2.hospNo) });
    expect(profile.status).toBe(200);
    expect(profile.json['user']).toMatchObject({ _id: fx.patientA.id, hospNum: fx.patientA.hospNo, name: 'Alice Able' });

    const sym = await call(h.app, 'GET', '/api/symptoms', { token: tokenA, headers: hosp(fx.patientA2.hospNo) });
    expect(sym.status).toBe(200);
    expect(sym.json['symptoms']).toEqual([]);
    const appts = await call(h.app, 'GET', '/api/appointments', { token: tokenA, headers: hosp(fx.patientA2.hospNo) });
    expect(appts.json['appointments']).toEqual([]);
    const tests = await call(h.app, 'GET', '/api/tests', { token: tokenA, headers: hosp(fx.patientA2.hospNo) });
    expect(tests.json['tests']).toEqual([]);

    expect(await auditCount()).toBe(auditBefore);
  });

  it('ignores X-Hosp-No from a patient on writes: the record lands on its own account', async () => {
    const a2Before = await liveGlucoseCount(fx.patientA2.id);
    const res = await call(h.app, 'POST', '/api/glucose/add', { token: tokenA, headers: hosp(fx.patientA2.hospNo), body: { type: 'Random', value: 133 } });
    expect(res.status).toBe(201);
    const id = data(res.json)._id;
    const [row] = await h.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, id));
    expect(row?.patientId).toBe(fx.patientA.id);
    expect(await liveGlucoseCount(fx.patientA2.id)).toBe(a2Before);
  });

  it("cannot update or delete another patient's glucose reading by id", async () => {
    const theirs = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA2, body: { type: 'Postprandial', value: 150 } })).json);

    const upd = await call(h.app, 'POST', '/api/glucose/update', { token: tokenA, body: { glucoseId: theirs._id, gtype: 'Random', gvalue: 99 } });
    expect(upd.status).toBe(404);
    expect(upd.json['message']).toBe('Glucose reading not found');
    const del = await call(h.app, 'POST', '/api/glucose/delete', { token: tokenA, body: { glucoseId: theirs._id } });
    expect(del.status).toBe(404);
    expect(del.json['message']).toBe('Glucose reading not found');
    // Naming the other patient in X-Hosp-No changes nothing.
    const viaHeader = await call(h.app, 'POST', '/api/glucose/delete', { token: tokenA, headers: hosp(fx.patientA2.hospNo), body: { glucoseId: theirs._id } });
    expect(viaHeader.status).toBe(404);

    const list = await call(h.app, 'GET', '/api/glucose', { token: tokenA2 });
    const still = (list.json['postprandial'] as Rec[]).find((r) => r._id === theirs._id);
    expect(still).toEqual(theirs);
  });

  it.each([
    ['glucose', '/api/glucose/add', { type: 'Fasting', value: 120 }, '/api/glucose', 'fasting'],
    ['symptom', '/api/symptoms/add', { symptom: 'Blurred vision' }, '/api/symptoms', 'symptoms'],
    ['appointment', '/api/appointments/add', { doctor: 'Dr. Who', date: '2026-12-24T10:00:00.000Z', notes: 'check-up' }, '/api/appointments', 'appointments'],
    ['lab test', '/api/tests/add', { name: 'Creatinine', value: 1.1, recordedAt: '2026-01-10T08:00:00.000Z' }, '/api/tests', 'tests'],
  ])('cannot add a %s with an _id already used by another patient (409, theirs unchanged)', async (_kind, addUrl, body, listUrl, key) => {
    const _id = randomUUID();
    const first = await call(h.app, 'POST', addUrl, { token: tokenA2, body: { ...body, _id } });
    expect(first.status).toBe(201);
    const theirs = data(first.json);

    const clash = await call(h.app, 'POST', addUrl, { token: tokenA, body: { ...body, _id } });
    expect(clash.status).toBe(409);
    expect(clash.json['message']).toBe(FOREIGN_ID_MSG);
    expect(clash.json['data']).toBeUndefined();

    const mine = await call(h.app, 'GET', listUrl, { token: tokenA });
    expect((mine.json[key] as Rec[]).map((r) => r._id)).not.toContain(_id);
    const stored = await call(h.app, 'GET', listUrl, { token: tokenA2 });
    expect((stored.json[key] as Rec[]).find((r) => r._id === _id)).toEqual(theirs);
  });

  it("cannot update or delete another patient's appointment", async () => {
    const theirs = data(
      (await call(h.app, 'POST', '/api/appointments/add', { token: tokenA2, body: { doctor: 'Dr. Kept', date: '2026-11-11T11:00:00.000Z', notes: 'n' } })).json,
    );
    const upd = await call(h.app, 'POST', '/api/appointments/update', {
      token: tokenA,
      body: { appointmentId: theirs._id, doctor: 'Dr. Evil', date: '2026-11-12T11:00:00.000Z' },
    });
    expect(upd.status).toBe(404);
    expect(upd.json['message']).toBe('Appointment not found');
    const del = await call(h.app, 'POST', '/api/appointments/delete', { token: tokenA, body: { appointmentId: theirs._id } });
    expect(del.status).toBe(404);
    expect(del.json['message']).toBe('Appointment not found');
    const [row] = await h.db.select().from(appointments).where(eq(appointments.id, theirs._id));
    expect(row).toMatchObject({ patientId: fx.patientA2.id, doctor: 'Dr. Kept', deletedAt: null });
  });

  it("cannot update or delete another patient's lab test", async () => {
    const theirs = data((await call(h.app, 'POST', '/api/tests/add', { token: tokenA2, body: { name: 'LDL', value: 130, recordedAt: isoDaysAgo(2) } })).json);
    const upd = await call(h.app, 'POST', '/api/tests/update', {
      token: tokenA,
      body: { testId: theirs._id, name: 'LDL', value: 1, recordedAt: isoDaysAgo(1) },
    });
    expect(upd.status).toBe(404);
    expect(upd.json['message']).toBe('Lab test not found');
    const del = await call(h.app, 'POST', '/api/tests/delete', { token: tokenA, body: { testId: theirs._id } });
    expect(del.status).toBe(404);
    expect(del.json['message']).toBe('Lab test not found');
    const [row] = await h.db.select().from(labTests).where(eq(labTests.id, theirs._id));
    expect(row).toMatchObject({ patientId: fx.patientA2.id, value: 130, deletedAt: null });
  });

  it("cannot remove another patient's symptom report, by _id or by name and day", async () => {
    const theirs = data((await call(h.app, 'POST', '/api/symptoms/add', { token: tokenA2, body: { symptom: 'Numbness' } })).json);
    const byId = await call(h.app, 'POST', '/api/symptoms/remove', {
      token: tokenA,
      body: { symptom: 'Numbness', recordedAt: String(theirs['recordedAt']), _id: theirs._id },
    });
    expect(byId.status).toBe(404);
    expect(byId.json['message']).toBe('Symptom report not found');
    const byDay = await call(h.app, 'POST', '/api/symptoms/remove', { token: tokenA, body: { symptom: 'Numbness', recordedAt: String(theirs['recordedAt']) } });
    expect(byDay.status).toBe(404);
    expect(byDay.json['message']).toBe('Symptom report not found');
    const [row] = await h.db.select().from(symptoms).where(eq(symptoms.id, theirs._id));
    expect(row).toMatchObject({ patientId: fx.patientA2.id, deletedAt: null });
  });

  it("cannot mark another patient's prescription as taken", async () => {
    const rx = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA2.hospNo}/prescriptions`, {
      token: adminToken,
      body: { prescrNo: 'A2-ONLY-1', name: 'Metformin', dose: '500 mg' },
    });
    expect(rx.status).toBe(201);
    const taken = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token: tokenA,
      body: { prescrNo: 'A2-ONLY-1', medicineName: 'Metformin', dose: '500 mg' },
    });
    expect(taken.status).toBe(404);
    expect(taken.json['message']).toBe('No medicine with prescription number A2-ONLY-1 was found');
    const meds = await call(h.app, 'GET', '/api/users/medicines', { token: tokenA, headers: hosp(fx.patientA2.hospNo) });
    expect(meds.status).toBe(200);
    expect(meds.json['medicines']).toEqual([]);
  });
});

describe('staff read a patient through X-Hosp-No', () => {
  it.each([
    ['/api/glucose', '/api/glucose', ['fasting', 'postprandial', 'random']],
    ['/api/symptoms', '/api/symptoms', ['symptoms']],
    ['/api/users/', '/api/users/', ['user']],
    ['/api/users/medicines', '/api/users/medicines', ['medicines']],
    ['/api/appointments', '/api/appointments', ['appointments']],
    ['/api/tests', '/api/tests', ['tests']],
  ])('GET %s as admin reads the patient and writes an audit entry', async (url, route, keys) => {
    const before = await auditRows(fx.patientA.id);
    const started = Date.now();
    const res = await call(h.app, 'GET', url, { token: adminToken, headers: { ...hosp(fx.patientA.hospNo), 'user-agent': 'access-test/1.0' } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const k of keys) expect(res.json[k]).toBeDefined();

    const after = await auditRows(fx.patientA.id);
    expect(after).toHaveLength(before.length + 1);
    const entry = after[0];
    expect(entry).toMatchObject({
      actorKind: 'admin',
      actorLabel: fx.adminEmail,
      patientId: fx.patientA.id,
      hospNo: fx.patientA.hospNo,
      action: `GET ${route}`,
      ip: '127.0.0.1',
      userAgent: 'access-test/1.0',
    });
    expect(entry?.at.getTime()).toBeGreaterThanOrEqual(started - 5_000);
    expect(entry?.at.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("returns the named patient's records, not the admin's nor another patient's", async () => {
    const a = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA, body: { type: 'Random', value: 177 } })).json);
    const a2 = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA2, body: { type: 'Random', value: 188 } })).json);
    const ofA = await glucoseIds(adminToken, hosp(fx.patientA.hospNo));
    expect(ofA).toContain(a._id);
    expect(ofA).not.toContain(a2._id);
    const ofA2 = await glucoseIds(adminToken, hosp(fx.patientA2.hospNo));
    expect(ofA2).toContain(a2._id);
    expect(ofA2).not.toContain(a._id);
    const profile = await call(h.app, 'GET', '/api/users/', { token: adminToken, headers: hosp(fx.patientA2.hospNo) });
    expect(profile.json['user']).toMatchObject({ _id: fx.patientA2.id, hospNum: fx.patientA2.hospNo });
  });

  it('shows the reads in GET /api/admin/audit, newest first, with who, which patient, what and where', async () => {
    await call(h.app, 'GET', '/api/tests', { token: adminToken, headers: hosp(fx.patientA2.hospNo) });
    await call(h.app, 'GET', '/api/symptoms', { token: adminToken, headers: hosp(fx.patientA2.hospNo) });
    const res = await call(h.app, 'GET', `/api/admin/audit?hospNo=${fx.patientA2.hospNo}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const entries = res.json['entries'] as AuditEntry[];
    expect(entries.slice(0, 2).map((e) => e.action)).toEqual(['GET /api/symptoms', 'GET /api/tests']);
    expect(entries[0]).toMatchObject({ actorKind: 'admin', actor: fx.adminEmail, hospNo: fx.patientA2.hospNo, ip: '127.0.0.1' });
    expect(entries.every((e) => e.hospNo === fx.patientA2.hospNo)).toBe(true);
    expect(Date.parse(entries[0]?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 400 with a message when X-Hosp-No is missing, and audits nothing', async () => {
    const before = await auditCount();
    for (const headers of [{}, hosp(''), hosp('   ')]) {
      const res = await call(h.app, 'GET', '/api/glucose', { token: adminToken, headers });
      expect(res.status).toBe(400);
      expect(res.json['message']).toBe("X-Hosp-No header is required to view a patient's records");
    }
    expect(await auditCount()).toBe(before);
  });

  it.each([['../200001'], ['2000 01'], ["200001' OR 1=1"], ['x'.repeat(33)], ['-200001']])('answers 400 for a malformed X-Hosp-No %j', async (bad) => {
    const before = await auditCount();
    const res = await call(h.app, 'GET', '/api/glucose', { token: adminToken, headers: hosp(bad) });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(MALFORMED_MSG);
    expect(await auditCount()).toBe(before);
  });

  it("answers 404 'Patient not found' for another hospital's patient exactly as for an unknown number", async () => {
    const before = await auditCount();
    const other = await call(h.app, 'GET', '/api/glucose', { token: adminToken, headers: hosp(fx.patientB.hospNo) });
    const unknown = await call(h.app, 'GET', '/api/glucose', { token: adminToken, headers: hosp('999999') });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: 'Patient not found' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe(other.body);
    for (const url of ['/api/users/', '/api/symptoms', '/api/users/medicines', '/api/appointments', '/api/tests']) {
      const res = await call(h.app, 'GET', url, { token: adminToken, headers: hosp(fx.patientB.hospNo) });
      expect(res.status).toBe(404);
      expect(res.json['message']).toBe('Patient not found');
    }
    expect(await auditCount()).toBe(before);
    expect(await auditRows(fx.patientB.id)).toEqual([]);
  });

  it.each([
    ['/api/glucose/add', { type: 'Fasting', value: 140 }],
    ['/api/symptoms/add', { symptom: 'Headache' }],
    ['/api/appointments/add', { doctor: 'Dr. Admin', date: '2026-12-01T09:00:00.000Z' }],
    ['/api/tests/add', { name: 'HbA1c', value: 6.5, recordedAt: '2026-01-02T08:00:00.000Z' }],
    ['/api/users/notificationTimings', { breakfast: '07:00', lunch: '12:00', dinner: '19:00' }],
    ['/api/users/glucometerAlerts', { day: 'Monday' }],
  ])('refuses staff writes through %s with 403 and writes nothing', async (url, body) => {
    const recordCounts = async () => {
      const rows = await Promise.all([
        h.db.select({ n: count() }).from(glucoseReadings).where(eq(glucoseReadings.patientId, fx.patientA.id)),
        h.db.select({ n: count() }).from(symptoms).where(eq(symptoms.patientId, fx.patientA.id)),
        h.db.select({ n: count() }).from(appointments).where(eq(appointments.patientId, fx.patientA.id)),
        h.db.select({ n: count() }).from(labTests).where(eq(labTests.patientId, fx.patientA.id)),
      ]);
      return rows.map((r) => r[0]?.n ?? 0);
    };
    const profileBefore = (await call(h.app, 'GET', '/api/users/', { token: tokenA })).json['user'];
    const before = await recordCounts();
    const auditBefore = await auditCount();
    const res = await call(h.app, 'POST', url, { token: adminToken, headers: hosp(fx.patientA.hospNo), body });
    expect(res.status).toBe(403);
    expect(res.json['message']).toBe(STAFF_WRITE_MSG);
    expect(await recordCounts()).toEqual(before);
    expect(await auditCount()).toBe(auditBefore);
    expect((await call(h.app, 'GET', '/api/users/', { token: tokenA })).json['user']).toEqual(profileBefore);
  });

  it("refuses a staff update or delete of the patient's reading with 403 and leaves it as it was", async () => {
    const mine = data((await call(h.app, 'POST', '/api/glucose/add', { token: tokenA, body: { type: 'Fasting', value: 97 } })).json);
    const upd = await call(h.app, 'POST', '/api/glucose/update', {
      token: adminToken,
      headers: hosp(fx.patientA.hospNo),
      body: { glucoseId: mine._id, gtype: 'Random', gvalue: 300 },
    });
    expect(upd.status).toBe(403);
    expect(upd.json['message']).toBe(STAFF_WRITE_MSG);
    const del = await call(h.app, 'POST', '/api/glucose/delete', { token: adminToken, headers: hosp(fx.patientA.hospNo), body: { glucoseId: mine._id } });
    expect(del.status).toBe(403);
    const [row] = await h.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, mine._id));
    expect(row).toMatchObject({ type: 'Fasting', valueMgDl: 97, deletedAt: null });
  });
});

describe('a doctor token', () => {
  it("reads patient A's data with X-Hosp-No, audited as the doctor", async () => {
    const before = await auditRows(fx.patientA.id);
    const res = await call(h.app, 'GET', '/api/glucose', { token: doctorToken, headers: hosp(fx.patientA.hospNo) });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const after = await auditRows(fx.patientA.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({
      actorKind: 'doctor',
      actorId: doctorTokenId,
      actorLabel: DOCTOR_NAME,
      hospNo: fx.patientA.hospNo,
      action: 'GET /api/glucose',
      ip: '127.0.0.1',
    });

    const audit = await call(h.app, 'GET', `/api/admin/audit?hospNo=${fx.patientA.hospNo}`, { token: adminToken });
    expect((audit.json['entries'] as AuditEntry[])[0]).toMatchObject({ actorKind: 'doctor', actor: DOCTOR_NAME, action: 'GET /api/glucose' });
  });

  it('is confined to its hospitals', async () => {
    const res = await call(h.app, 'GET', '/api/glucose', { token: doctorToken, headers: hosp(fx.patientB.hospNo) });
    expect(res.status).toBe(404);
    expect(res.json['message']).toBe('Patient not found');
    const missing = await call(h.app, 'GET', '/api/glucose', { token: doctorToken });
    expect(missing.status).toBe(400);
  });

  it('cannot write patient records (403) and nothing is written', async () => {
    const before = await liveGlucoseCount(fx.patientA.id);
    const res = await call(h.app, 'POST', '/api/glucose/add', { token: doctorToken, headers: hosp(fx.patientA.hospNo), body: { type: 'Fasting', value: 110 } });
    expect(res.status).toBe(403);
    expect(res.json['message']).toBe(STAFF_WRITE_MSG);
    expect(await liveGlucoseCount(fx.patientA.id)).toBe(before);
  });

  it('may list users but not use the admin management writes or the audit log', async () => {
    const users = await call(h.app, 'GET', '/api/admin/users', { token: doctorToken });
    expect(users.status).toBe(200);
    expect((users.json['users'] as { hospNo: string }[]).map((u) => u.hospNo).sort()).toEqual([fx.patientA.hospNo, fx.patientA2.hospNo]);

    const create = await call(h.app, 'POST', '/api/admin/patients', {
      token: doctorToken,
      body: { hospNo: 'DOC-1', name: 'Doctor Made', hospitalId: fx.hospitalA.id },
    });
    expect(create.status).toBe(403);
    expect(create.json['message']).toBe('Doctors have read-only access.');
    expect((await call(h.app, 'GET', '/api/admin/users?search=DOC-1', { token: adminToken })).json['total']).toBe(0);

    for (const [method, url, body] of [
      ['PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { name: 'Renamed' }],
      ['POST', `/api/admin/patients/${fx.patientA.hospNo}/temporary-password`, undefined],
      ['POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, { prescrNo: 'DOC-RX', name: 'X', dose: '1' }],
      ['POST', '/api/admin/hospitals', { name: 'Doctor Hospital' }],
      [
        'POST',
        '/api/admin/doctor-tokens',
        { doctorName: 'Another', hospitalIds: [fx.hospitalA.id], expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      ],
      ['GET', '/api/admin/audit', undefined],
      ['GET', '/api/admin/doctor-tokens', undefined],
    ] as const) {
      const res = await call(h.app, method, url, { token: doctorToken, ...(body !== undefined ? { body } : {}) });
      expect({ url, status: res.status, message: res.json['message'] }).toEqual({ url, status: 403, message: 'Doctors have read-only access.' });
    }
  });
});

describe('staff-only endpoints', () => {
  it.each([
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/audit'],
    ['GET', `/api/admin/worklist?hospitalId=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`],
    ['GET', '/api/admin/hospitals'],
    ['GET', `/api/admin/patients/200002`],
  ] as const)('refuse a patient token on %s %s with 403', async (method, url) => {
    const res = await call(h.app, method, url, { token: tokenA });
    expect(res.status).toBe(403);
    expect(res.json['message']).toBe('This is for hospital staff only.');
  });

  it('refuse a patient token creating a patient, and need a token at all', async () => {
    const res = await call(h.app, 'POST', '/api/admin/patients', { token: tokenA, body: { hospNo: 'PAT-MADE', name: 'Nope', hospitalId: fx.hospitalA.id } });
    expect(res.status).toBe(403);
    const anon = await call(h.app, 'GET', '/api/admin/users');
    expect(anon.status).toBe(401);
    expect(anon.json['message']).toBe('Session Expired. Please login again.');
  });
});

describe('headers and health', () => {
  it('marks responses with patient data Cache-Control: no-store', async () => {
    for (const url of ['/api/glucose', '/api/symptoms', '/api/users/', '/api/users/medicines', '/api/appointments', '/api/tests']) {
      const own = await call(h.app, 'GET', url, { token: tokenA });
      expect({ url, status: own.status, cc: own.headers['cache-control'] }).toEqual({ url, status: 200, cc: 'no-store' });
    }
    const add = await call(h.app, 'POST', '/api/glucose/add', { token: tokenA, body: { type: 'Random', value: 120 } });
    expect(add.headers['cache-control']).toBe('no-store');
    const users = await call(h.app, 'GET', '/api/admin/users', { token: adminToken });
    expect(users.headers['cache-control']).toBe('no-store');
    const patient = await call(h.app, 'GET', `/api/admin/patients/${fx.patientA.hospNo}`, { token: adminToken });
    expect(patient.status).toBe(200);
    expect(patient.headers['cache-control']).toBe('no-store');
  });

  it('GET /api/health reports the database in use', async () => {
    const res = await call(h.app, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', db: process.env['DATABASE_URL'] ? 'postgres' : 'pglite' });
  });
});
