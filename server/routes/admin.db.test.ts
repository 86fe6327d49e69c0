// The staff area's endpoints: the users list of docs/requirements.md §7 and the /api/admin/* management extensions
// of docs/requirements.md §10. Real Fastify `inject`, real database, no mocks. Tests in this file share one
// database and run in order; each creates the rows it asserts on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { localDate } from '../lib/time.ts';
import { patientRepo } from '../repositories/patients.ts';
import { staffRepo } from '../repositories/staff.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let adminToken: string;
let tokenA: string;

type UserRow = { _id: string; hospNo: string; name: string; hospital: string; hospitalId: string; lastSyncAt: string | null };
type Hospital = { _id: string; name: string; timeZone: string };
type Prescription = { _id: string; prescrNo: string; name: string; dose: string; startDate: string | null; endDate: string | null; active?: boolean };
type DoctorToken = { _id: string; doctorName: string; hospitalIds: string[]; expiresAt: string; revokedAt: string | null; createdAt: string };
type AuditEntry = { _id: string; at: string; actorKind: string; actor: string; hospNo: string; action: string; ip: string | null };

const BAD_TZ = 'timeZone must be an IANA time zone such as Europe/London or Asia/Kolkata';
const DAY = 24 * 3600_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();
const dayOffset = (n: number) => localDate(new Date(Date.now() + n * DAY), 'UTC');

const get = (url: string, token = adminToken, headers: Record<string, string> = {}) => call(h.app, 'GET', url, { token, headers });
const post = (url: string, body?: unknown, token = adminToken) => call(h.app, 'POST', url, { token, ...(body !== undefined ? { body } : {}) });
const patch = (url: string, body: unknown, token = adminToken) => call(h.app, 'PATCH', url, { token, body });

async function users(query: string): Promise<{ users: UserRow[]; total: number; page: number; limit: number; pages: number }> {
  const res = await get(`/api/admin/users${query}`);
  expect(res.status).toBe(200);
  return res.json as { users: UserRow[]; total: number; page: number; limit: number; pages: number };
}

async function createPatient(body: Record<string, unknown>) {
  return post('/api/admin/patients', { hospitalId: fx.hospitalA.id, ...body });
}

async function medicinesOf(token: string, headers: Record<string, string> = {}): Promise<Prescription[]> {
  const res = await get('/api/users/medicines', token, headers);
  expect(res.status).toBe(200);
  return res.json['medicines'] as Prescription[];
}

