import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDataKey } from './storage/crypto.ts';
import {
  ackedSince,
  clearOutbox,
  enqueue,
  JOURNAL_KEEP_MS,
  JOURNAL_MAX,
  openEntry,
  outboxDatabase,
  removeApplied,
  resendJournal,
  type OutboxOp,
} from './outbox.ts';

// The journal of acknowledged writes (sync/history.ts): what goes in, how long it stays, and how it
// goes back into the outbox when the server's history went back.
beforeEach(() => clearOutbox());

async function queued(collection: string, n: number): Promise<{ seq: number; doc: string; op: OutboxOp }[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const op = await enqueue({ collection, docId: `${collection}-${i}`, kind: 'add', path: `/${collection}/add`, body: { i }, madeAt: Date.now() });
    const last = await outboxDatabase().entries.orderBy('seq').last();
    out.push({ seq: last?.seq ?? -1, doc: `${collection}|${op.docId}`, op });
  }
  return out;
}

describe('the journal of acknowledged writes', () => {
  it('keeps the patient’s records as they were sent, not the push token or a "remind later"', async () => {
    const records = await queued('glucose', 2);
    const others = [...(await queued('pushToken', 1)), ...(await queued('reminders', 1))];
    await removeApplied([...records, ...others]);
    expect(await outboxDatabase().entries.count()).toBe(0);
    const { ids } = await ackedSince(0, 50);
    expect(ids).toEqual(records.map((r) => r.op.mutationId));
  });

  it('names the latest acknowledged after the fence, oldest first, at most as many as asked', async () => {
    const done = await queued('symptoms', 5);
    await removeApplied(done);
    const all = await ackedSince(0, 50);
    expect(all.ids).toHaveLength(5);
    expect((await ackedSince(0, 2)).ids).toEqual(done.slice(3).map((d) => d.op.mutationId));
    expect(await ackedSince(all.top, 50)).toEqual({ ids: [], top: all.top });
  });

  it('forgets writes older than 14 days, and the oldest past its size', async () => {
    const old = await queued('labTests', 1);
    await removeApplied(old, Date.now() - JOURNAL_KEEP_MS - 1);
    const fresh = await queued('labTests', 1);
    await removeApplied(fresh);
    expect((await ackedSince(0, 50)).ids).toEqual(fresh.map((f) => f.op.mutationId));
    await outboxDatabase().journal.bulkAdd(Array.from({ length: JOURNAL_MAX }, () => ({ sealed: 'x', ackedAt: Date.now() })));
    const last = await queued('labTests', 1);
    await removeApplied(last);
    expect(await outboxDatabase().journal.count()).toBe(JOURNAL_MAX);
    expect((await ackedSince(0, 1)).ids).toEqual(last.map((f) => f.op.mutationId));
  });

  it('goes back into the outbox ahead of what waits, once', async () => {
    const sent = await queued('appointments', 2);
    await removeApplied(sent);
    const waiting = await queued('appointments', 1);
    await outboxDatabase().applied.put({ doc: 'appointments|appointments-0', version: 9 });
    expect(await resendJournal()).toBe(2);
    const key = await getDataKey();
    const order = await Promise.all((await outboxDatabase().entries.orderBy('seq').toArray()).map(async (e) => (await openEntry(key, e))?.mutationId));
    expect(order).toEqual([...sent, ...waiting].map((s) => s.op.mutationId));
    expect(await outboxDatabase().applied.count()).toBe(0);
    expect(await resendJournal()).toBe(0);
    expect(await outboxDatabase().entries.count()).toBe(3);
  });

  it('sends what it re-sends, and what waited, on no base version: those versions belong to the history the server lost (chaos "replace")', async () => {
    const meal = await enqueue({
      collection: 'profile',
      docId: 'me',
      kind: 'update',
      name: 'profile.setMealTimes',
      path: '/users/notificationTimings',
      body: { breakfast: '07:30', baseVersion: 41 },
      versioned: true,
      madeAt: Date.now(),
    });
    const journaled = await outboxDatabase().entries.orderBy('seq').toArray();
    await removeApplied(journaled.map((e) => ({ seq: e.seq, doc: `profile|${meal.docId}`, version: 42 })));
    await enqueue({
      collection: 'glucose',
      docId: 'g1',
      kind: 'update',
      path: '/glucose/update',
      body: { glucoseId: 'g1', gvalue: 120, baseVersion: 7 },
      versioned: true,
      madeAt: Date.now(),
    });
    const key = await getDataKey();
    const before = await Promise.all((await outboxDatabase().entries.toArray()).map((e) => openEntry(key, e)));
    expect(before.map((op) => op?.body['baseVersion'])).toEqual([7]);
    expect(await resendJournal()).toBe(1);
    const after = await Promise.all((await outboxDatabase().entries.orderBy('seq').toArray()).map((e) => openEntry(key, e)));
    expect(after.map((op) => op?.body)).toEqual([{ breakfast: '07:30' }, { glucoseId: 'g1', gvalue: 120 }]);
    expect(after.map((op) => op?.mutationId)).toEqual([meal.mutationId, before[0]?.mutationId]);
  });
});
