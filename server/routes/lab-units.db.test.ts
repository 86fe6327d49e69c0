// The units of the listed tests (schemas/lab-units.ts) through the real API, on every path a result
// is written by: POST /api/tests/add, /api/tests/update, and the same writes in /api/batch. A result
// stored before the rule in a unit it no longer accepts still reads, prints and exports as stored.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, writeTemp } from '../../report/testing/pdf-tools.ts';
import { labTests } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface LabTestJson {
  _id: string;
  name: string;
  value: number;
  unit: string | null;
  recordedAt: string;
  version: number;
}
interface Result {
  status: number;
  body: Record<string, unknown>;
}

let h: Harness;
let fx: Fixture;
let token: string;
let seq = 0;
const mid = () => `lab-units-device:${++seq}`;
const recordedAt = '2026-03-05T09:00:00.000Z';

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const post = (path: string, body: Record<string, unknown>) => call(h.app, 'POST', `/api/${path}`, { token, body });
const stored = async () => (await call(h.app, 'GET', '/api/tests', { token })).json['tests'] as LabTestJson[];

/** Made-up units and spellings of HbA1c 75, each refused with the words a person can act on. */
const HBA1C_75: [Record<string, unknown>, string][] = [
  [{ name: 'HbA1c', unit: 'pct' }, 'The unit of HbA1c must be % or mmol/mol, not "pct"'],
  [{ name: 'HbA1c', unit: '%%' }, 'The unit of HbA1c must be % or mmol/mol, not "%%"'],
  [{ name: 'hba1c', unit: 'PCT ' }, 'The unit of HbA1c must be % or mmol/mol, not "PCT"'],
  [{ name: 'HbA1c', unit: 'percent' }, 'The unit of HbA1c must be % or mmol/mol, not "percent"'],
  [{ name: 'HbA1c', unit: '% ' }, 'HbA1c must be between 3 and 20 %'],
  [{ name: 'HbA1c', unit: '％' }, 'HbA1c must be between 3 and 20 %'],
  [{ name: 'HbA1c', unit: '%\u200b' }, 'HbA1c must be between 3 and 20 %'],
  [{ name: 'HbA1c' }, 'HbA1c must be between 3 and 20 %'],
  [{ name: 'A1c', unit: 'pct' }, 'The unit of HbA1c must be % or mmol/mol, not "pct"'],
  [{ name: 'ＨｂＡ１ｃ', unit: '%' }, 'HbA1c must be between 3 and 20 %'],
];

describe('POST /api/tests/add', () => {
  it('refuses HbA1c 75 in a made-up unit, or in %, however it is spelled, and stores none of them', async () => {
    for (const [fields, message] of HBA1C_75) {
      const res = await post('tests/add', { ...fields, value: 75, recordedAt });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.json['message']).toBe(message);
      // With a mutation id (the device's add, tried in one statement first) the answer is the same.
      const again = await post('tests/add', { _id: randomUUID(), ...fields, value: 75, recordedAt, mutationId: mid() });
      expect([again.status, again.json['message']]).toEqual([400, message]);
    }
    expect((await stored()).filter((t) => t.value === 75)).toEqual([]);
  });

  it('stores a listed test’s unit in the table’s spelling, and a test by name in any unit', async () => {
    for (const [body, unit] of [
      [{ name: 'Fasting plasma glucose', value: 100, unit: 'mg/dl' }, 'mg/dL'],
      [{ name: 'Creatinine', value: 80, unit: 'umol/L' }, 'µmol/L'],
      [{ name: 'eGFR', value: 75, unit: 'mL/min/1.73 m²' }, 'mL/min/1.73m2'],
      [{ name: 'HbA1c', value: 75, unit: ' MMOL/MOL' }, 'mmol/mol'],
      [{ name: 'HbA1c', value: 7.1, unit: '％' }, '%'],
      [{ name: 'Vitamin D', value: 31.5, unit: 'pct' }, 'pct'],
    ] as const) {
      const res = await post('tests/add', { ...body, recordedAt });
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect((res.json['data'] as LabTestJson).unit).toBe(unit);
    }
  });

  it('names the units of each test it refuses', async () => {
    for (const [body, message] of [
      [{ name: 'Potassium', value: 4.2, unit: 'mEq/L' }, 'The unit of Potassium must be mmol/L, not "mEq/L"'],
      [{ name: 'total cholesterol', value: 5.2, unit: 'mmol' }, 'The unit of Total cholesterol must be mg/dL or mmol/L, not "mmol"'],
    ] as const) {
      const res = await post('tests/add', { ...body, recordedAt });
      expect([res.status, res.json['message']]).toEqual([400, message]);
    }
  });
});