async function adminPrescriptions(hospNo: string): Promise<Prescription[]> {
  const res = await get(`/api/admin/patients/${hospNo}/prescriptions`);
  expect(res.status).toBe(200);
  return res.json['prescriptions'] as Prescription[];
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  tokenA = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

describe('GET /api/admin/users', () => {
  it('defaults to page 1, limit 5, and lists only the hospitals the admin manages', async () => {
    const res = await get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json as { users: UserRow[] };
    expect(res.json).toMatchObject({ total: 2, page: 1, limit: 5, pages: 1 });
    // Sorted by name: Aaron Adams before Alice Able.
    expect(body.users.map((u) => u.hospNo)).toEqual([fx.patientA2.hospNo, fx.patientA.hospNo]);
    expect(body.users[1]).toMatchObject({ _id: fx.patientA.id, name: 'Alice Able', hospital: 'Test Hospital A', hospitalId: fx.hospitalA.id });
    // The fixture's login of A shows as its last sync; A2 never logged in.
    expect(typeof body.users[1]?.lastSyncAt).toBe('string');
    expect(body.users[0]?.lastSyncAt).toBeNull();
    expect(JSON.stringify(res.json)).not.toContain(fx.patientB.hospNo);
  });

  it('searches by name fragment, case-insensitively', async () => {
    expect((await users('?search=alice')).users.map((u) => u.hospNo)).toEqual([fx.patientA.hospNo]);
    expect((await users('?search=ADAMS')).users.map((u) => u.hospNo)).toEqual([fx.patientA2.hospNo]);
    expect((await users('?search=%20Able%20')).users.map((u) => u.hospNo)).toEqual([fx.patientA.hospNo]);
  });

  it("searches by hospital-number fragment and never finds another hospital's patients", async () => {
    const both = await users('?search=2000');
    expect(both.total).toBe(2);
    expect(both.users.map((u) => u.hospNo).sort()).toEqual([fx.patientA.hospNo, fx.patientA2.hospNo]);
    expect(await users('?search=0002')).toMatchObject({ total: 1, users: [{ hospNo: fx.patientA2.hospNo }] });
    expect(await users('?search=3000')).toMatchObject({ total: 0, users: [] });
    expect(await users(`?search=${fx.patientB.hospNo}`)).toMatchObject({ total: 0, users: [] });
    expect(await users('?search=Bob')).toMatchObject({ total: 0, users: [] });
    // LIKE wildcards are literal characters here.
    expect(await users('?search=%25')).toMatchObject({ total: 0, users: [] });
    expect(await users('?search=_')).toMatchObject({ total: 0, users: [] });
  });

  it('filters by a managed hospital and refuses another one', async () => {
    expect((await users(`?hospitalId=${fx.hospitalA.id}`)).total).toBe(2);
    const other = await get(`/api/admin/users?hospitalId=${fx.hospitalB.id}`);
    expect(other.status).toBe(404);
    expect(other.json['message']).toBe('Hospital not found');
  });

  it('pages through the list', async () => {
    for (let i = 1; i <= 7; i++) {
      const res = await createPatient({ hospNo: `PG-00${i}`, name: `Paging Person ${i}` });
      expect(res.status).toBe(201);
    }
    const page1 = await users('?page=1&limit=5');
    const page2 = await users('?page=2&limit=5');
    expect(page1).toMatchObject({ total: 9, page: 1, limit: 5, pages: 2 });
    expect(page2).toMatchObject({ total: 9, page: 2, limit: 5, pages: 2 });
    expect(page1.users).toHaveLength(5);
    expect(page2.users).toHaveLength(4);
    const all = [...page1.users, ...page2.users].map((u) => u.hospNo);
    expect(new Set(all).size).toBe(9);
    expect(all).toContain(fx.patientA.hospNo);
    expect(all).not.toContain(fx.patientB.hospNo);
    expect((await users('?page=3&limit=5')).users).toEqual([]);
    // Search and paging combine.
    const searched = await users('?search=paging&page=2&limit=5');
    expect(searched).toMatchObject({ total: 7, page: 2, limit: 5 });
    expect(searched.users.map((u) => u.name)).toEqual(['Paging Person 6', 'Paging Person 7']);
  });

  it.each([
    ['?limit=101', 'limit must be between 1 and 100'],
    ['?limit=0', 'limit must be between 1 and 100'],
    ['?page=0', 'page must be between 1 and 100000'],
    ['?page=-1', 'page must be between 1 and 100000'],
    ['?page=two', 'page must be a whole number'],
    [`?search=${'x'.repeat(101)}`, 'search must be at most 100 characters long'],
    ['?hospitalId=not-a-uuid', 'hospitalId must be a valid UUID'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await get(`/api/admin/users${query}`);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('accepts the largest limit', async () => {
    expect(await users('?limit=100')).toMatchObject({ total: 9, limit: 100, pages: 1 });
  });
});

describe('POST /api/admin/patients', () => {
  it('creates a patient in a managed hospital (201 {data})', async () => {
    const res = await createPatient({ hospNo: 'NEW-100', name: '  Nina New ', gender: 'female', age: 54, address: '1 High Street', timeZone: 'Asia/Kolkata' });
    expect(res.status).toBe(201);
    expect(res.json['data']).toMatchObject({
      hospNo: 'NEW-100',
      name: 'Nina New',
      gender: 'female',
      age: 54,
      address: '1 High Street',
      hospitalId: fx.hospitalA.id,
      hospital: 'Test Hospital A',
      timeZone: 'Asia/Kolkata',
      glucometerAlerts: [],
      hasPassword: false,
      mustChangePassword: false,
    });
    expect(await users('?search=NEW-100')).toMatchObject({ total: 1, users: [{ hospNo: 'NEW-100', name: 'Nina New' }] });
    const fetched = await get('/api/admin/patients/NEW-100');
    expect(fetched.status).toBe(200);
    expect(fetched.json['patient']).toMatchObject({ hospNo: 'NEW-100', timeZone: 'Asia/Kolkata' });
  });

  it('stores optional fields sent as null as null (not 0 or an empty string)', async () => {
    const res = await createPatient({ hospNo: 'NEW-NULLS', name: 'Ned Nulls', gender: null, age: null, address: null });
    expect(res.status).toBe(201);
    expect(res.json['data']).toMatchObject({ gender: null, age: null, address: null });
    const profile = await get('/api/users/', adminToken, { 'x-hosp-no': 'NEW-NULLS' });
    expect(profile.json['user']).toMatchObject({ gender: null, age: null, address: null });
  });

  it("defaults the time zone to the hospital's", async () => {
    const res = await createPatient({ hospNo: 'NEW-101', name: 'Default Zone' });
    expect(res.status).toBe(201);
    expect(res.json['data']).toMatchObject({ timeZone: 'UTC', gender: null, age: null, address: null });
  });

  it('answers 409 with a message for a hospital number already in use', async () => {
    const res = await createPatient({ hospNo: fx.patientA.hospNo, name: 'Duplicate' });
    expect(res.status).toBe(409);
    expect(res.json['message']).toBe(`A patient with hospital number ${fx.patientA.hospNo} already exists`);
    expect(await users('?search=Duplicate')).toMatchObject({ total: 0 });
  });

  it('refuses a number taken in a hospital the admin does not manage without saying that a patient has it (issue 48)', async () => {
    const res = await createPatient({ hospNo: fx.patientB.hospNo, name: 'Duplicate Elsewhere' });
    expect(res.status).toBe(409);
    expect(res.json['message']).toBe(
      `Hospital number ${fx.patientB.hospNo} cannot be used. Check the number; if it is right, ask your hospital group's administrator.`,
    );
    expect(res.body).not.toMatch(/patient|Test Hospital B|Bob/i);
    expect(await users('?search=Duplicate')).toMatchObject({ total: 0 });
  });

  it('answers 404 for a hospital the admin does not manage, and creates nothing', async () => {
    for (const hospitalId of [fx.hospitalB.id, randomUUID()]) {
      const res = await createPatient({ hospNo: 'NEW-B-1', name: 'Elsewhere', hospitalId });
      expect(res.status).toBe(404);
      expect(res.json['message']).toBe('Hospital not found');
    }
    const probe = await get('/api/glucose', adminToken, { 'x-hosp-no': 'NEW-B-1' });
    expect(probe.status).toBe(404);
  });

  it.each([
    [{ hospNo: 'NEW-TZ', name: 'Bad Zone', timeZone: 'Mars/Olympus_Mons' }, BAD_TZ],
    [{ hospNo: 'NEW-X', hospitalId: undefined, name: 'No Hospital' }, 'hospitalId is required'],
    [{ hospNo: 'NEW-X' }, 'name is required'],
    [{ name: 'No Number' }, 'hospNo is required'],
    [{ hospNo: 'has space', name: 'Bad Number' }, 'hospNo must be a hospital number (letters, digits and - / . _, up to 32 characters)'],
    [{ hospNo: 'NEW-X', name: '' }, 'name must not be empty'],
    [{ hospNo: 'NEW-X', name: 'Too Old', age: 131 }, 'age must be between 0 and 130'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await post('/api/admin/patients', { hospitalId: fx.hospitalA.id, ...body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('accepts the older field name glucometerReadingAlerts and shows the days as glucometerAlerts', async () => {
    const res = await createPatient({ hospNo: 'NEW-ALERTS', name: 'Olive Oldfield', glucometerReadingAlerts: ['monday', '2026-11-30', 'Monday'] });
    expect(res.status).toBe(201);
    expect((res.json['data'] as Record<string, unknown>)['glucometerAlerts']).toEqual(['Monday', '2026-11-30']);

    const asAdmin = await get('/api/users/', adminToken, { 'x-hosp-no': 'NEW-ALERTS' });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.json['user']).toMatchObject({ hospNum: 'NEW-ALERTS', name: 'Olive Oldfield', glucometerAlerts: ['Monday', '2026-11-30'] });
    expect(asAdmin.json['user']).not.toHaveProperty('glucometerReadingAlerts');

    // As the patient itself, once it has a password to log in with.
    const temp = await post('/api/admin/patients/NEW-ALERTS/temporary-password');
    const token = await loginPatient(h.app, 'NEW-ALERTS', String(temp.json['temporaryPassword']));
    // A temporary password's session reads nothing until the patient has chosen their own.
    const changed = await call(h.app, 'POST', '/api/auth/updatePassword', {
      token,
      body: { hospNo: 'NEW-ALERTS', currPassword: String(temp.json['temporaryPassword']), password: 'olive trees by the sea' },
    });
    expect(changed.status).toBe(200);
    const own = await get('/api/users/', token);
    expect(own.json['user']).toMatchObject({ glucometerAlerts: ['Monday', '2026-11-30'] });
  });
});

describe('PATCH /api/admin/patients/:hospNo', () => {
  it('changes the given fields only', async () => {
    await createPatient({ hospNo: 'EDIT-1', name: 'Edna Edit', age: 40, address: 'Old Road' });
    const res = await patch('/api/admin/patients/EDIT-1', { name: ' Edna Edited ', timeZone: 'Europe/London', glucometerReadingAlerts: ['friday'] });
    expect(res.status).toBe(200);
    expect(res.json['data']).toMatchObject({
      hospNo: 'EDIT-1',
      name: 'Edna Edited',
      age: 40,
      address: 'Old Road',
      timeZone: 'Europe/London',
      glucometerAlerts: ['Friday'],
    });
    const fetched = await get('/api/admin/patients/EDIT-1');
    expect(fetched.json['patient']).toMatchObject({ name: 'Edna Edited', age: 40, timeZone: 'Europe/London', glucometerAlerts: ['Friday'] });

    // A typo in the alert days is refused, never silently dropped.
    const typo = await patch('/api/admin/patients/EDIT-1', { glucometerAlerts: ['Monday', 'Funday'] });
    expect(typo.status).toBe(400);
    expect(typo.json['message']).toBe('glucometerAlerts must list weekdays (Monday to Sunday) or dates as YYYY-MM-DD; "Funday" is neither');
    expect((await get('/api/admin/patients/EDIT-1')).json['patient']).toMatchObject({ glucometerAlerts: ['Friday'] });

    // The new name wins when both are sent.
    const both = await patch('/api/admin/patients/EDIT-1', { glucometerAlerts: ['Sunday'], glucometerReadingAlerts: ['Monday'] });
    expect(both.status).toBe(200);
    expect(both.json['data']).toMatchObject({ name: 'Edna Edited', glucometerAlerts: ['Sunday'] });
  });

  it('clears optional fields sent as null (unknown age is null, not 0)', async () => {
    await createPatient({ hospNo: 'EDIT-2', name: 'Nell Null', gender: 'female', age: 61, address: 'Somewhere' });
    const res = await patch('/api/admin/patients/EDIT-2', { gender: null, age: null, address: null });
    expect(res.status).toBe(200);
    expect(res.json['data']).toMatchObject({ gender: null, age: null, address: null });
    expect((await get('/api/admin/patients/EDIT-2')).json['patient']).toMatchObject({ gender: null, age: null, address: null });
  });

  it("answers 404 for another hospital's patient and for an unknown one, changing nothing", async () => {
    for (const hospNo of [fx.patientB.hospNo, 'NOPE-1']) {
      const res = await patch(`/api/admin/patients/${hospNo}`, { name: 'Hijacked' });
      expect(res.status).toBe(404);
      expect(res.json['message']).toBe('Patient not found');
    }
    const bob = await patientRepo.byHospNo(h.db, fx.patientB.hospNo);
    expect(bob?.name).toBe('Bob Baker');
  });

  it('refuses a bad time zone, a hospital it does not manage and an empty patch', async () => {
    const tz = await patch(`/api/admin/patients/${fx.patientA2.hospNo}`, { timeZone: 'Not/AZone' });
    expect(tz.status).toBe(400);
    expect(tz.json['message']).toBe(BAD_TZ);
    const move = await patch(`/api/admin/patients/${fx.patientA2.hospNo}`, { hospitalId: fx.hospitalB.id });
    expect(move.status).toBe(404);
    expect(move.json['message']).toBe('Hospital not found');
    const empty = await patch(`/api/admin/patients/${fx.patientA2.hospNo}`, {});
    expect(empty.status).toBe(400);
    expect(typeof empty.json['message']).toBe('string');
    const after = await get(`/api/admin/patients/${fx.patientA2.hospNo}`);
    expect(after.json['patient']).toMatchObject({ hospitalId: fx.hospitalA.id, timeZone: 'UTC', name: 'Aaron Adams' });
  });
});

describe('POST /api/admin/patients/:hospNo/temporary-password', () => {
  it('sets a password the patient logs in with, flagged mustChangePassword', async () => {
    await createPatient({ hospNo: 'TEMP-1', name: 'Tina Temp' });
    const res = await post('/api/admin/patients/TEMP-1/temporary-password');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const temporaryPassword = res.json['temporaryPassword'];
    expect(typeof temporaryPassword).toBe('string');
    expect(String(temporaryPassword).length).toBeGreaterThanOrEqual(8);

    const login = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: 'TEMP-1', password: temporaryPassword } });
    expect(login.status).toBe(200);
    expect(typeof login.json['token']).toBe('string');
    expect(login.json['mustChangePassword']).toBe(true);
    // Until it is changed, that session may only change it (issue 48).
    const profile = await get('/api/users/', String(login.json['token']));
    expect(profile.status).toBe(403);
    expect(profile.json['code']).toBe('password-change-required');
    expect((await get('/api/admin/patients/TEMP-1')).json['patient']).toMatchObject({ hasPassword: true, mustChangePassword: true });
  });

  it('replaces the previous password', async () => {
    await createPatient({ hospNo: 'TEMP-2', name: 'Tom Temp' });
    const first = String((await post('/api/admin/patients/TEMP-2/temporary-password')).json['temporaryPassword']);
    const second = String((await post('/api/admin/patients/TEMP-2/temporary-password')).json['temporaryPassword']);
    expect(second).not.toBe(first);
    const old = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: 'TEMP-2', password: first } });
    expect(old.status).toBe(401);
    const ok = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: 'TEMP-2', password: second } });
    expect(ok.status).toBe(200);
  });

  it("answers 404 for another hospital's patient, whose password keeps working", async () => {
    const res = await post(`/api/admin/patients/${fx.patientB.hospNo}/temporary-password`);
    expect(res.status).toBe(404);
    expect(res.json['message']).toBe('Patient not found');
    expect(res.json['temporaryPassword']).toBeUndefined();
    const login = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: fx.patientB.hospNo, password: fx.patientB.password } });
    expect(login.status).toBe(200);
    expect(login.json['mustChangePassword']).toBe(false);
  });
});

