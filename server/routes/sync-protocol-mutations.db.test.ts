// docs/sync-protocol.md, "Writes are named mutations with ids": a mutation id is applied at most once
// per patient, and a repeat (a lost response, a queue drained twice, two senders racing) is answered
// with the first answer and changes nothing, for adds, updates and deletes alike.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Reading {
  _id: string;
  value: number;
  version: number;
}

let h: Harness;
let fx: Fixture;
let token: string;
let seq = 0;
/** A fresh mutation id of this test device. */
const mid = () => `test-device-1:${++seq}`;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const post = (url: string, body: Record<string, unknown>) => call(h.app, 'POST', url, { token, body });

async function readings(): Promise<Reading[]> {
  const res = await call(h.app, 'GET', '/api/glucose', { token });
  return [...(res.json['fasting'] as Reading[]), ...(res.json['postprandial'] as Reading[]), ...(res.json['random'] as Reading[])];
}

async function addReading(value: number): Promise<Reading> {
  const res = await post('/api/glucose/add', { type: 'Random', value });
  expect(res.status).toBe(201);
  return res.json['data'] as Reading;
}

describe('a repeated mutation id', () => {
  it('of an update, replayed after a newer update, does not revert it and gets the first answer', async () => {
    const r = await addReading(140);
    const first = { glucoseId: r._id, gtype: 'Random', gvalue: 150, mutationId: mid() };
    const a = await post('/api/glucose/update', first);
    expect(a.status).toBe(200);
    expect(a.headers['x-mutation-repeat']).toBeUndefined();
    const b = await post('/api/glucose/update', { glucoseId: r._id, gtype: 'Random', gvalue: 160, mutationId: mid() });
    expect(b.status).toBe(200);

    const replay = await post('/api/glucose/update', first);
    expect(replay.status).toBe(200);
    expect(replay.headers['x-mutation-repeat']).toBe('1');
    expect(replay.json).toEqual(a.json);
    const now = (await readings()).find((x) => x._id === r._id);
    expect(now?.value).toBe(160);
    expect(now?.version).toBe((b.json['data'] as Reading).version);
  });

  it('of an add without _id creates one record, and the repeat names the same record', async () => {
    const body = { type: 'Fasting', value: 101, mutationId: mid() };
    const first = await post('/api/glucose/add', body);
    const again = await post('/api/glucose/add', body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['x-mutation-repeat']).toBe('1');
    expect(again.json).toEqual(first.json);
    expect((await readings()).filter((x) => x.value === 101)).toHaveLength(1);
  });

  it('of a delete, replayed after the record was written again, does not delete it again', async () => {
    const recordedAt = new Date(Date.now() - 3600_000).toISOString();
    const added = await post('/api/symptoms/add', { symptom: 'Dizziness', recordedAt });
    expect(added.status).toBe(201);
    const remove = { symptom: 'Dizziness', recordedAt, mutationId: mid() };
    const removed = await post('/api/symptoms/remove', remove);
    expect(removed.status).toBe(200);
    // The patient reports it again the same day...
    const again = await post('/api/symptoms/add', { symptom: 'Dizziness', recordedAt });
    expect(again.status).toBe(201);
    // ...and the first removal arrives once more (a queue drained twice): it changes nothing.
    const replay = await post('/api/symptoms/remove', remove);
    expect(replay.status).toBe(200);
    expect(replay.headers['x-mutation-repeat']).toBe('1');
    expect(replay.json).toEqual(removed.json);
    const list = await call(h.app, 'GET', '/api/symptoms', { token });
    expect((list.json['symptoms'] as { _id: string }[]).map((s) => s._id)).toContain((again.json['data'] as { _id: string })._id);
  });

  it('sent by several requests at once is applied once, and every answer is the first one', async () => {
    const body = { type: 'Postprandial', value: 177, mutationId: mid() };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/api/glucose/add', body)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    for (const a of answers) expect(a.json).toEqual(answers[0]?.json);
    expect(answers.filter((a) => a.headers['x-mutation-repeat'] === '1')).toHaveLength(5);
    expect((await readings()).filter((x) => x.value === 177)).toHaveLength(1);
  });

  it('of a delete sent at once by two senders answers both alike', async () => {
    const r = await addReading(188);
    const body = { glucoseId: r._id, baseVersion: r.version, mutationId: mid() };
    const [x, y] = await Promise.all([post('/api/glucose/delete', body), post('/api/glucose/delete', body)]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect([x.headers['x-mutation-repeat'], y.headers['x-mutation-repeat']].filter(Boolean)).toEqual(['1']);
    expect((await readings()).some((z) => z._id === r._id)).toBe(false);
  });

  it('is per patient: another patient may use the same id', async () => {
    const other = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const id = mid();
    const mine = await post('/api/glucose/add', { type: 'Random', value: 99, mutationId: id });
    const theirs = await call(h.app, 'POST', '/api/glucose/add', { token: other, body: { type: 'Random', value: 98, mutationId: id } });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['x-mutation-repeat']).toBeUndefined();
    expect((theirs.json['data'] as Reading).value).toBe(98);
  });
});

