import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { destroyDataKey, findDataKey } from './storage/crypto.ts';
import { getDataKey } from './storage/crypto.ts';
import { addRefusal, clearOutbox, enqueue, getOwner, listRefusals, outboxDatabase, pendingOps, setOwner } from './outbox.ts';
import { PARK_MAX_MS, prepareForOwner, unparkFor } from './parking.ts';

// A ward tablet shared by two patients: A's session ended (401) with entries unsent; B logs in.
// B must never see or send A's entries, and A must get them back at their next login.
const op = (value: number) => ({
  collection: 'glucose',
  docId: crypto.randomUUID(),
  kind: 'add' as const,
  path: '/glucose/add',
  body: { type: 'Fasting', value },
  madeAt: Date.now(),
});

async function wipe(): Promise<void> {
  await clearOutbox();
  await destroyDataKey();
}

afterEach(async () => {
  await wipe();
  // Each test starts on a device nobody used: nothing set aside from an earlier one.
  await outboxDatabase().parked.clear();
});

describe('a locked patient’s unsent entries on a shared device', () => {
  it('the same patient logging in again keeps everything', async () => {
    await setOwner('100001');
    await enqueue(op(120));
    expect(await prepareForOwner('100001', wipe)).toBe('kept');
    expect((await pendingOps()).map((o) => o.body['value'])).toEqual([120]);
  });

  it('another patient never sees them; their owner gets them back, sealed all the way', async () => {
    await setOwner('100001');
    const a1 = await enqueue(op(121));
    const a2 = await enqueue(op(122));
    const key = await getDataKey();
    await addRefusal(key, { op: a2, status: 400, message: 'value must be between 20 and 600 mg/dL', at: Date.now() });
    const aKey = await findDataKey();

    expect(await prepareForOwner('100002', wipe)).toBe('wiped');
    await setOwner('100002');
    expect(await findDataKey()).not.toBe(aKey);
    expect(await pendingOps()).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect(await unparkFor('100002')).toEqual({ restored: 0, expired: 0 });
    const b1 = await enqueue(op(130));
    expect(await pendingOps()).toEqual([b1]);

    // B logs out for good; A logs in on the device again.
    expect(await prepareForOwner('100001', wipe)).toBe('wiped');
    await setOwner('100001');
    expect(await getOwner()).toBe('100001');
    expect(await unparkFor('100001')).toEqual({ restored: 3, expired: 0 });
    // The same mutation ids: anything that had reached the server is not applied twice.
    expect(await pendingOps()).toEqual([a1, a2]);
    expect((await listRefusals()).map((r) => r.op)).toEqual([a2]);
    expect(await unparkFor('100001')).toEqual({ restored: 0, expired: 0 });
  });

  it('after the stated period they are deleted, and their owner is told how many', async () => {
    await setOwner('100001');
    await enqueue(op(123));
    await prepareForOwner('100002', wipe);
    await setOwner('100002');
    const later = Date.now() + PARK_MAX_MS + 60_000;
    // Someone else logging in after the period deletes the entries, leaving only the count.
    expect(await unparkFor('100002', later)).toEqual({ restored: 0, expired: 0 });
    await prepareForOwner('100001', wipe);
    await setOwner('100001');
    const back = await unparkFor('100001', later);
    expect(back).toMatchObject({ restored: 0, expired: 1 });
    expect(await pendingOps()).toEqual([]);
  });
});
