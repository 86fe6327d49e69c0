// POST /api/sync/history (docs/sync-protocol.md, "A restored server"). A restore is played here by
// removing what was committed after a point: a backup holds a prefix of the database's history.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMutations, glucoseReadings, historyMarks } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let token: string;
let tokenA2: string;
const URL = '/api/sync/history';
const check = async (body: Record<string, unknown>, as = token) => call(h.app, 'POST', URL, { token: as, body });
const device = randomUUID();
let seq = 0;
const mid = () => `${device}:${++seq}`;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db, 'UTC');
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  tokenA2 = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
});
afterAll(async () => h.close());

describe('POST /api/sync/history', () => {
  it('knows the history a device has seen, and answers a new mark each time', async () => {
    const first = await check({});
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ known: true, mark: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // Within a minute and nothing written since: the same mark (one row a minute at most per device).
    const again = await check({ seen: first.json['mark'] });
    expect(again.json).toEqual({ known: true, mark: first.json['mark'] });
    const [row] = await h.db
      .select()
      .from(historyMarks)
      .where(eq(historyMarks.id, String(first.json['mark'])));
    await h.db
      .update(historyMarks)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(historyMarks.id, String(row?.id)));
    const second = await check({ seen: first.json['mark'] });
    expect(second.json['known']).toBe(true);
    expect(second.json['mark']).not.toBe(first.json['mark']);
    // A write acknowledged after that mark is named in the next check, and found.
    const mutationId = mid();
    expect((await call(h.app, 'POST', '/api/glucose/add', { token, body: { _id: randomUUID(), type: 'Random', value: 120, mutationId } })).status).toBe(201);
    const third = await check({ seen: second.json['mark'], acked: [mutationId] });
    expect(third.json['known']).toBe(true);
    // The same id twice is one write.
    expect((await check({ seen: third.json['mark'], acked: [mutationId, mutationId] })).json['known']).toBe(true);
  });

  it('says the history went back when the database was restored from before the mark or the write', async () => {
    const before = await check({});
    // The backup is taken just after that mark, compared by the database's own clock: it stores
    // microseconds, and a JavaScript date (milliseconds) taken in the same millisecond falls before it.
    const backupTakenAt = sql`(select ${historyMarks.createdAt} from ${historyMarks} where ${historyMarks.id} = ${String(before.json['mark'])})`;
    await new Promise((r) => setTimeout(r, 20));
    // After the backup: a reading written, and a check that gave the device a mark.
    const readingId = randomUUID();
    const mutationId = mid();
    expect((await call(h.app, 'POST', '/api/glucose/add', { token, body: { _id: readingId, type: 'Fasting', value: 99, mutationId } })).status).toBe(201);
    const after = await check({ seen: before.json['mark'], acked: [mutationId] });
    expect(after.json['known']).toBe(true);
    // The restore: everything committed after the backup is gone.
    await h.db.delete(historyMarks).where(sql`${historyMarks.createdAt} > ${backupTakenAt}`);
    await h.db.delete(appliedMutations).where(and(eq(appliedMutations.patientId, fx.patientA.id), eq(appliedMutations.mutationId, mutationId)));
    await h.db.delete(glucoseReadings).where(eq(glucoseReadings.id, readingId));
    // The device's mark is gone: its history went back.
    expect((await check({ seen: after.json['mark'] })).json['known']).toBe(false);
    // Its mark is older than the backup, but a write acknowledged after it is gone: the same.
    expect((await check({ seen: before.json['mark'], acked: [mutationId] })).json['known']).toBe(false);
    // A mark from before the backup, and nothing acknowledged since: nothing lost.
    expect((await check({ seen: before.json['mark'] })).json['known']).toBe(true);
  });

  it('a replaced database knows no mark; another patient’s mark is not this patient’s history', async () => {
    expect((await check({ seen: randomUUID() })).json['known']).toBe(false);
    const mine = await check({});
    expect((await check({ seen: mine.json['mark'] }, tokenA2)).json['known']).toBe(false);
    const marks = await h.db
      .select()
      .from(historyMarks)
      .where(inArray(historyMarks.id, [String(mine.json['mark'])]));
    expect(marks).toEqual([expect.objectContaining({ patientId: fx.patientA.id })]);
  });

  it('refuses what is not a mark or a mutation id, and staff', async () => {
    expect((await check({ seen: 'yesterday' })).status).toBe(400);
    expect((await check({ acked: ['no colon'] })).status).toBe(400);
    expect((await check({ acked: Array.from({ length: 51 }, mid) })).status).toBe(400);
    expect((await call(h.app, 'POST', URL, { body: {} })).status).toBe(401);
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect((await check({}, admin)).status).toBeGreaterThanOrEqual(401);
  });
});
