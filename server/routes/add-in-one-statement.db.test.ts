// An add with a mutation id goes in one statement (insertAnswered, answerAdd in http/mutation-reply.ts)
// and must answer exactly as the general path (runMutation) does, leave the same state behind, and
// hand everything it cannot settle to that path: a record id that exists, a mutation id already
// applied, copies of the same write racing each other.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appliedMutations, glucoseReadings } from '../db/schema.ts';
import { appliedMutationRepo } from '../repositories/applied-mutations.ts';
import { glucoseRepo } from '../repositories/records.ts';
import { glucoseDto } from '../services/dto.ts';
import { call, createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let token: string;
let tokenB: string;
let seq = 0;
const mid = () => `one-statement-device:${++seq}`;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  tokenB = await loginPatient(h.app, fx.patientB.hospNo, fx.patientB.password);
});
afterAll(() => h.close());
afterEach(() => vi.restoreAllMocks());

const post = (url: string, body: Record<string, unknown>, as = token) => call(h.app, 'POST', url, { token: as, body });

async function stored(mutationId: string) {
  const [row] = await h.db
    .select({ status: appliedMutations.status, response: appliedMutations.response })
    .from(appliedMutations)
    .where(and(eq(appliedMutations.patientId, fx.patientA.id), eq(appliedMutations.mutationId, mutationId)));
  return row;
}

async function rowsWithId(id: string) {
  return h.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, id));
}

