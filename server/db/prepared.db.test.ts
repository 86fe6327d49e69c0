// Prepared statements (prepared.ts): built once per database handle, a transaction's own; named by
// their text; and the statements built this way answer as the queries they replace.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glucoseReadings } from './schema.ts';
import { perDb, prepareSql, statementName } from './prepared.ts';
import { glucoseRepo } from '../repositories/records.ts';
import { sessionRepo } from '../repositories/sessions.ts';
import { createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { sha256 } from '../lib/crypto.ts';

let h: Harness;
let fx: Fixture;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
});
afterAll(() => h.close());

describe('prepared statements', () => {
  it('names a statement by its text: the same text the same name, another text another', () => {
    expect(statementName('select 1')).toBe(statementName('select 1'));
    expect(statementName('select 1')).not.toBe(statementName('select 2'));
    expect(statementName('select 1')).toMatch(/^eddy_[0-9a-f]{24}$/);
  });

  it('builds once per handle, and a transaction builds its own, which sees its uncommitted rows', async () => {
    let builds = 0;
    const count = perDb((db) => {
      builds++;
      return prepareSql<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${glucoseReadings} where ${glucoseReadings.patientId} = ${sql.placeholder('patientId')}`,
      );
    });
    const n = async (db: typeof h.db) => (await count(db).execute({ patientId: fx.patientA.id })).rows[0]?.n;
    const before = await n(h.db);
    expect(await n(h.db)).toBe(before);
    expect(builds).toBe(1);
    const id = randomUUID();
    await h.db
      .transaction(async (tx) => {
        await tx.insert(glucoseReadings).values({ id, patientId: fx.patientA.id, type: 'Random', valueMgDl: 100, recordedAt: new Date() });
        expect(await n(tx)).toBe((before ?? 0) + 1);
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!/rollback/i.test(String(err))) throw err;
      });
    expect(builds).toBe(2);
    expect(await n(h.db)).toBe(before);
    expect(builds).toBe(2);
  });

  it('insertAnswered: one statement per set of columns; a null value is stored as null, a date as that instant', async () => {
    const at = new Date('2026-11-20T08:15:00.000Z');
    const add = (extra: Record<string, unknown>) => {
      const id = randomUUID();
      const row = { id, patientId: fx.patientA.id, type: 'Fasting' as const, valueMgDl: 101, recordedAt: at, ...extra };
      return glucoseRepo.insertAnswered(h.db, row, { message: 'Added', mutationId: `prepared-test:${id}` }).then((body) => ({ id, body }));
    };
    const plain = await add({});
    const withNull = await add({ deletedAt: null });
    const deletedAt = new Date('2026-11-21T10:00:00.000Z');
    const withDate = await add({ deletedAt });
    for (const { body } of [plain, withNull, withDate])
      expect(JSON.parse(String(body))).toMatchObject({ message: 'Added', data: { value: 101, type: 'Fasting', recordedAt: at.toISOString() } });
    const rows = await h.db.select().from(glucoseReadings).where(eq(glucoseReadings.patientId, fx.patientA.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(plain.id)?.recordedAt.toISOString()).toBe(at.toISOString());
    expect(byId.get(withNull.id)?.deletedAt).toBeNull();
    expect(byId.get(withDate.id)?.deletedAt?.toISOString()).toBe(deletedAt.toISOString());
    // An id that exists: nothing inserted, no answer (the general path takes over).
    expect(
      await glucoseRepo.insertAnswered(
        h.db,
        { id: plain.id, patientId: fx.patientA.id, type: 'Random', valueMgDl: 300, recordedAt: at },
        { message: 'Added', mutationId: 'prepared-test:again' },
      ),
    ).toBeUndefined();
    expect(byId.get(plain.id)?.valueMgDl).toBe(101);
  });

  it('the live session look-up finds a live session and nothing for a revoked or expired one', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    const live = await sessionRepo.liveByHash(h.db, sha256(token), new Date());
    expect(live?.patientId).toBe(fx.patientA.id);
    expect(live?.patient?.hospNo).toBe(fx.patientA.hospNo);
    expect(live?.expiresAt).toBeInstanceOf(Date);
    expect(await sessionRepo.liveByHash(h.db, sha256(token), new Date(Date.now() + 365 * 24 * 3600_000))).toBeUndefined();
    await sessionRepo.revoke(h.db, String(live?.id));
    expect(await sessionRepo.liveByHash(h.db, sha256(token), new Date())).toBeUndefined();
    expect(await sessionRepo.liveByHash(h.db, sha256('not a token'), new Date())).toBeUndefined();
  });
});
