// The whole lists come from the cache only while nothing changed (services/list-cache.ts): every kind
// of change of the patient's rows, through the API or straight in the database, is seen at once.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { glucoseReadings } from '../db/schema.ts';
import { glucoseRepo } from '../repositories/records.ts';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let token: string;
let tokenB: string;
let seq = 0;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  tokenB = await loginPatient(h.app, fx.patientB.hospNo, fx.patientB.password);
});
afterAll(() => h.close());
afterEach(() => vi.restoreAllMocks());

interface Reading {
  _id: string;
  value: number;
}

async function list(as = token) {
  const res = await call(h.app, 'GET', '/api/glucose', { token: as });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const all = ['fasting', 'postprandial', 'random'].flatMap((k) => res.json[k] as Reading[]);
  return { body: res.body, values: new Map(all.map((r) => [r._id, r.value])) };
}

const add = async (value: number, as = token) => {
  const res = await call(h.app, 'POST', '/api/glucose/add', { token: as, body: { type: 'Random', value, mutationId: `list-cache:${++seq}` } });
  expect(res.status).toBe(201);
  return (res.json['data'] as Reading)._id;
};

describe('the whole list, kept while unchanged', () => {
  it('is made once and then sent from the cache, the same bytes, until a row of the patient changes', async () => {
    const first = await add(101);
    const made = vi.spyOn(glucoseRepo, 'listChangesJson');
    const a = await list();
    const b = await list();
    expect(b.body).toBe(a.body);
    expect(made).toHaveBeenCalledTimes(1);
    expect(a.values.get(first)).toBe(101);

    // An add through the API.
    const second = await add(102);
    expect((await list()).values.get(second)).toBe(102);
    // An update.
    expect((await call(h.app, 'POST', '/api/glucose/update', { token, body: { glucoseId: first, gtype: 'Random', gvalue: 111 } })).status).toBe(200);
    expect((await list()).values.get(first)).toBe(111);
    // A delete.
    expect((await call(h.app, 'POST', '/api/glucose/delete', { token, body: { glucoseId: first } })).status).toBe(200);
    expect((await list()).values.has(first)).toBe(false);
    expect(made).toHaveBeenCalledTimes(4);
    await list();
    expect(made).toHaveBeenCalledTimes(4);
  });

  it('sees changes made in the database by hand: an update, a hard delete, even of the newest row', async () => {
    const id = await add(120);
    expect((await list()).values.get(id)).toBe(120);
    await h.db.update(glucoseReadings).set({ valueMgDl: 121 }).where(eq(glucoseReadings.id, id));
    expect((await list()).values.get(id)).toBe(121);
    // Insert a row by hand and delete it again: count and highest version come back to what they
    // were, the patient's counter does not.
    const before = await list();
    const extra = randomUUID();
    await h.db.insert(glucoseReadings).values({ id: extra, patientId: fx.patientA.id, type: 'Random', valueMgDl: 300, recordedAt: new Date() });
    expect((await list()).values.get(extra)).toBe(300);
    await h.db.execute(sql`delete from glucose_readings where id = ${extra}`);
    const after = await list();
    expect(after.values.has(extra)).toBe(false);
    expect(after.body).toBe(before.body);
    await h.db.execute(sql`delete from glucose_readings where id = ${id}`);
    expect((await list()).values.has(id)).toBe(false);
  });

  it('is each patient’s own', async () => {
    const mine = await add(130);
    const theirs = await add(140, tokenB);
    const a = await list();
    const b = await list(tokenB);
    expect(a.values.has(mine) && !a.values.has(theirs)).toBe(true);
    expect(b.values.has(theirs) && !b.values.has(mine)).toBe(true);
    expect((await list()).body).toBe(a.body);
    expect((await list(tokenB)).body).toBe(b.body);
  });
});