describe('POST /api/tests/update', () => {
  it('refuses a made-up unit and keeps the result as it was', async () => {
    const add = await post('tests/add', { name: 'HbA1c', value: 7.1, recordedAt });
    const { _id: testId, version } = add.json['data'] as LabTestJson;
    for (const [change, message] of [
      [{ value: 75, unit: 'pct' }, 'The unit of HbA1c must be % or mmol/mol, not "pct"'],
      [{ value: 7.1, unit: '%%' }, 'The unit of HbA1c must be % or mmol/mol, not "%%"'],
      [{ value: 75, unit: '％' }, 'HbA1c must be between 3 and 20 %'],
      [{ value: 75 }, 'HbA1c must be between 3 and 20 %'],
    ] as const) {
      const res = await post('tests/update', { testId, name: 'HbA1c', recordedAt, baseVersion: version, mutationId: mid(), ...change });
      expect([res.status, res.json['message']], JSON.stringify(change)).toEqual([400, message]);
    }
    expect((await stored()).find((t) => t._id === testId)).toMatchObject({ value: 7.1, unit: '%', version });
    const ok = await post('tests/update', { testId, name: 'HbA1c', value: 58, unit: 'mmol/mol', recordedAt, baseVersion: version });
    expect(ok.status).toBe(200);
    expect(ok.json['data']).toMatchObject({ value: 58, unit: 'mmol/mol' });
  });
});

describe('POST /api/batch', () => {
  it('refuses the made-up unit of an add or an update as their own routes do, ending the batch there', async () => {
    const keep = randomUUID();
    const add = await post('tests/add', { name: 'HbA1c', value: 6.9, recordedAt });
    const { _id: testId, version } = add.json['data'] as LabTestJson;
    const refusedAdd = randomUUID();
    const res = await post('batch', {
      mutations: [
        { path: '/tests/add', body: { _id: keep, name: 'HbA1c', value: 7.4, unit: '%', recordedAt, mutationId: mid() } },
        { path: '/tests/add', body: { _id: refusedAdd, name: 'HbA1c', value: 75, unit: 'pct', recordedAt, mutationId: mid() } },
        { path: '/tests/update', body: { testId, name: 'HbA1c', value: 75, unit: 'pct', recordedAt, baseVersion: version, mutationId: mid() } },
      ],
    });
    expect(res.status).toBe(200);
    const results = res.json['results'] as Result[];
    expect(results.map((r) => r.status)).toEqual([201, 400]);
    expect(results[1]?.body).toEqual({ message: 'The unit of HbA1c must be % or mmol/mol, not "pct"' });
    const update = await post('batch', {
      mutations: [{ path: '/tests/update', body: { testId, name: 'HbA1c', value: 75, unit: '%%', recordedAt, baseVersion: version, mutationId: mid() } }],
    });
    expect(update.json['results']).toEqual([{ status: 400, body: { message: 'The unit of HbA1c must be % or mmol/mol, not "%%"' } }]);
    const after = await stored();
    expect(after.find((t) => t._id === keep)).toMatchObject({ value: 7.4, unit: '%' });
    expect(after.find((t) => t._id === refusedAdd)).toBeUndefined();
    expect(after.find((t) => t._id === testId)).toMatchObject({ value: 6.9, unit: '%', version });
  });
});