describe('an add with a mutation id, in one statement', () => {
  it('answers 201 with the bytes the general path writes, and stores that answer under the mutation id', async () => {
    const claim = vi.spyOn(appliedMutationRepo, 'claim');
    const _id = randomUUID();
    const mutationId = mid();
    const res = await post('/api/glucose/add', { _id, type: 'Fasting', value: 181.3333333333333, recordedAt: '2026-01-02T03:04:05.006Z', mutationId });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // It did not go the general way (whose first step is the claim of the mutation id).
    expect(claim).not.toHaveBeenCalled();
    const row = await glucoseRepo.findOwn(h.db, fx.patientA.id, _id);
    expect(row).toBeDefined();
    // What runMutation would have answered for this row, byte for byte.
    expect(res.body).toBe(JSON.stringify({ message: 'Glucose reported successfully', data: glucoseDto(row!) }));
    expect(await stored(mutationId)).toEqual({ status: 201, response: JSON.parse(res.body) as unknown });

    // Without a mutation id the general path answers the same shape.
    const plain = await post('/api/glucose/add', { type: 'Fasting', value: 95, recordedAt: '2026-01-02T03:04:05.006Z' });
    expect(plain.status).toBe(201);
    expect(Object.keys(plain.json)).toEqual(Object.keys(res.json));
    expect(Object.keys(plain.json['data'] as object)).toEqual(Object.keys(res.json['data'] as object));
  });

  it('a repeat gets the first answer and changes nothing', async () => {
    const body = { _id: randomUUID(), type: 'Random', value: 140, recordedAt: new Date(Date.now() - 60_000).toISOString(), mutationId: mid() };
    const first = await post('/api/glucose/add', body);
    expect(first.status).toBe(201);
    const again = await post('/api/glucose/add', body);
    expect(again.status).toBe(201);
    expect(again.headers['x-mutation-repeat']).toBe('1');
    expect(again.json).toEqual(first.json);
    expect(await rowsWithId(body._id)).toHaveLength(1);
  });

  it('a mutation id already applied, sent with another record id, creates nothing: the statement rolls back whole', async () => {
    const mutationId = mid();
    const first = await post('/api/glucose/add', { _id: randomUUID(), type: 'Random', value: 120, mutationId });
    expect(first.status).toBe(201);
    const other = randomUUID();
    const again = await post('/api/glucose/add', { _id: other, type: 'Random', value: 121, mutationId });
    expect(again.headers['x-mutation-repeat']).toBe('1');
    expect(again.json).toEqual(first.json);
    expect(await rowsWithId(other)).toHaveLength(0);
  });

  it('a record id that exists goes the general way: the patient’s own is answered 200, another patient’s is refused', async () => {
    const _id = randomUUID();
    expect((await post('/api/glucose/add', { _id, type: 'Random', value: 130 })).status).toBe(201);
    const replay = await post('/api/glucose/add', { _id, type: 'Random', value: 130, mutationId: mid() });
    expect(replay.status).toBe(200);
    expect((replay.json['data'] as { _id: string })._id).toBe(_id);

    const foreign = await post('/api/glucose/add', { _id, type: 'Random', value: 130, mutationId: 'device-b:1' }, tokenB);
    expect(foreign.status).toBe(409);
    expect(foreign.json['message']).toBe('This _id is already in use. Generate a new id for a new record.');
    const [row] = await rowsWithId(_id);
    expect(row?.patientId).toBe(fx.patientA.id);
  });

  it('bad input is refused as before, and nothing is stored under its mutation id', async () => {
    const mutationId = mid();
    const res = await post('/api/glucose/add', {
      _id: randomUUID(),
      type: 'Random',
      value: 130,
      recordedAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      mutationId,
    });
    expect(res.status).toBe(400);
    expect(await stored(mutationId)).toBeUndefined();
  });

  it('appointments and lab tests go the same way, with the answer their general path writes', async () => {
    const claim = vi.spyOn(appliedMutationRepo, 'claim');
    const appointment = await post('/api/appointments/add', {
      _id: randomUUID(),
      doctor: ' Dr "Quote" \\ مرحبا ',
      date: '2026-12-01T09:30:00.000Z',
      notes: 'line\nbreak 🩸',
      mutationId: mid(),
    });
    expect(appointment.status).toBe(201);
    expect(appointment.json['message']).toBe('Appointment added successfully');
    expect(appointment.json['data']).toMatchObject({ doctor: 'Dr "Quote" \\ مرحبا', notes: 'line\nbreak 🩸' });
    const test = await post('/api/tests/add', {
      _id: randomUUID(),
      name: 'HbA1c',
      value: 7.1,
      recordedAt: new Date(Date.now() - 60_000).toISOString(),
      mutationId: mid(),
    });
    expect(test.status).toBe(201);
    expect(test.json['message']).toBe('Lab test reported successfully');
    expect(test.json['data']).toMatchObject({ name: 'HbA1c', value: 7.1, unit: '%' });
    expect(claim).not.toHaveBeenCalled();
  });

  it('copies of the same add sent at once make one record, and every copy is answered with it', async () => {
    const body = { _id: randomUUID(), type: 'Postprandial', value: 210, recordedAt: new Date(Date.now() - 60_000).toISOString(), mutationId: mid() };
    // Half of them by the general path (as in a batch), so both orders of taking the locks meet.
    const copies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? post('/api/glucose/add', body) : post('/api/batch', { mutations: [{ path: '/glucose/add', body }] }))),
    );
    const answers = copies.map((c, i) => {
      if (i % 2 === 0) return { status: c.status, body: c.json };
      expect(c.status).toBe(200);
      return (c.json['results'] as Array<{ status: number; body: Record<string, unknown> }>)[0];
    });
    for (const a of answers) expect(a).toMatchObject({ status: 201, body: { message: 'Glucose reported successfully', data: { _id: body._id, value: 210 } } });
    expect(await rowsWithId(body._id)).toHaveLength(1);
  });

  it('a write the database failed to break a deadlock is run once more, and answered', async () => {
    const _id = randomUUID();
    expect((await post('/api/glucose/add', { _id, type: 'Random', value: 99 })).status).toBe(201);
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const claim = vi.spyOn(appliedMutationRepo, 'claim').mockRejectedValueOnce(deadlock);
    // The record exists, so this goes the general way, whose first try the "deadlock" fails.
    const res = await post('/api/glucose/add', { _id, type: 'Random', value: 99, mutationId: mid() });
    expect(res.status).toBe(200);
    expect(claim).toHaveBeenCalledTimes(2);
    expect((res.json['data'] as { _id: string })._id).toBe(_id);
  });

  // CI (PostgreSQL) once answered one of 8 copies sent at once with a 500: a batch's write that met a
  // deadlock was answered as a failure instead of being run again, and a route ran its write again
  // only once. A deadlock now reruns the whole batch, and a route's write up to 4 times in all.
  it('a batch whose write the database failed to break a deadlock runs again from its first write, and answers', async () => {
    const first = { _id: randomUUID(), type: 'Random', value: 101, recordedAt: new Date(Date.now() - 60_000).toISOString(), mutationId: mid() };
    const second = { _id: randomUUID(), type: 'Random', value: 102, recordedAt: new Date(Date.now() - 60_000).toISOString(), mutationId: mid() };
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const original = appliedMutationRepo.claim.bind(appliedMutationRepo);
    let calls = 0;
    const claim = vi.spyOn(appliedMutationRepo, 'claim').mockImplementation(async (...args) => {
      calls += 1;
      if (calls === 2) throw deadlock; // the second write of the first run
      return original(...args);
    });
    const res = await post('/api/batch', {
      mutations: [
        { path: '/glucose/add', body: first },
        { path: '/glucose/add', body: second },
      ],
    });
    claim.mockRestore();
    expect(res.status).toBe(200);
    const results = res.json['results'] as { status: number; body: { data?: { _id: string } }; repeat?: boolean }[];
    // The first run rolled back whole: the rerun creates both, neither a repeat of the other run.
    expect(results.map((r) => [r.status, r.body.data?._id, r.repeat ?? false])).toEqual([
      [201, first._id, false],
      [201, second._id, false],
    ]);
    expect(calls).toBe(4);
    expect(await rowsWithId(first._id)).toHaveLength(1);
    expect(await rowsWithId(second._id)).toHaveLength(1);
  });

  it('a route’s write that meets a deadlock three times runs a fourth time; a fourth deadlock is a failure', async () => {
    const _id = randomUUID();
    expect((await post('/api/glucose/add', { _id, type: 'Random', value: 98 })).status).toBe(201);
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const claim = vi.spyOn(appliedMutationRepo, 'claim').mockRejectedValueOnce(deadlock).mockRejectedValueOnce(deadlock).mockRejectedValueOnce(deadlock);
    const res = await post('/api/glucose/add', { _id, type: 'Random', value: 98, mutationId: mid() });
    expect(res.status).toBe(200);
    expect(claim).toHaveBeenCalledTimes(4);
    claim.mockReset().mockRejectedValue(deadlock);
    const failed = await post('/api/glucose/add', { _id, type: 'Random', value: 98, mutationId: mid() });
    expect(claim).toHaveBeenCalledTimes(4);
    claim.mockRestore();
    expect(failed.status).toBe(500);
  });
});
