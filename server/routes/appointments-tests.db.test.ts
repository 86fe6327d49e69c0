import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface AppointmentJson {
  _id: string;
  doctor: string;
  date: string;
  notes: string;
}
interface LabTestJson {
  _id: string;
  name: string;
  value: number;
  unit: string | null;
  recordedAt: string;
}

let h: Harness;
let fx: Fixture;
let token: string;
let otherToken: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  otherToken = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
});
afterAll(() => h.close());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('appointments', () => {
  it('adds, lists, updates and deletes an appointment', async () => {
    const add = await call(h.app, 'POST', '/api/appointments/add', {
      token,
      body: { doctor: 'Dr. Rao', date: '2026-12-03T09:30:00.000Z', notes: 'Bring glucometer' },
    });
    expect(add.status).toBe(201);
    expect(add.json['message']).toBe('Appointment added successfully');
    const data = add.json['data'] as AppointmentJson;
    expect(data).toMatchObject({ doctor: 'Dr. Rao', date: '2026-12-03T09:30:00.000Z', notes: 'Bring glucometer' });
    expect(data._id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await call(h.app, 'GET', '/api/appointments', { token });
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect((list.json['appointments'] as AppointmentJson[]).map((a) => a._id)).toEqual([data._id]);

    const upd = await call(h.app, 'POST', '/api/appointments/update', {
      token,
      body: { appointmentId: data._id, doctor: 'Dr. Mehta', date: '2026-12-04T11:00:00.000Z', notes: 'Fasting sample' },
    });
    expect(upd.status).toBe(200);
    expect(upd.json['message']).toBe('Appointment updated successfully');
    expect(upd.json['data']).toMatchObject({ _id: data._id, doctor: 'Dr. Mehta', date: '2026-12-04T11:00:00.000Z', notes: 'Fasting sample' });

    const del = await call(h.app, 'POST', '/api/appointments/delete', { token, body: { appointmentId: data._id } });
    expect(del.status).toBe(200);
    expect(del.json['message']).toBe('Appointment removed successfully');
    const again = await call(h.app, 'POST', '/api/appointments/delete', { token, body: { appointmentId: data._id } });
    expect(again.status).toBe(200);
    expect(again.json['message']).toBe('Appointment removed successfully');

    const gone = await call(h.app, 'GET', '/api/appointments', { token });
    expect(gone.json['appointments']).toEqual([]);
    const updGone = await call(h.app, 'POST', '/api/appointments/update', {
      token,
      body: { appointmentId: data._id, doctor: 'Dr. X', date: '2026-12-05T10:00:00Z' },
    });
    expect(updGone.status).toBe(404);
  });

  it('notes are optional and default to empty; an update without notes keeps them', async () => {
    const add = await call(h.app, 'POST', '/api/appointments/add', { token, body: { doctor: 'Dr. Iyer', date: '2027-01-10T08:00:00Z' } });
    expect(add.status).toBe(201);
    const data = add.json['data'] as AppointmentJson;
    expect(data.notes).toBe('');
    await call(h.app, 'POST', '/api/appointments/update', {
      token,
      body: { appointmentId: data._id, doctor: 'Dr. Iyer', date: '2027-01-10T08:00:00Z', notes: 'Eye check' },
    });
    const upd = await call(h.app, 'POST', '/api/appointments/update', {
      token,
      body: { appointmentId: data._id, doctor: 'Dr. Iyer', date: '2027-01-11T08:00:00Z' },
    });
    expect(upd.status).toBe(200);
    expect((upd.json['data'] as AppointmentJson).notes).toBe('Eye check');
  });

  it('replaying an add with the same _id returns the stored record and creates nothing', async () => {
    const _id = randomUUID();
    const first = await call(h.app, 'POST', '/api/appointments/add', { token, body: { _id, doctor: 'Dr. Sen', date: '2026-12-20T10:00:00.000Z' } });
    const second = await call(h.app, 'POST', '/api/appointments/add', { token, body: { _id, doctor: 'Dr. Someone Else', date: '2026-12-21T10:00:00.000Z' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.json['message']).toBe('Appointment added successfully');
    expect(second.json['data']).toEqual(first.json['data']);
    const list = await call(h.app, 'GET', '/api/appointments', { token });
    expect((list.json['appointments'] as AppointmentJson[]).filter((a) => a._id === _id)).toHaveLength(1);
  });

  it.each([
    [{ doctor: 'Dr. Rao', date: 'next tuesday' }, 'date must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [{ doctor: 'Dr. Rao', date: '2026-02-30T10:00:00Z' }, 'date must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [{ doctor: 'Dr. Rao', date: '0001-01-01T00:00:00Z' }, 'date must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [{ doctor: 'Dr. Rao' }, 'date is required'],
    [{ date: '2026-12-03T09:30:00Z' }, 'doctor is required'],
    [{ doctor: '', date: '2026-12-03T09:30:00Z' }, 'doctor must not be empty'],
    [{ doctor: 'Dr. Rao', date: '2026-12-03T09:30:00Z', notes: 'x'.repeat(2001) }, 'notes must be at most 2000 characters long'],
    [{ doctor: 'Dr. Rao', date: '2026-12-03T09:30:00Z', _id: 'not-a-uuid' }, '_id must be a valid UUID'],
    [{ doctor: '   ', date: '2026-12-03T09:30:00Z' }, 'doctor must not be empty'],
  ])('rejects the add %j with 400', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/appointments/add', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('rejects a bad date on update and answers 404 for an unknown or foreign id', async () => {
    const add = await call(h.app, 'POST', '/api/appointments/add', { token, body: { doctor: 'Dr. Das', date: '2026-12-09T10:00:00Z' } });
    const id = (add.json['data'] as AppointmentJson)._id;
    const bad = await call(h.app, 'POST', '/api/appointments/update', { token, body: { appointmentId: id, doctor: 'Dr. Das', date: '2026-13-01T10:00:00Z' } });
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toBe('date must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)');

    const unknown = await call(h.app, 'POST', '/api/appointments/update', {
      token,
      body: { appointmentId: randomUUID(), doctor: 'Dr. Das', date: '2026-12-09T10:00:00Z' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json['message']).toBe('Appointment not found');
    const unknownDel = await call(h.app, 'POST', '/api/appointments/delete', { token, body: { appointmentId: randomUUID() } });
    expect(unknownDel.status).toBe(404);
    expect(unknownDel.json['message']).toBe('Appointment not found');

    const foreignUpd = await call(h.app, 'POST', '/api/appointments/update', {
      token: otherToken,
      body: { appointmentId: id, doctor: 'Dr. Evil', date: '2026-12-09T10:00:00Z' },
    });
    expect(foreignUpd.status).toBe(404);
    const foreignDel = await call(h.app, 'POST', '/api/appointments/delete', { token: otherToken, body: { appointmentId: id } });
    expect(foreignDel.status).toBe(404);
    const mine = await call(h.app, 'GET', '/api/appointments', { token });
    expect((mine.json['appointments'] as AppointmentJson[]).find((a) => a._id === id)?.doctor).toBe('Dr. Das');

    const missingId = await call(h.app, 'POST', '/api/appointments/delete', { token, body: {} });
    expect(missingId.status).toBe(400);
    expect(missingId.json['message']).toBe('appointmentId is required');
  });

  it('answers ?since= with only the changes and the deleted ids', async () => {
    const a = await call(h.app, 'POST', '/api/appointments/add', { token, body: { doctor: 'Dr. A', date: '2026-12-10T10:00:00Z' } });
    const idA = (a.json['data'] as AppointmentJson)._id;
    await pause(20);
    const since = new Date().toISOString();
    await pause(20);
    const b = await call(h.app, 'POST', '/api/appointments/add', { token, body: { doctor: 'Dr. B', date: '2026-12-11T10:00:00Z' } });
    const idB = (b.json['data'] as AppointmentJson)._id;
    await call(h.app, 'POST', '/api/appointments/delete', { token, body: { appointmentId: idA } });

    const delta = await call(h.app, 'GET', `/api/appointments?since=${encodeURIComponent(since)}`, { token });
    expect(delta.status).toBe(200);
    expect((delta.json['appointments'] as AppointmentJson[]).map((x) => x._id)).toEqual([idB]);
    expect(delta.json['deleted']).toEqual([idA]);
    const full = await call(h.app, 'GET', '/api/appointments', { token });
    expect(full.json['deleted']).toBeUndefined();
    const bad = await call(h.app, 'GET', '/api/appointments?since=yesterday', { token });
    expect(bad.status).toBe(400);
  });

  it('is the patient’s own write: staff can read but get 403 on add', async () => {
    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const headers = { 'x-hosp-no': fx.patientA.hospNo };
    expect((await call(h.app, 'GET', '/api/appointments', { token: adminToken, headers })).status).toBe(200);
    const add = await call(h.app, 'POST', '/api/appointments/add', { token: adminToken, headers, body: { doctor: 'Dr. Admin', date: '2026-12-03T09:30:00Z' } });
    expect(add.status).toBe(403);
  });
});

describe('lab tests', () => {
  const recordedAt = '2026-11-01T07:15:00.000Z';

  it('adds, lists, updates and deletes a lab test', async () => {
    const add = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'Fasting lipid panel', value: 182, unit: 'mg/dL', recordedAt } });
    expect(add.status).toBe(201);
    expect(add.json['message']).toBe('Lab test reported successfully');
    const data = add.json['data'] as LabTestJson;
    expect(data).toMatchObject({ name: 'Fasting lipid panel', value: 182, unit: 'mg/dL', recordedAt });

    const list = await call(h.app, 'GET', '/api/tests', { token });
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect((list.json['tests'] as LabTestJson[]).map((t) => t._id)).toContain(data._id);

    const upd = await call(h.app, 'POST', '/api/tests/update', { token, body: { testId: data._id, name: 'HbA1c', value: 7.1, recordedAt } });
    expect(upd.status).toBe(200);
    expect(upd.json['message']).toBe('Lab test updated successfully');
    expect(upd.json['data']).toMatchObject({ _id: data._id, name: 'HbA1c', value: 7.1, unit: '%' });

    const del = await call(h.app, 'POST', '/api/tests/delete', { token, body: { testId: data._id } });
    expect(del.status).toBe(200);
    expect(del.json['message']).toBe('Lab test deleted successfully');
    const gone = await call(h.app, 'GET', '/api/tests', { token });
    expect((gone.json['tests'] as LabTestJson[]).map((t) => t._id)).not.toContain(data._id);
  });

  it('takes the unit from the reference list when it is omitted', async () => {
    const add = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'HbA1c', value: 6.8, recordedAt } });
    expect(add.status).toBe(201);
    expect((add.json['data'] as LabTestJson).unit).toBe('%');
    const lower = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'hba1c', value: 6.9, recordedAt, unit: '' } });
    expect(lower.status).toBe(201);
    expect((lower.json['data'] as LabTestJson).unit).toBe('%');
    const given = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'HbA1c', value: 52, unit: 'mmol/mol', recordedAt } });
    expect((given.json['data'] as LabTestJson).unit).toBe('mmol/mol');
    const unknown = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'Some rare assay', value: 1, recordedAt } });
    expect(unknown.status).toBe(201);
    expect((unknown.json['data'] as LabTestJson).unit).toBeNull();
  });

  it('serves the reference list of tests with units', async () => {
    const res = await call(h.app, 'GET', '/api/tests/list', { token });
    expect(res.status).toBe(200);
    const tests = res.json['tests'] as { name: string; unit: string | null }[];
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.every((t) => typeof t.name === 'string' && (t.unit === null || typeof t.unit === 'string'))).toBe(true);
    expect(tests).toContainEqual({ name: 'HbA1c', unit: '%' });
  });

  it('replaying an add with the same _id returns the stored record and creates nothing', async () => {
    const _id = randomUUID();
    const first = await call(h.app, 'POST', '/api/tests/add', { token, body: { _id, name: 'HbA1c', value: 7.4, recordedAt } });
    const second = await call(h.app, 'POST', '/api/tests/add', { token, body: { _id, name: 'HbA1c', value: 9.9, recordedAt } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.json['data']).toEqual(first.json['data']);
    const list = await call(h.app, 'GET', '/api/tests', { token });
    expect((list.json['tests'] as LabTestJson[]).filter((t) => t._id === _id)).toHaveLength(1);
  });

  it.each([
    [{ name: 'HbA1c', recordedAt }, 'value is required'],
    [{ name: 'HbA1c', value: 'high', recordedAt }, 'value must be a number'],
    [{ value: 7, recordedAt }, 'name is required'],
    [{ name: 'HbA1c', value: 7 }, 'recordedAt is required'],
    [{ name: 'HbA1c', value: 7, recordedAt: 'last week' }, 'recordedAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [{ name: 'HbA1c', value: 1e10, recordedAt }, 'value must be between -1000000000 and 1000000000'],
    [{ name: '', value: 7, recordedAt }, 'name must not be empty'],
    [{ name: '   ', value: 7, recordedAt }, 'name must not be empty'],
    // A missing result must not become 0 (or 1) through type coercion.
    [{ name: 'HbA1c', value: null, recordedAt }, 'value must be a number'],
    [{ name: 'HbA1c', value: true, recordedAt }, 'value must be a number'],
    [{ name: 'HbA1c', value: ' ', recordedAt }, 'value must be a number'],
  ])('rejects the add %j with a message naming the field', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/tests/add', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('refuses a result no assay gives, in the unit it is given in (issue 16), on add and on update', async () => {
    for (const [body, message] of [
      [{ name: 'HbA1c', value: -3, recordedAt }, 'HbA1c must be between 3 and 20 %'],
      [{ name: 'HbA1c', value: 75, recordedAt }, 'HbA1c must be between 3 and 20 %'],
      [{ name: 'hba1c', value: 250, unit: 'mmol/mol', recordedAt }, 'HbA1c must be between 9 and 195 mmol/mol'],
      [{ name: 'Potassium', value: 0.4, recordedAt }, 'Potassium must be between 1.5 and 10 mmol/L'],
    ] as const) {
      const res = await call(h.app, 'POST', '/api/tests/add', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json['message']).toBe(message);
    }
    // The edges themselves are plausible; a test the table does not know is not checked (its units:
    // lab-units.db.test.ts).
    for (const body of [
      { name: 'HbA1c', value: 3, recordedAt },
      { name: 'HbA1c', value: 20, recordedAt },
      { name: 'HbA1c', value: 75, unit: 'mmol/mol', recordedAt },
      { name: 'Some rare assay', value: 123456, recordedAt },
    ]) {
      expect((await call(h.app, 'POST', '/api/tests/add', { token, body })).status, JSON.stringify(body)).toBe(201);
    }
    const add = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'HbA1c', value: 7.1, recordedAt } });
    const testId = (add.json['data'] as LabTestJson)._id;
    const update = await call(h.app, 'POST', '/api/tests/update', { token, body: { testId, name: 'HbA1c', value: 71, recordedAt } });
    expect(update.status).toBe(400);
    expect(update.json['message']).toBe('HbA1c must be between 3 and 20 %');
    const kept = await call(h.app, 'GET', '/api/tests', { token });
    expect((kept.json['tests'] as LabTestJson[]).find((t) => t._id === testId)?.value).toBe(7.1);
  });

  it('refuses a result from the future', async () => {
    const res = await call(h.app, 'POST', '/api/tests/add', {
      token,
      body: { name: 'HbA1c', value: 7, recordedAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('recordedAt cannot be in the future: check the date and time of the device');
  });

  it('answers 404 for an unknown or foreign test and 400 for a missing value on update', async () => {
    const add = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'Creatinine', value: 0.9, recordedAt } });
    const id = (add.json['data'] as LabTestJson)._id;
    const missing = await call(h.app, 'POST', '/api/tests/update', { token, body: { testId: id, name: 'Creatinine', recordedAt } });
    expect(missing.status).toBe(400);
    expect(missing.json['message']).toBe('value is required');
    const unknown = await call(h.app, 'POST', '/api/tests/update', { token, body: { testId: randomUUID(), name: 'Creatinine', value: 1, recordedAt } });
    expect(unknown.status).toBe(404);
    expect(unknown.json['message']).toBe('Lab test not found');
    const unknownDel = await call(h.app, 'POST', '/api/tests/delete', { token, body: { testId: randomUUID() } });
    expect(unknownDel.status).toBe(404);
    expect(unknownDel.json['message']).toBe('Lab test not found');
    const foreign = await call(h.app, 'POST', '/api/tests/delete', { token: otherToken, body: { testId: id } });
    expect(foreign.status).toBe(404);
  });

  it('answers ?since= with only the changes and the deleted ids', async () => {
    const a = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'TSH', value: 2.1, recordedAt } });
    const idA = (a.json['data'] as LabTestJson)._id;
    await pause(20);
    const since = new Date().toISOString();
    await pause(20);
    const b = await call(h.app, 'POST', '/api/tests/add', { token, body: { name: 'TSH', value: 2.3, recordedAt } });
    const idB = (b.json['data'] as LabTestJson)._id;
    await call(h.app, 'POST', '/api/tests/delete', { token, body: { testId: idA } });
    const delta = await call(h.app, 'GET', `/api/tests?since=${encodeURIComponent(since)}`, { token });
    expect(delta.status).toBe(200);
    expect((delta.json['tests'] as LabTestJson[]).map((t) => t._id)).toEqual([idB]);
    expect(delta.json['deleted']).toEqual([idA]);
  });
});