describe('a refused mutation', () => {
  it('changes nothing and is not recorded: asked again, the rules as they stand then answer', async () => {
    const recordedAt = new Date(Date.now() - 7200_000).toISOString();
    const first = await post('/api/symptoms/add', { symptom: 'Sweating', recordedAt });
    expect(first.status).toBe(201);
    const body = { symptom: 'Sweating', recordedAt, mutationId: mid() };
    const refused = await post('/api/symptoms/add', body);
    expect(refused.status).toBe(409);
    expect(refused.headers['x-mutation-repeat']).toBeUndefined();
    await post('/api/symptoms/remove', { symptom: 'Sweating', recordedAt });
    const accepted = await post('/api/symptoms/add', body);
    expect(accepted.status).toBe(201);
    expect(accepted.headers['x-mutation-repeat']).toBeUndefined();
  });

  it('rolls back everything it wrote before it failed', async () => {
    // A dose for a prescription that does not exist: nothing recorded, the id is free again.
    const body = { _id: randomUUID(), prescrNo: 'RX-NONE', medicineName: 'Nothing', dose: '1', mutationId: mid() };
    const refused = await post('/api/user/medicines/taken', body);
    expect(refused.status).toBe(404);
    const again = await post('/api/user/medicines/taken', body);
    expect(again.status).toBe(404);
    expect(again.headers['x-mutation-repeat']).toBeUndefined();
  });

  it.each(['device', 'device:', ':1', 'a b:1', `${'d'.repeat(65)}:1`, 'device:1234567890123456'])(
    'refuses the malformed mutation id %j',
    async (mutationId) => {
      const res = await post('/api/glucose/add', { type: 'Random', value: 100, mutationId });
      expect(res.status).toBe(400);
      expect(String(res.json['message'])).toMatch(/^mutationId must be/);
    },
  );
});

describe('every patient write takes a mutation id', () => {
  it('profile writes answer a repeat with the first answer too', async () => {
    const timings = { lunch: '12:45', mutationId: mid() };
    const first = await post('/api/users/notificationTimings', timings);
    expect(first.status).toBe(200);
    await post('/api/users/notificationTimings', { lunch: '13:15', mutationId: mid() });
    const replay = await post('/api/users/notificationTimings', timings);
    expect(replay.headers['x-mutation-repeat']).toBe('1');
    expect(replay.json).toEqual(first.json);
    const me = await call(h.app, 'GET', '/api/users/', { token });
    expect((me.json['user'] as { notificationTimings: { lunch: string } }).notificationTimings.lunch).toBe('13:15');

    const day = { day: 'Friday', mutationId: mid() };
    const added = await post('/api/users/glucometerAlerts', day);
    await post('/api/users/glucometerAlerts/remove', { day: 'Friday', mutationId: mid() });
    const addedAgain = await post('/api/users/glucometerAlerts', day);
    expect(addedAgain.headers['x-mutation-repeat']).toBe('1');
    expect(addedAgain.json).toEqual(added.json);
    const after = await call(h.app, 'GET', '/api/users/', { token });
    expect((after.json['user'] as { glucometerAlerts: string[] }).glucometerAlerts).not.toContain('Friday');
  });
});