describe('a result stored in a unit its test no longer accepts', () => {
  const legacyId = randomUUID();
  const legacyMutation = 'lab-units-old-device:1';

  beforeAll(async () => {
    // As an earlier version stored it, bypassing today's check.
    await h.db
      .insert(labTests)
      .values({ id: legacyId, patientId: fx.patientA.id, name: 'HbA1c', value: 7.2, unit: 'pct', recordedAt: new Date('2026-03-06T09:00:00Z') });
  });

  it('is listed as stored, to the patient and to staff', async () => {
    expect((await stored()).find((t) => t._id === legacyId)).toMatchObject({ name: 'HbA1c', value: 7.2, unit: 'pct' });
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const staff = await call(h.app, 'GET', '/api/tests', { token: admin, headers: { 'x-hosp-no': fx.patientA.hospNo } });
    expect((staff.json['tests'] as LabTestJson[]).find((t) => t._id === legacyId)).toMatchObject({ value: 7.2, unit: 'pct' });
  });

  it('prints in the PDF and exports to FHIR as stored, and the bundle still validates', async () => {
    const pdf = await h.app.inject({
      method: 'POST',
      url: '/api/users/report',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ from: '2026-03-01', to: '2026-03-14' }),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(writeTemp(new Uint8Array(pdf.rawPayload))).replace(/\s+/g, ' ')).toContain('7.2 pct');
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const fhir = await call(h.app, 'POST', '/api/admin/report/fhir', {
      token: admin,
      headers: { 'x-hosp-no': fx.patientA.hospNo },
      body: { from: '2026-03-01', to: '2026-03-14' },
    });
    expect(fhir.status).toBe(200);
    const observations = (fhir.json['entry'] as { resource: Record<string, unknown> }[]).map((e) => e.resource);
    // A unit that is not UCUM travels as text only.
    const legacy = observations.find(
      (r) => (r['code'] as { text?: string } | undefined)?.text === 'HbA1c' && (r['valueQuantity'] as { unit?: string } | undefined)?.unit === 'pct',
    );
    expect(legacy?.['valueQuantity']).toEqual({ value: 7.2, unit: 'pct' });
    const Validator = createRequire(import.meta.url)('@asymmetrik/fhir-json-schema-validator') as new () => { validate(resource: unknown): unknown[] };
    expect(new Validator().validate(fhir.json)).toEqual([]);
  }, 60_000);

  it('answers the replay of the add that stored it with the stored record, not a refusal', async () => {
    const body = { _id: legacyId, name: 'HbA1c', value: 7.2, unit: 'pct', recordedAt: '2026-03-06T09:00:00.000Z' };
    const plain = await post('tests/add', body);
    expect(plain.status).toBe(200);
    expect(plain.json['data']).toMatchObject({ _id: legacyId, value: 7.2, unit: 'pct' });
    const withMutation = await post('tests/add', { ...body, mutationId: legacyMutation });
    expect(withMutation.status).toBe(200);
    expect(withMutation.json['data']).toMatchObject({ _id: legacyId, unit: 'pct' });
    // Another patient's id is no replay: refused as before.
    const other = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const foreign = await call(h.app, 'POST', '/api/tests/add', { token: other, body });
    expect([foreign.status, foreign.json['message']]).toEqual([400, 'The unit of HbA1c must be % or mmol/mol, not "pct"']);
  });

  it('is changed only into an accepted unit', async () => {
    const current = (await stored()).find((t) => t._id === legacyId);
    const same = await post('tests/update', {
      testId: legacyId,
      name: 'HbA1c',
      value: 7.3,
      unit: 'pct',
      recordedAt: '2026-03-06T09:00:00.000Z',
      baseVersion: current?.version,
    });
    expect([same.status, same.json['message']]).toEqual([400, 'The unit of HbA1c must be % or mmol/mol, not "pct"']);
    const fixed = await post('tests/update', {
      testId: legacyId,
      name: 'HbA1c',
      value: 7.2,
      unit: '%',
      recordedAt: '2026-03-06T09:00:00.000Z',
      baseVersion: current?.version,
    });
    expect(fixed.status).toBe(200);
    expect(fixed.json['data']).toMatchObject({ value: 7.2, unit: '%' });
  });
});
