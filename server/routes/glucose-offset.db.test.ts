// The recording device's UTC offset kept with a glucose reading (docs/api.md, "Units and times"):
// stored by every write path, given back by every answer and pull, copied into the report's input,
// and refused with a clear 400 outside −720…840.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportInput } from '../services/report-service.ts';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Reading {
  _id: string;
  recordedAt: string;
  utcOffsetMinutes: number | null;
  version: number;
}

let h: Harness;
let fx: Fixture;
let token: string;
let seq = 0;
const mid = () => `offset-device-1:${++seq}`;
const hoursAgo = (n: number) => new Date(Date.now() - n * 3_600_000).toISOString();

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

async function listed(id: string, since?: number): Promise<Reading | undefined> {
  const res = await call(h.app, 'GET', `/api/glucose${since === undefined ? '' : `?since=${since}`}`, { token });
  expect(res.status).toBe(200);
  return [...(res.json['fasting'] as Reading[]), ...(res.json['postprandial'] as Reading[]), ...(res.json['random'] as Reading[])].find((r) => r._id === id);
}

const update = (body: Record<string, unknown>) => call(h.app, 'POST', '/api/glucose/update', { token, body: { gtype: 'Random', gvalue: 130, ...body } });

describe('the device offset of a glucose reading', () => {
  it('round-trips through add, update, the list and a pull by version', async () => {
    const at = hoursAgo(2);
    const add = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 126, recordedAt: at, utcOffsetMinutes: 330 } });
    expect(add.status).toBe(201);
    const data = add.json['data'] as Reading;
    expect(data).toMatchObject({ recordedAt: at, utcOffsetMinutes: 330 });
    // The list is built by the database, the add's answer from the row: both carry it.
    expect(await listed(data._id)).toMatchObject({ utcOffsetMinutes: 330 });

    // An edit made in another zone, with the time moved there, sends its own offset.
    const moved = await update({ glucoseId: data._id, recordedAt: hoursAgo(1), utcOffsetMinutes: -300, baseVersion: data.version });
    expect(moved.status).toBe(200);
    expect(moved.json['data']).toMatchObject({ utcOffsetMinutes: -300 });
    expect(await listed(data._id, data.version)).toMatchObject({ utcOffsetMinutes: -300 });
  });

  it('from an older client: none is null; an edit without one keeps it while the time stays and clears it when the time moves', async () => {
    const old = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 140, recordedAt: hoursAgo(3) } });
    expect(old.status).toBe(201);
    expect(old.json['data']).toMatchObject({ utcOffsetMinutes: null });

    const at = hoursAgo(4);
    const { _id } = (await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 150, recordedAt: at, utcOffsetMinutes: 60 } })).json[
      'data'
    ] as Reading;
    expect((await update({ glucoseId: _id })).json['data']).toMatchObject({ utcOffsetMinutes: 60 });
    expect((await update({ glucoseId: _id, recordedAt: at })).json['data']).toMatchObject({ utcOffsetMinutes: 60 });
    expect((await update({ glucoseId: _id, recordedAt: hoursAgo(5) })).json['data']).toMatchObject({ utcOffsetMinutes: null });
    expect(await listed(_id)).toMatchObject({ utcOffsetMinutes: null });
  });

  it('keeps UTC itself (0) and both ends of the range', async () => {
    for (const offset of [0, -720, 840]) {
      const res = await call(h.app, 'POST', '/api/glucose/add', {
        token,
        body: { type: 'Random', value: 110, recordedAt: hoursAgo(6), utcOffsetMinutes: offset },
      });
      expect(res.status).toBe(201);
      expect(await listed((res.json['data'] as Reading)._id)).toMatchObject({ utcOffsetMinutes: offset });
    }
  });

  it('is refused outside −720…840 or when not whole minutes, with a message that says so', async () => {
    const { _id } = (await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 120 } })).json['data'] as Reading;
    for (const utcOffsetMinutes of [-721, 841, 5000]) {
      const add = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 120, utcOffsetMinutes } });
      expect(add.status, String(utcOffsetMinutes)).toBe(400);
      expect(add.json['message']).toBe('utcOffsetMinutes must be between -720 and 840 minutes east of UTC');
      const upd = await update({ glucoseId: _id, utcOffsetMinutes });
      expect(upd.status).toBe(400);
      expect(upd.json['message']).toBe('utcOffsetMinutes must be between -720 and 840 minutes east of UTC');
    }
    const fraction = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 120, utcOffsetMinutes: 330.5 } });
    expect(fraction.status).toBe(400);
    expect(fraction.json['message']).toBe('utcOffsetMinutes must be a whole number');
    const text = await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 120, utcOffsetMinutes: '+05:30' } });
    expect(text.status).toBe(400);
  });

  it('goes through a batch as through its own route (with a mutation id), and a bad one ends the batch with its 400', async () => {
    const id = randomUUID();
    const at = hoursAgo(7);
    const res = await call(h.app, 'POST', '/api/batch', {
      token,
      body: {
        mutations: [
          { path: '/glucose/add', body: { _id: id, type: 'Fasting', value: 98, recordedAt: at, utcOffsetMinutes: 120, mutationId: mid() } },
          { path: '/glucose/update', body: { glucoseId: id, gtype: 'Fasting', gvalue: 99, recordedAt: at, utcOffsetMinutes: 180, mutationId: mid() } },
          { path: '/glucose/add', body: { _id: randomUUID(), type: 'Random', value: 100, utcOffsetMinutes: 900, mutationId: mid() } },
          { path: '/glucose/add', body: { _id: randomUUID(), type: 'Random', value: 101, mutationId: mid() } },
        ],
      },
    });
    expect(res.status).toBe(200);
    const results = res.json['results'] as { status: number; body: Record<string, unknown> }[];
    expect(results.map((r) => r.status)).toEqual([201, 200, 400]);
    // The add's answer is written by the database in the same statement (insertAnswered).
    expect(results[0]?.body).toMatchObject({ data: { _id: id, utcOffsetMinutes: 120 } });
    expect(results[1]?.body).toMatchObject({ data: { _id: id, utcOffsetMinutes: 180 } });
    expect(results[2]?.body).toEqual({ message: 'utcOffsetMinutes must be between -720 and 840 minutes east of UTC' });
    expect(await listed(id)).toMatchObject({ utcOffsetMinutes: 180 });
  });

  it("is in the report's input, so the CSV and the FHIR export can give each reading its offset", async () => {
    const at = hoursAgo(1);
    const { _id } = (await call(h.app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 133, recordedAt: at, utcOffsetMinutes: 345 } }))
      .json['data'] as Reading;
    const today = new Date().toISOString().slice(0, 10);
    const input = await reportInput({ db: h.db }, fx.patientA.id, { from: today, to: today });
    expect(input.readings.find((r) => r._id === _id)).toMatchObject({ recordedAt: at, utcOffsetMinutes: 345 });
  });
});
