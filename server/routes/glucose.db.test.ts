import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

describe('glucose', () => {
  it('adds, lists by type, updates and deletes a reading', async () => {
    const add = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Fasting', value: 112 } });
    expect(add.status).toBe(201);
    expect(add.json['message']).toBe('Glucose reported successfully');
    const data = add.json['data'] as { _id: string; type: string; value: number; recordedAt: string };
    expect(data).toMatchObject({ type: 'Fasting', value: 112 });
    expect(Date.parse(data.recordedAt)).toBeGreaterThan(Date.now() - 60_000);

    const list = await call(h.app, 'GET', '/api/glucose', { token });
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect((list.json['fasting'] as unknown[]).length).toBe(1);
    expect(list.json['postprandial']).toEqual([]);
    expect(list.json['random']).toEqual([]);

    const upd = await call(h.app, 'POST', '/api/glucose/update', { token, body: { glucoseId: data._id, gtype: 'Postprandial', gvalue: 181 } });
    expect(upd.status).toBe(200);
    expect(upd.json['data']).toMatchObject({ type: 'Postprandial', value: 181 });
    const after = await call(h.app, 'GET', '/api/glucose', { token });
    expect(after.json['fasting']).toEqual([]);
    expect((after.json['postprandial'] as { _id: string }[])[0]?._id).toBe(data._id);

    const del = await call(h.app, 'POST', '/api/glucose/delete', { token, body: { glucoseId: data._id } });
    expect(del.status).toBe(200);
    expect(typeof del.json['message']).toBe('string');
    // Deleting again is safe and answers the same.
    const again = await call(h.app, 'POST', '/api/glucose/delete', { token, body: { glucoseId: data._id } });
    expect(again.status).toBe(200);
    const gone = await call(h.app, 'GET', '/api/glucose', { token });
    expect(gone.json['postprandial']).toEqual([]);
  });

  it('replaying an add with the same _id returns the stored record and creates nothing', async () => {
    const _id = randomUUID();
    const first = await call(h.app, 'POST', '/api/glucose/add', { token, body: { _id, type: 'Random', value: 140, recordedAt: '2026-01-05T10:00:00.000Z' } });
    const second = await call(h.app, 'POST', '/api/glucose/add', { token, body: { _id, type: 'Random', value: 145 } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.json['data']).toEqual(first.json['data']);
    const list = await call(h.app, 'GET', '/api/glucose', { token });
    expect((list.json['random'] as { _id: string }[]).filter((r) => r._id === _id)).toHaveLength(1);
  });

  it('keeps the device time of an offline reading but refuses one from the future', async () => {
    const past = new Date(Date.now() - 3 * 3600_000).toISOString();
    const ok = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Fasting', value: 95, recordedAt: past } });
    expect((ok.json['data'] as { recordedAt: string }).recordedAt).toBe(past);
    const skew = new Date(Date.now() + 2 * 60_000).toISOString();
    expect((await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Fasting', value: 95, recordedAt: skew } })).status).toBe(201);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const bad = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Fasting', value: 95, recordedAt: future } });
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toBe('recordedAt cannot be in the future: check the date and time of the device');
  });

  it.each([
    [{ type: 'Fasting', value: 19 }, 'value must be between 20 and 600 mg/dL'],
    [{ type: 'Fasting', value: 601 }, 'value must be between 20 and 600 mg/dL'],
    [{ type: 'fasting', value: 100 }, 'type must be one of: Fasting, Postprandial, Random'],
    [{ type: 'Bedtime', value: 100 }, 'type must be one of: Fasting, Postprandial, Random'],
    [{ value: 100 }, 'type is required'],
    [{ type: 'Random' }, 'value is required'],
    [{ type: 'Random', value: 'high' }, 'value must be a number'],
    [{ type: 'Random', value: 100, _id: 'not-a-uuid' }, '_id must be a valid UUID'],
    [{ type: 'Random', value: 100, recordedAt: 'yesterday' }, 'recordedAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [[], 'The request body must be a JSON object'],
  ])('rejects %j with a message naming the field', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/glucose/add', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('validates updates the same way and answers 404 for an unknown reading', async () => {
    const bad = await call(h.app, 'POST', '/api/glucose/update', { token, body: { glucoseId: randomUUID(), gtype: 'Fasting', gvalue: 700 } });
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toBe('gvalue must be between 20 and 600 mg/dL');
    const missing = await call(h.app, 'POST', '/api/glucose/update', { token, body: { glucoseId: randomUUID(), gtype: 'Fasting', gvalue: 100 } });
    expect(missing.status).toBe(404);
    expect(missing.json['message']).toBe('Glucose reading not found');
    const del = await call(h.app, 'POST', '/api/glucose/delete', { token, body: { glucoseId: randomUUID() } });
    expect(del.status).toBe(404);
  });

  it('answers ?since= with only the changes and the deleted ids', async () => {
    const a = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 150 } });
    const idA = (a.json['data'] as { _id: string })._id;
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const b = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 160 } });
    const idB = (b.json['data'] as { _id: string })._id;
    await call(h.app, 'POST', '/api/glucose/delete', { token, body: { glucoseId: idA } });

    const delta = await call(h.app, 'GET', `/api/glucose?since=${encodeURIComponent(since)}`, { token });
    expect(delta.status).toBe(200);
    expect((delta.json['random'] as { _id: string }[]).map((r) => r._id)).toEqual([idB]);
    expect(delta.json['deleted']).toEqual([idA]);
    const full = await call(h.app, 'GET', '/api/glucose', { token });
    expect(full.json['deleted']).toBeUndefined();

    const badSince = await call(h.app, 'GET', '/api/glucose?since=last-week', { token });
    expect(badSince.status).toBe(400);
    expect(String(badSince.json['message'])).toMatch(/^since must be a valid ISO date/);
  });

  it('keeps the value as typed beside the mg/dL, and refuses one that does not match (issue 16)', async () => {
    const add = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 180.2, unit: 'mmol/L', enteredValue: 10 } });
    expect(add.status).toBe(201);
    const data = add.json['data'] as { _id: string };
    expect(add.json['data']).toMatchObject({ value: 180.2, unit: 'mmol/L', enteredValue: 10 });
    // The list (built by the database) carries them as the add's answer (built from the row) does.
    const listed = ((await call(h.app, 'GET', '/api/glucose', { token })).json['random'] as { _id: string }[]).find((r) => r._id === data._id);
    expect(listed).toMatchObject({ value: 180.2, unit: 'mmol/L', enteredValue: 10 });

    for (const body of [
      { type: 'Random', value: 180, unit: 'mmol/L', enteredValue: 10 },
      { type: 'Random', value: 126, unit: 'mg/dL' },
      { type: 'Random', value: 126, enteredValue: 126 },
    ]) {
      const bad = await call(h.app, 'POST', '/api/glucose/add', { token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json['message']).toMatch(/as entered|enteredValue|unit/);
    }
    const wrongUnit = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 126, unit: 'mg', enteredValue: 126 } });
    expect(wrongUnit.status).toBe(400);

    // A change with its typed value keeps it; one without (an older client) clears it.
    const upd = await call(h.app, 'POST', '/api/glucose/update', {
      token,
      body: { glucoseId: data._id, gtype: 'Random', gvalue: 126, unit: 'mg/dL', enteredValue: 126 },
    });
    expect(upd.json['data']).toMatchObject({ value: 126, unit: 'mg/dL', enteredValue: 126 });
    const badUpd = await call(h.app, 'POST', '/api/glucose/update', {
      token,
      body: { glucoseId: data._id, gtype: 'Random', gvalue: 127, unit: 'mg/dL', enteredValue: 126 },
    });
    expect(badUpd.status).toBe(400);
    const old = await call(h.app, 'POST', '/api/glucose/update', { token, body: { glucoseId: data._id, gtype: 'Random', gvalue: 130 } });
    expect(old.json['data']).toMatchObject({ value: 130, unit: null, enteredValue: null });
  });

  it('needs a valid token', async () => {
    const res = await call(h.app, 'GET', '/api/glucose');
    expect(res.status).toBe(401);
    expect(res.json['message']).toBe('Session Expired. Please login again.');
    const forged = await call(h.app, 'GET', '/api/glucose', { token: 'x'.repeat(43) });
    expect(forged.status).toBe(401);
  });
});
