// POST /api/batch (docs/sync-protocol.md, "Replaying in batches"): the writes of a batch run in order,
// each as its own route runs it, at most once per mutation id; the first refused ends the batch, the
// writes before it stay, the ones after it do not run.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MAX } from '../../schemas/batch.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Reading {
  _id: string;
  value: number;
  version: number;
}
interface Result {
  status: number;
  body: Record<string, unknown>;
  repeat?: boolean;
}

let h: Harness;
let fx: Fixture;
let token: string;
let seq = 0;
const mid = () => `batch-device-1:${++seq}`;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const batch = (mutations: { path: string; body: Record<string, unknown> }[], as = token) =>
  call(h.app, 'POST', '/api/batch', { token: as, body: { mutations } });
const add = (value: number, id = randomUUID()) => ({
  path: '/glucose/add',
  body: { _id: id, type: 'Random', value, recordedAt: new Date(Date.now() - 60_000).toISOString(), mutationId: mid() },
});

async function readings(): Promise<Reading[]> {
  const res = await call(h.app, 'GET', '/api/glucose', { token });
  return [...(res.json['fasting'] as Reading[]), ...(res.json['postprandial'] as Reading[]), ...(res.json['random'] as Reading[])];
}

describe('POST /api/batch', () => {
  it('runs each write as its own route would, in order, and a repeat of the batch changes nothing', async () => {
    const id = randomUUID();
    const first = add(141, id);
    const mutations = [
      first,
      add(142),
      { path: '/symptoms/add', body: { _id: randomUUID(), symptom: 'Headache', recordedAt: new Date().toISOString(), mutationId: mid() } },
    ];
    const res = await batch(mutations);
    expect(res.status).toBe(200);
    const results = res.json['results'] as Result[];
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(results[0]?.body).toMatchObject({ message: 'Glucose reported successfully', data: { _id: id, value: 141 } });
    // The same write on its own route answers the same (a repeat of that mutation id).
    const single = await call(h.app, 'POST', '/api/glucose/add', { token, body: first.body });
    expect(single.headers['x-mutation-repeat']).toBe('1');
    expect(single.json).toEqual(results[0]?.body);

    const again = await batch(mutations);
    expect((again.json['results'] as Result[]).map((r) => [r.status, r.repeat])).toEqual([
      [201, true],
      [201, true],
      [201, true],
    ]);
    expect((await readings()).filter((r) => r._id === id)).toHaveLength(1);
  });

  it('ends at the first write refused: the ones before stay, the ones after do not run', async () => {
    const stale = (await batch([add(150)])).json['results'] as Result[];
    const reading = (stale[0]?.body['data'] ?? {}) as Reading;
    await call(h.app, 'POST', '/api/glucose/update', {
      token,
      body: { glucoseId: reading._id, gtype: 'Random', gvalue: 151, baseVersion: reading.version, mutationId: mid() },
    });

    const before = add(152);
    const after = add(153);
    const conflicting = {
      path: '/glucose/update',
      body: { glucoseId: reading._id, gtype: 'Random', gvalue: 155, baseVersion: reading.version, mutationId: mid() },
    };
    const res = await batch([before, conflicting, after]);
    expect(res.status).toBe(200);
    const results = res.json['results'] as Result[];
    expect(results.map((r) => r.status)).toEqual([201, 409]);
    expect(results[1]?.body).toMatchObject({ current: { _id: reading._id, value: 151 } });
    const ids = (await readings()).map((r) => r._id);
    expect(ids).toContain(before.body._id);
    expect(ids).not.toContain(after.body._id);
    // The refused write left no trace: sent again once the patient decides, it is judged afresh.
    const decided = await call(h.app, 'POST', '/api/glucose/update', {
      token,
      body: { ...conflicting.body, baseVersion: (results[1]?.body['current'] as Reading).version },
    });
    expect(decided.status).toBe(200);
    expect(decided.headers['x-mutation-repeat']).toBeUndefined();
  });

  it("checks each write's body as its route does, and names the field", async () => {
    const ok = add(160);
    const res = await batch([ok, { path: '/glucose/add', body: { type: 'Random', value: 9000, mutationId: mid() } }]);
    const results = res.json['results'] as Result[];
    expect(results.map((r) => r.status)).toEqual([201, 400]);
    expect(results[1]?.body['message']).toMatch(/value must be between 20 and 600 mg\/dL/);
    expect((await readings()).map((r) => r._id)).toContain(ok.body._id);
  });

  it('refuses a batch that is empty, too long, or names a route that cannot be batched', async () => {
    expect((await batch([])).status).toBe(400);
    expect((await batch(Array.from({ length: BATCH_MAX + 1 }, () => add(170)))).status).toBe(400);
    const res = await batch([{ path: '/users/medicines/remindLater', body: {} }]);
    expect(res.status).toBe(400);
    expect(res.json['message']).toMatch(/path/);
  });

  it('is for the patient only: staff cannot write through it, nobody without a session', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect((await batch([add(180)], admin)).status).toBe(403);
    expect((await call(h.app, 'POST', '/api/batch', { body: { mutations: [add(181)] } })).status).toBe(401);
  });
});