describe('prescriptions', () => {
  const base = `/api/admin/patients/200001/prescriptions`;

  it('adds a prescription (201) that the patient sees among its medicines', async () => {
    const res = await post(base, { prescrNo: ' RX-100 ', name: 'Metformin', dose: '500 mg', startDate: dayOffset(-7) });
    expect(res.status).toBe(201);
    const rx = res.json['data'] as Prescription;
    expect(rx).toMatchObject({ prescrNo: 'RX-100', name: 'Metformin', dose: '500 mg', startDate: dayOffset(-7), endDate: null });
    expect((await medicinesOf(tokenA)).map((m) => m._id)).toContain(rx._id);
    expect((await adminPrescriptions('200001')).find((p) => p._id === rx._id)).toMatchObject({ active: true });
  });

  it('answers 409 for a prescription number the patient already has, but allows it for another patient', async () => {
    const dup = await post(base, { prescrNo: 'RX-100', name: 'Other', dose: '1 tab' });
    expect(dup.status).toBe(409);
    expect(dup.json['message']).toBe('Prescription number RX-100 already exists for this patient');
    const other = await post(`/api/admin/patients/${fx.patientA2.hospNo}/prescriptions`, { prescrNo: 'RX-100', name: 'Other', dose: '1 tab' });
    expect(other.status).toBe(201);
  });

  it.each([
    [{ prescrNo: 'RX-BAD1', name: 'Insulin', dose: '10 u', startDate: '2026-03-10', endDate: '2026-03-09' }, 'endDate must not be before startDate'],
    [{ prescrNo: 'RX-BAD2', name: 'Insulin', dose: '10 u', endDate: '2026-13-01' }, 'endDate must be a valid date (YYYY-MM-DD)'],
    [{ prescrNo: 'RX-BAD3', name: 'Insulin' }, 'dose is required'],
    [{ name: 'Insulin', dose: '10 u' }, 'prescrNo is required'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await post(base, body);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it("answers 404 for another hospital's patient", async () => {
    const res = await post(`/api/admin/patients/${fx.patientB.hospNo}/prescriptions`, { prescrNo: 'RX-B', name: 'X', dose: '1' });
    expect(res.status).toBe(404);
    expect(res.json['message']).toBe('Patient not found');
    const list = await get(`/api/admin/patients/${fx.patientB.hospNo}/prescriptions`);
    expect(list.status).toBe(404);
  });

  it('ending without a date makes today the last day (still active today, docs/requirements.md §3)', async () => {
    const rx = (await post(base, { prescrNo: 'RX-END-TODAY', name: 'Gliclazide', dose: '40 mg', startDate: dayOffset(-3) })).json['data'] as Prescription;
    const ended = await post(`${base}/${rx._id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.json['data']).toMatchObject({ _id: rx._id, endDate: dayOffset(0) });
    // docs/requirements.md §3: active medicines have no endDate or an endDate on or after today (end of day).
    expect((await medicinesOf(tokenA)).map((m) => m._id)).toContain(rx._id);
    // The app's clients send an empty JSON body with the JSON content type: accepted too.
    const again = await call(h.app, 'POST', `${base}/${rx._id}/end`, { token: adminToken, headers: { 'content-type': 'application/json' } });
    expect(again.status).toBe(200);
  });

  it("an ended prescription leaves the patient's medicines but stays in the admin list as inactive", async () => {
    const rx = (await post(base, { prescrNo: 'RX-ENDED', name: 'Acarbose', dose: '50 mg', startDate: dayOffset(-10) })).json['data'] as Prescription;
    expect((await medicinesOf(tokenA)).map((m) => m._id)).toContain(rx._id);
    const since = new Date().toISOString();

    const ended = await post(`${base}/${rx._id}/end`, { endDate: dayOffset(-1) });
    expect(ended.status).toBe(200);
    expect(ended.json['data']).toMatchObject({ _id: rx._id, endDate: dayOffset(-1) });

    expect((await medicinesOf(tokenA)).map((m) => m._id)).not.toContain(rx._id);
    // The admin reading the patient's own endpoint sees the same.
    expect((await medicinesOf(adminToken, { 'x-hosp-no': '200001' })).map((m) => m._id)).not.toContain(rx._id);
    const delta = await get(`/api/users/medicines?since=${encodeURIComponent(since)}`, tokenA);
    expect(delta.json['deleted']).toContain(rx._id);

    const listed = (await adminPrescriptions('200001')).find((p) => p._id === rx._id);
    expect(listed).toMatchObject({ prescrNo: 'RX-ENDED', endDate: dayOffset(-1), active: false });
    expect((await adminPrescriptions('200001')).find((p) => p.prescrNo === 'RX-100')).toMatchObject({ active: true });
  });

  it('edits a prescription, and reopens an ended one with endDate null', async () => {
    const rx = (await post(base, { prescrNo: 'RX-EDIT', name: 'Pioglitazone', dose: '15 mg', startDate: dayOffset(-5), endDate: dayOffset(-1) })).json[
      'data'
    ] as Prescription;
    expect((await medicinesOf(tokenA)).map((m) => m._id)).not.toContain(rx._id);
    const res = await patch(`${base}/${rx._id}`, { dose: ' 30 mg ', endDate: null });
    expect(res.status).toBe(200);
    expect(res.json['data']).toMatchObject({ _id: rx._id, prescrNo: 'RX-EDIT', dose: '30 mg', startDate: dayOffset(-5), endDate: null });
    expect((await medicinesOf(tokenA)).find((m) => m._id === rx._id)).toMatchObject({ dose: '30 mg', endDate: null });
    const bad = await patch(`${base}/${rx._id}`, { startDate: dayOffset(1), endDate: dayOffset(0) });
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toBe('endDate must not be before startDate');
  });

  it('refuses to end before the start, or an unknown prescription', async () => {
    const rx = (await post(base, { prescrNo: 'RX-FUTURE', name: 'Sitagliptin', dose: '100 mg', startDate: dayOffset(2) })).json['data'] as Prescription;
    const early = await post(`${base}/${rx._id}/end`);
    expect(early.status).toBe(400);
    expect(early.json['message']).toBe('endDate must not be before startDate');
    const unknown = await post(`${base}/${randomUUID()}/end`);
    expect(unknown.status).toBe(404);
    expect(unknown.json['message']).toBe('Prescription not found');
    // Another patient's prescription is not reachable under this patient's number.
    const a2 = (await post(`/api/admin/patients/${fx.patientA2.hospNo}/prescriptions`, { prescrNo: 'RX-A2', name: 'X', dose: '1' })).json[
      'data'
    ] as Prescription;
    const cross = await post(`${base}/${a2._id}/end`);
    expect(cross.status).toBe(404);
    expect((await adminPrescriptions(fx.patientA2.hospNo)).find((p) => p._id === a2._id)).toMatchObject({ endDate: null, active: true });
  });
});

describe('hospitals', () => {
  let created: Hospital;

  it('lists only the hospitals the admin manages', async () => {
    const res = await get('/api/admin/hospitals');
    expect(res.status).toBe(200);
    expect(res.json['hospitals']).toEqual([
      {
        _id: fx.hospitalA.id,
        name: 'Test Hospital A',
        timeZone: 'UTC',
        severeLowMgDl: 54,
        identifierSystem: `urn:uuid:${fx.hospitalA.id}`,
        urgentHighMgDl: 400,
        careContact: null,
        requireStaffMfa: false,
      },
    ]);
  });

  it("refuses a hospital's admin who asks to add a hospital (403): that is the group administrator's", async () => {
    const res = await post('/api/admin/hospitals', { name: 'Test Hospital Z' });
    expect(res.status).toBe(403);
    expect(res.json['message']).toBe("Only the hospital group's administrator can add hospitals.");
    expect(((await get('/api/admin/hospitals')).json['hospitals'] as Hospital[]).map((x) => x.name)).toEqual(['Test Hospital A']);
    expect(await staffRepo.hospitalByName(h.db, 'Test Hospital Z')).toBeUndefined();
  });

  it('creates a hospital that becomes visible to, and usable by, its creator, a group administrator', async () => {
    const { admins } = await import('../db/schema.ts');
    await h.db.update(admins).set({ groupAdmin: true });
    adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const res = await post('/api/admin/hospitals', { name: ' Test Hospital C ', timeZone: 'Asia/Kolkata' });
    expect(res.status).toBe(201);
    created = res.json['data'] as Hospital;
    expect(created).toMatchObject({ name: 'Test Hospital C', timeZone: 'Asia/Kolkata' });
    const list = await get('/api/admin/hospitals');
    expect((list.json['hospitals'] as Hospital[]).map((x) => x.name)).toEqual(['Test Hospital A', 'Test Hospital C']);

    // The same admin session may now create a patient there, who inherits its time zone.
    const p = await createPatient({ hospNo: 'C-0001', name: 'Chandra C', hospitalId: created._id });
    expect(p.status).toBe(201);
    expect(p.json['data']).toMatchObject({ hospitalId: created._id, hospital: 'Test Hospital C', timeZone: 'Asia/Kolkata' });
  });

  it('refuses a duplicate name, a bad time zone and a missing name', async () => {
    const dup = await post('/api/admin/hospitals', { name: 'Test Hospital A' });
    expect(dup.status).toBe(409);
    expect(dup.json['message']).toBe('A hospital named Test Hospital A already exists');
    // One the admin does not manage is refused without saying that it exists.
    const hidden = await post('/api/admin/hospitals', { name: 'Test Hospital B' });
    expect(hidden.status).toBe(409);
    expect(hidden.json['message']).toBe('The name Test Hospital B cannot be used. Choose another name.');
    const tz = await post('/api/admin/hospitals', { name: 'Zone Hospital', timeZone: 'Nowhere/Land' });
    expect(tz.status).toBe(400);
    expect(tz.json['message']).toBe(BAD_TZ);
    const none = await post('/api/admin/hospitals', { timeZone: 'UTC' });
    expect(none.status).toBe(400);
    expect(none.json['message']).toBe('name is required');
    expect(((await get('/api/admin/hospitals')).json['hospitals'] as Hospital[]).map((x) => x.name)).toEqual(['Test Hospital A', 'Test Hospital C']);
  });

  it('updates a managed hospital', async () => {
    const res = await patch(`/api/admin/hospitals/${created._id}`, { timeZone: 'Europe/London' });
    expect(res.status).toBe(200);
    expect(res.json['data']).toEqual({
      _id: created._id,
      name: 'Test Hospital C',
      timeZone: 'Europe/London',
      severeLowMgDl: 54,
      identifierSystem: `urn:uuid:${created._id}`,
      urgentHighMgDl: 400,
      careContact: null,
      requireStaffMfa: false,
    });
    const renamed = await patch(`/api/admin/hospitals/${created._id}`, { name: 'Test Hospital C2', severeLowMgDl: 60 });
    expect(renamed.json['data']).toMatchObject({ name: 'Test Hospital C2', timeZone: 'Europe/London', severeLowMgDl: 60 });
    const tooHigh = await patch(`/api/admin/hospitals/${created._id}`, { severeLowMgDl: 71 });
    expect(tooHigh.status).toBe(400);
  });

  it('keeps the hospital’s settings for advice and exported records, and clears them back to the defaults', async () => {
    const set = await patch(`/api/admin/hospitals/${created._id}`, {
      urgentHighMgDl: 350,
      careContact: '  the diabetes nurse on 020 7946 0000 ',
      identifierSystem: 'urn:oid:1.2.3.4',
    });
    expect(set.status).toBe(200);
    expect(set.json['data']).toMatchObject({ urgentHighMgDl: 350, careContact: 'the diabetes nurse on 020 7946 0000', identifierSystem: 'urn:oid:1.2.3.4' });
    const cleared = await patch(`/api/admin/hospitals/${created._id}`, { careContact: ' ', identifierSystem: null });
    expect(cleared.json['data']).toMatchObject({ urgentHighMgDl: 350, careContact: null, identifierSystem: `urn:uuid:${created._id}` });
    for (const [body, field] of [
      [{ urgentHighMgDl: 299 }, 'urgentHighMgDl'],
      [{ urgentHighMgDl: 501 }, 'urgentHighMgDl'],
      [{ identifierSystem: 'hospital numbers' }, 'identifierSystem'],
      [{ identifierSystem: 'urn:oid:1.2.x' }, 'identifierSystem'],
      [{ careContact: 'x'.repeat(201) }, 'careContact'],
    ] as const) {
      const bad = await patch(`/api/admin/hospitals/${created._id}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(String(bad.json['message'])).toContain(field);
    }
  });

  it('refuses to update a hospital it does not manage, a clashing name, a bad zone and an empty patch', async () => {
    const other = await patch(`/api/admin/hospitals/${fx.hospitalB.id}`, { name: 'Taken Over' });
    expect(other.status).toBe(404);
    expect(other.json['message']).toBe('Hospital not found');
    const [b] = await staffRepo.hospitalsByIds(h.db, [fx.hospitalB.id]);
    expect(b?.name).toBe('Test Hospital B');
    const clash = await patch(`/api/admin/hospitals/${created._id}`, { name: 'Test Hospital A' });
    expect(clash.status).toBe(409);
    expect(clash.json['message']).toBe('A hospital named Test Hospital A already exists');
    const hidden = await patch(`/api/admin/hospitals/${created._id}`, { name: 'Test Hospital B' });
    expect(hidden.status).toBe(409);
    expect(hidden.json['message']).toBe('The name Test Hospital B cannot be used. Choose another name.');
    const tz = await patch(`/api/admin/hospitals/${created._id}`, { timeZone: 'Bad/Zone' });
    expect(tz.status).toBe(400);
    expect(tz.json['message']).toBe(BAD_TZ);
    const empty = await patch(`/api/admin/hospitals/${created._id}`, {});
    expect(empty.status).toBe(400);
    const badId = await patch('/api/admin/hospitals/not-a-uuid', { name: 'X' });
    expect(badId.status).toBe(400);
    expect(badId.json['message']).toBe('id must be a valid UUID');
  });
});

describe('doctor tokens', () => {
  let tokenId: string;
  let secret: string;

  it('creates a token (201) that logs in as a doctor of the given hospitals', async () => {
    const expiresAt = inDays(5);
    const res = await post('/api/admin/doctor-tokens', { doctorName: ' Dr. Grey ', hospitalIds: [fx.hospitalA.id, fx.hospitalA.id], expiresAt });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    secret = String(res.json['token']);
    expect(secret.length).toBeGreaterThanOrEqual(22);
    const dto = res.json['data'] as DoctorToken;
    tokenId = dto._id;
    expect(dto).toMatchObject({ doctorName: 'Dr. Grey', hospitalIds: [fx.hospitalA.id], expiresAt, revokedAt: null });

    const verify = await post('/api/admin/verifyToken', undefined, secret);
    expect(verify.status).toBe(200);
    expect(verify.json['message']).toBe('You have successfully logged in as doctor.');
    expect(verify.json['doctor']).toMatchObject({ name: 'Dr. Grey', role: 'doctor', hospitals: [{ _id: fx.hospitalA.id }] });
  });

  it('lists the tokens of its hospitals without their secrets', async () => {
    const foreign = await staffRepo.insertDoctorToken(h.db, {
      tokenHash: sha256(randomToken()),
      doctorName: 'Dr. Elsewhere',
      hospitalIds: [fx.hospitalB.id],
      expiresAt: new Date(Date.now() + DAY),
    });
    const res = await get('/api/admin/doctor-tokens');
    expect(res.status).toBe(200);
    const tokens = res.json['tokens'] as DoctorToken[];
    expect(tokens.find((t) => t._id === tokenId)).toMatchObject({ doctorName: 'Dr. Grey', revokedAt: null });
    expect(tokens.map((t) => t._id)).not.toContain(foreign.id);
    expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain(sha256(secret));
    // Nor can it revoke the other hospital's token.
    const revoke = await post(`/api/admin/doctor-tokens/${foreign.id}/revoke`);
    expect(revoke.status).toBe(404);
    expect(revoke.json['message']).toBe('Doctor token not found');
  });

  it('lists a token that also covers another hospital with its own hospitals only, and may not revoke it (issue 48)', async () => {
    const secretBoth = randomToken();
    const both = await staffRepo.insertDoctorToken(h.db, {
      tokenHash: sha256(secretBoth),
      doctorName: 'Dr. Both',
      hospitalIds: [fx.hospitalA.id, fx.hospitalB.id],
      expiresAt: new Date(Date.now() + DAY),
    });
    const listed = ((await get('/api/admin/doctor-tokens')).json['tokens'] as DoctorToken[]).find((t) => t._id === both.id);
    expect(listed?.hospitalIds).toEqual([fx.hospitalA.id]);
    const revoke = await post(`/api/admin/doctor-tokens/${both.id}/revoke`);
    expect(revoke.status).toBe(403);
    expect(revoke.json['message']).toBe(
      'This doctor token also covers hospitals you do not manage: an admin who manages all of them, such as the one who created it, can revoke it.',
    );
    // The doctor keeps both hospitals.
    expect((await get('/api/glucose', secretBoth, { 'x-hosp-no': fx.patientB.hospNo })).status).toBe(200);
  });

  it.each([
    ['an expiry in the past', () => ({ expiresAt: inDays(-1) }), 400, 'expiresAt must be in the future'],
    ['an expiry more than 90 days ahead', () => ({ expiresAt: inDays(91) }), 400, 'expiresAt must be within 90 days'],
    ['a hospital it does not manage', () => ({ hospitalIds: [fx.hospitalB.id] }), 403, 'You can only grant access to hospitals you manage'],
    [
      'a mix of managed and unmanaged hospitals',
      () => ({ hospitalIds: [fx.hospitalA.id, fx.hospitalB.id] }),
      403,
      'You can only grant access to hospitals you manage',
    ],
    ['no hospitals', () => ({ hospitalIds: [] }), 400, 'hospitalIds must have at least 1 item(s)'],
    ['an expiry that is not a date', () => ({ expiresAt: 'next week' }), 400, 'expiresAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
  ])('refuses %s', async (_what, override, status, message) => {
    const before = ((await get('/api/admin/doctor-tokens')).json['tokens'] as DoctorToken[]).length;
    const res = await post('/api/admin/doctor-tokens', { doctorName: 'Dr. Refused', hospitalIds: [fx.hospitalA.id], expiresAt: inDays(3), ...override() });
    expect(res.status).toBe(status);
    expect(res.json['message']).toBe(message);
    expect(res.json['token']).toBeUndefined();
    expect(((await get('/api/admin/doctor-tokens')).json['tokens'] as DoctorToken[]).length).toBe(before);
  });

  it('accepts an expiry of just under 90 days', async () => {
    const res = await post('/api/admin/doctor-tokens', { doctorName: 'Dr. Long', hospitalIds: [fx.hospitalA.id], expiresAt: inDays(89.9) });
    expect(res.status).toBe(201);
  });

  it('revokes a token, which then stops working at once', async () => {
    expect((await get('/api/glucose', secret, { 'x-hosp-no': fx.patientA.hospNo })).status).toBe(200);
    const res = await post(`/api/admin/doctor-tokens/${tokenId}/revoke`);
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Doctor token revoked');

    const listed = ((await get('/api/admin/doctor-tokens')).json['tokens'] as DoctorToken[]).find((t) => t._id === tokenId);
    expect(typeof listed?.revokedAt).toBe('string');
    expect(Date.parse(listed?.revokedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const read = await get('/api/glucose', secret, { 'x-hosp-no': fx.patientA.hospNo });
    expect(read.status).toBe(401);
    expect(read.json['message']).toBe('Session Expired. Please login again.');
    const verify = await post('/api/admin/verifyToken', undefined, secret);
    expect(verify.status).toBe(401);
    expect(verify.json['message']).toBe('Invalid or expired doctor token. Contact admin.');

    // Revoking twice answers the same; an unknown id is 404.
    expect((await post(`/api/admin/doctor-tokens/${tokenId}/revoke`)).status).toBe(200);
    const unknown = await post(`/api/admin/doctor-tokens/${randomUUID()}/revoke`);
    expect(unknown.status).toBe(404);
    expect(unknown.json['message']).toBe('Doctor token not found');
  });
});

describe('GET /api/admin/audit', () => {
  it('lists entries newest first', async () => {
    await get(`/api/admin/patients/${fx.patientA.hospNo}`);
    await get('/api/glucose', adminToken, { 'x-hosp-no': fx.patientA2.hospNo });
    await get(`/api/admin/patients/${fx.patientA.hospNo}/prescriptions`);
    const res = await get('/api/admin/audit');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const entries = res.json['entries'] as AuditEntry[];
    expect(entries.slice(0, 3).map((e) => [e.hospNo, e.action])).toEqual([
      [fx.patientA.hospNo, 'GET /api/admin/patients/:hospNo/prescriptions'],
      [fx.patientA2.hospNo, 'GET /api/glucose'],
      [fx.patientA.hospNo, 'GET /api/admin/patients/:hospNo'],
    ]);
    expect(entries[0]).toMatchObject({ actorKind: 'admin', actor: fx.adminEmail, ip: '127.0.0.1' });
    const times = entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('filters by hospital number', async () => {
    const res = await get(`/api/admin/audit?hospNo=${fx.patientA2.hospNo}`);
    expect(res.status).toBe(200);
    const entries = res.json['entries'] as AuditEntry[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.hospNo === fx.patientA2.hospNo)).toBe(true);
    const none = await get('/api/admin/audit?hospNo=NEW-101');
    expect(none.json['entries']).toEqual([]);
  });

  it('limits and pages with before', async () => {
    const all = (await get('/api/admin/audit')).json['entries'] as AuditEntry[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const one = (await get('/api/admin/audit?limit=1')).json['entries'] as AuditEntry[];
    expect(one.map((e) => e._id)).toEqual([all[0]?._id]);
    const older = (await get(`/api/admin/audit?before=${encodeURIComponent(all[0]?.at ?? '')}&limit=2`)).json['entries'] as AuditEntry[];
    expect(older.map((e) => e._id)).toEqual(all.slice(1, 3).map((e) => e._id));
  });

  it("never shows reads of another hospital's patients", async () => {
    const secret = randomToken();
    await staffRepo.insertDoctorToken(h.db, {
      tokenHash: sha256(secret),
      doctorName: 'Dr. B Only',
      hospitalIds: [fx.hospitalB.id],
      expiresAt: new Date(Date.now() + DAY),
    });
    const read = await get('/api/glucose', secret, { 'x-hosp-no': fx.patientB.hospNo });
    expect(read.status).toBe(200);
    const filtered = await get(`/api/admin/audit?hospNo=${fx.patientB.hospNo}`);
    expect(filtered.json['entries']).toEqual([]);
    const all = (await get('/api/admin/audit?limit=500')).json['entries'] as AuditEntry[];
    expect(all.some((e) => e.hospNo === fx.patientB.hospNo || e.actor === 'Dr. B Only')).toBe(false);
  });

  it.each([
    ['?hospNo=bad%20no', 'hospNo must be a hospital number (letters, digits and - / . _, up to 32 characters)'],
    ['?limit=501', 'limit must be between 1 and 500'],
    ['?before=yesterday', 'before must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await get(`/api/admin/audit${query}`);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });
});
