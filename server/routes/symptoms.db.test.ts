import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface SymptomJson {
  _id: string;
  symptom: string;
  recordedAt: string;
}

let h: Harness;
let fx: Fixture;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const DAY_MS = 24 * 3600_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('symptoms', () => {
  it('reports a symptom and answers 201 with the stored record', async () => {
    const res = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Headache' } });
    expect(res.status).toBe(201);
    expect(res.json['message']).toBe('Symptom reported successfully');
    const data = res.json['data'] as SymptomJson;
    expect(data.symptom).toBe('Headache');
    expect(data._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(data.recordedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a second report of the same symptom the same day, in any letter case', async () => {
    const again = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Headache' } });
    expect(again.status).toBe(409);
    expect(again.json['message']).toBe("You've already reported Headache today");

    const lower = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'headache' } });
    expect(lower.status).toBe(409);
    expect(String(lower.json['message'])).toMatch(/^You've already reported headache today$/i);

    const spaced = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: '  HEADACHE ' } });
    expect(spaced.status).toBe(409);
    expect(String(spaced.json['message'])).toMatch(/^You've already reported headache today$/i);

    const list = await call(h.app, 'GET', '/api/symptoms', { token });
    expect((list.json['symptoms'] as SymptomJson[]).filter((s) => s.symptom.toLowerCase() === 'headache')).toHaveLength(1);
  });

  it('accepts the same symptom on another day', async () => {
    const yesterday = new Date(Date.now() - DAY_MS).toISOString();
    const res = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Headache', recordedAt: yesterday } });
    expect(res.status).toBe(201);
    expect((res.json['data'] as SymptomJson).recordedAt).toBe(yesterday);
  });

  it('names the day when a past day already has that report', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    const first = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Nausea', recordedAt: twoDaysAgo.toISOString() } });
    expect(first.status).toBe(201);
    const second = await call(h.app, 'POST', '/api/symptoms/add', {
      token,
      body: { symptom: 'Nausea', recordedAt: new Date(twoDaysAgo.getTime() + 1000).toISOString() },
    });
    expect(second.status).toBe(409);
    expect(second.json['message']).toBe(`You've already reported Nausea on ${twoDaysAgo.toISOString().slice(0, 10)}`);
  });

  it('replaying an add with the same _id returns the stored record with 200, not 409', async () => {
    const _id = randomUUID();
    const first = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { _id, symptom: 'Blurred vision' } });
    expect(first.status).toBe(201);
    const replay = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { _id, symptom: 'Blurred vision' } });
    expect(replay.status).toBe(200);
    expect(replay.json['message']).toBe('Symptom reported successfully');
    expect(replay.json['data']).toEqual(first.json['data']);
    const list = await call(h.app, 'GET', '/api/symptoms', { token });
    expect((list.json['symptoms'] as SymptomJson[]).filter((s) => s._id === _id)).toHaveLength(1);
  });

  it('an _id of another patient is refused and reveals nothing', async () => {
    const otherToken = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const _id = randomUUID();
    expect((await call(h.app, 'POST', '/api/symptoms/add', { token: otherToken, body: { _id, symptom: 'Dizziness' } })).status).toBe(201);
    const mine = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { _id, symptom: 'Dizziness' } });
    expect(mine.status).toBe(409);
    expect(mine.json['data']).toBeUndefined();
    expect(mine.json['message']).toBe('This _id is already in use. Generate a new id for a new record.');
  });

  it('after removing it, the symptom can be reported again that day', async () => {
    const add = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Fatigue' } });
    expect(add.status).toBe(201);
    const data = add.json['data'] as SymptomJson;

    const rm = await call(h.app, 'POST', '/api/symptoms/remove', { token, body: { symptom: 'Fatigue', recordedAt: data.recordedAt } });
    expect(rm.status).toBe(200);
    expect(rm.json['message']).toBe('Symptom removed successfully');

    const list = await call(h.app, 'GET', '/api/symptoms', { token });
    expect((list.json['symptoms'] as SymptomJson[]).map((s) => s._id)).not.toContain(data._id);

    const again = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Fatigue' } });
    expect(again.status).toBe(201);
    expect((again.json['data'] as SymptomJson)._id).not.toBe(data._id);
  });

  it('removes by symptom name in another letter case too', async () => {
    const add = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Foot pain' } });
    expect(add.status).toBe(201);
    const rm = await call(h.app, 'POST', '/api/symptoms/remove', { token, body: { symptom: 'FOOT PAIN', recordedAt: new Date().toISOString() } });
    expect(rm.status).toBe(200);
    expect((await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Foot pain' } })).status).toBe(201);
  });

  it('answers 404 when there is nothing to remove', async () => {
    const rm = await call(h.app, 'POST', '/api/symptoms/remove', { token, body: { symptom: 'Never reported', recordedAt: new Date().toISOString() } });
    expect(rm.status).toBe(404);
    expect(rm.json['message']).toBe('Symptom report not found');
    const byId = await call(h.app, 'POST', '/api/symptoms/remove', {
      token,
      body: { symptom: 'Headache', recordedAt: new Date().toISOString(), _id: randomUUID() },
    });
    expect(byId.status).toBe(404);
    expect(byId.json['message']).toBe('Symptom report not found');
  });

  it('does not remove another patient’s report', async () => {
    const otherToken = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const add = await call(h.app, 'POST', '/api/symptoms/add', { token: otherToken, body: { symptom: 'Excessive thirst' } });
    expect(add.status).toBe(201);
    const { _id, recordedAt } = add.json['data'] as SymptomJson;
    const rm = await call(h.app, 'POST', '/api/symptoms/remove', { token, body: { symptom: 'Excessive thirst', recordedAt, _id } });
    expect(rm.status).toBe(404);
    const still = await call(h.app, 'GET', '/api/symptoms', { token: otherToken });
    expect((still.json['symptoms'] as SymptomJson[]).map((s) => s._id)).toContain(_id);
  });

  it('lists symptoms, and with ?since= only the changes plus deleted ids', async () => {
    const full = await call(h.app, 'GET', '/api/symptoms', { token });
    expect(full.status).toBe(200);
    expect(full.headers['cache-control']).toBe('no-store');
    const all = full.json['symptoms'] as SymptomJson[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.every((s) => typeof s._id === 'string' && typeof s.symptom === 'string' && typeof s.recordedAt === 'string')).toBe(true);
    expect(full.json['deleted']).toBeUndefined();

    const a = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Tingling' } });
    const idA = (a.json['data'] as SymptomJson)._id;
    await pause(20);
    const since = new Date().toISOString();
    await pause(20);
    const b = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Sweating' } });
    const idB = (b.json['data'] as SymptomJson)._id;
    const rm = await call(h.app, 'POST', '/api/symptoms/remove', {
      token,
      body: { symptom: 'Tingling', recordedAt: (a.json['data'] as SymptomJson).recordedAt },
    });
    expect(rm.status).toBe(200);

    const delta = await call(h.app, 'GET', `/api/symptoms?since=${encodeURIComponent(since)}`, { token });
    expect(delta.status).toBe(200);
    expect((delta.json['symptoms'] as SymptomJson[]).map((s) => s._id)).toEqual([idB]);
    expect(delta.json['deleted']).toEqual([idA]);

    const bad = await call(h.app, 'GET', '/api/symptoms?since=garbage', { token });
    expect(bad.status).toBe(400);
    expect(String(bad.json['message'])).toMatch(/^since must be a valid ISO date/);
  });

  it('serves the reference list of symptom names', async () => {
    const res = await call(h.app, 'GET', '/api/symptoms/list', { token });
    expect(res.status).toBe(200);
    const names = res.json['symptoms'] as unknown[];
    expect(Array.isArray(names)).toBe(true);
    expect(names.every((n) => typeof n === 'string')).toBe(true);
    expect(names).toContain('Headache');
  });

  it.each([
    [{}, 'symptom is required'],
    [{ symptom: '' }, 'symptom must not be empty'],
    [{ symptom: 'x'.repeat(101) }, 'symptom must be at most 100 characters long'],
    [{ symptom: { name: 'Headache' } }, 'symptom must be a string'],
    [{ symptom: 42 }, 'symptom must be a string'],
    [{ symptom: true }, 'symptom must be a string'],
    [{ symptom: 'Headache', _id: 'nope' }, '_id must be a valid UUID'],
    [{ symptom: 'Headache', recordedAt: 'today' }, 'recordedAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)'],
    [[], 'The request body must be a JSON object'],
  ])('rejects the add %j with a message naming the field', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/symptoms/add', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('rejects a symptom that is only whitespace instead of storing an empty name', async () => {
    const res = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: '   ' } });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('symptom must not be empty');
    const list = await call(h.app, 'GET', '/api/symptoms', { token });
    expect((list.json['symptoms'] as SymptomJson[]).filter((s) => s.symptom.trim() === '')).toEqual([]);
  });

  it('removes a report by the same text it was added with, even with inner double spaces', async () => {
    const add = await call(h.app, 'POST', '/api/symptoms/add', { token, body: { symptom: 'Slow  healing' } });
    expect(add.status).toBe(201);
    expect((add.json['data'] as SymptomJson).symptom).toBe('Slow healing');
    const rm = await call(h.app, 'POST', '/api/symptoms/remove', {
      token,
      body: { symptom: 'Slow  healing', recordedAt: (add.json['data'] as SymptomJson).recordedAt },
    });
    expect(rm.status).toBe(200);
    expect(rm.json['message']).toBe('Symptom removed successfully');
  });

  it('refuses a report from the future', async () => {
    const res = await call(h.app, 'POST', '/api/symptoms/add', {
      token,
      body: { symptom: 'Palpitations', recordedAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('recordedAt cannot be in the future: check the date and time of the device');
  });

  it('rejects a remove without recordedAt', async () => {
    const res = await call(h.app, 'POST', '/api/symptoms/remove', { token, body: { symptom: 'Headache' } });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('recordedAt is required');
  });

  it('lets staff read but not write, and needs a token', async () => {
    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const read = await call(h.app, 'GET', '/api/symptoms', { token: adminToken, headers: { 'x-hosp-no': fx.patientA.hospNo } });
    expect(read.status).toBe(200);
    expect((read.json['symptoms'] as SymptomJson[]).length).toBeGreaterThan(0);
    const write = await call(h.app, 'POST', '/api/symptoms/add', {
      token: adminToken,
      body: { symptom: 'Cough' },
      headers: { 'x-hosp-no': fx.patientA.hospNo },
    });
    expect(write.status).toBe(403);
    const anon = await call(h.app, 'GET', '/api/symptoms');
    expect(anon.status).toBe(401);
    expect(anon.json['message']).toBe('Session Expired. Please login again.');
  });
});

describe('symptoms: the day is the patient’s local day (Asia/Kolkata, UTC+05:30)', () => {
  let k: Harness;
  let kToken: string;

  beforeAll(async () => {
    k = await createHarness();
    const kfx = await seedFixture(k.db, 'Asia/Kolkata');
    kToken = await loginPatient(k.app, kfx.patientA.hospNo, kfx.patientA.password);
  });
  afterAll(() => k.close());

  it('19:00Z and 17:00Z on 1 March fall on different local days', async () => {
    // 2026-03-01T19:00Z is 00:30 on 2 March in Kolkata; 17:00Z is 22:30 on 1 March.
    const late = await call(k.app, 'POST', '/api/symptoms/add', { token: kToken, body: { symptom: 'Headache', recordedAt: '2026-03-01T19:00:00.000Z' } });
    expect(late.status).toBe(201);
    const early = await call(k.app, 'POST', '/api/symptoms/add', { token: kToken, body: { symptom: 'Headache', recordedAt: '2026-03-01T17:00:00.000Z' } });
    expect(early.status).toBe(201);
  });

  it('19:00Z on 1 March and 10:00Z on 2 March are the same local day', async () => {
    const same = await call(k.app, 'POST', '/api/symptoms/add', { token: kToken, body: { symptom: 'Headache', recordedAt: '2026-03-02T10:00:00.000Z' } });
    expect(same.status).toBe(409);
    expect(same.json['message']).toBe("You've already reported Headache on 2026-03-02");
  });

  it('removes by the local day of recordedAt', async () => {
    // 2026-03-02T12:00Z is 17:30 on 2 March in Kolkata: removes the 19:00Z report, not the 17:00Z one.
    const rm = await call(k.app, 'POST', '/api/symptoms/remove', { token: kToken, body: { symptom: 'Headache', recordedAt: '2026-03-02T12:00:00.000Z' } });
    expect(rm.status).toBe(200);
    const list = await call(k.app, 'GET', '/api/symptoms', { token: kToken });
    expect((list.json['symptoms'] as SymptomJson[]).map((s) => s.recordedAt)).toEqual(['2026-03-01T17:00:00.000Z']);
  });
});
