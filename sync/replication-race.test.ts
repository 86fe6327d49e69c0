import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROFILE_ID } from './storage/collections.ts';
import { openEddyDatabase, type EddyDatabase } from './storage/database.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import type * as Outbox from './outbox.ts';
import { addOverride, clearOutbox, enqueue, peekOverrides, pendingOps } from './outbox.ts';
import { profileMapping } from './profile-sync.ts';
import { askLeaderToPull, pullChanges, replicate } from './replication.ts';

// A pull and a local change racing, on the real replication (RxDB, the encrypted storage, the
// outbox): the server's answer to a pull is never written over a change the device has not sent.

// The outbox as a pull reads it, with a way to hold the pull right after it has read it: a busy
// device may take its time between that read and RxDB writing what was pulled.
const hold = vi.hoisted(() => ({ next: undefined as undefined | { read: () => void; until: Promise<void> } }));
vi.mock('./outbox.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Outbox>();
  return {
    ...real,
    pendingOps: async () => {
      const ops = await real.pendingOps();
      const h = hold.next;
      hold.next = undefined;
      if (h) {
        h.read();
        await h.until;
      }
      return ops;
    },
  };
});

const serverUser = (breakfast: string) => ({
  user: {
    _id: 'p1',
    name: 'Maria Lopez',
    hospNum: '100001',
    gender: 'Female',
    age: 58,
    address: '12 Elm Street',
    hospital: 'City General Hospital',
    timeZone: 'Europe/Madrid',
    notificationTimings: { breakfast, lunch: '12:30', dinner: '19:45' },
    glucometerAlerts: ['Monday'],
    mustChangePassword: false,
  },
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let db: EddyDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await clearOutbox();
  await destroyDataKey();
});

describe('a pull racing a local change', () => {
  it('does not write an answer over a change queued after the pull read the outbox', async () => {
    db = await openEddyDatabase({ name: `race-${randomUUID()}`, storage: getRxStorageMemory() });
    const api = { get: async () => serverUser('07:15') } as unknown as ApiClient;
    const queued = deferred();
    const replication = replicate({ collection: db.profile, mapping: profileMapping, api, owner: '100001', afterPush: () => queued.resolve() });
    await replication.awaitInitialReplication();
    const doc = await db.profile.findOne(PROFILE_ID).exec();
    expect(doc?.notificationTimings.breakfast).toBe('07:15');

    // A pull gets the server's (older) profile and finds nothing waiting in the outbox…
    const read = deferred();
    const release = deferred();
    hold.next = { read: read.resolve, until: release.promise };
    void replication.reSync();
    await read.promise;
    // …then the patient changes a meal time offline, and the change is queued…
    await doc?.incrementalPatch({ notificationTimings: { breakfast: '06:40', lunch: '12:30', dinner: '19:45' } });
    await queued.promise;
    // …with time for RxDB to take the push as done before the pull's answer is written.
    await new Promise((r) => setTimeout(r, 300));
    release.resolve();
    await replication.awaitInSync();

    expect((await db.profile.findOne(PROFILE_ID).exec())?.notificationTimings.breakfast).toBe('06:40');
    // Only the meal time that changed is sent (a care team's change of another one is merged).
    expect((await pendingOps()).map((op) => op.body)).toEqual([{ breakfast: '06:40' }]);
    // A later pull still leaves it alone while it waits to be sent.
    await replication.reSync();
    await replication.awaitInSync();
    expect((await db.profile.findOne(PROFILE_ID).exec())?.notificationTimings.breakfast).toBe('06:40');
    await replication.cancel();
  });

  it('queues changes at once while a failed pull waits to be tried again', async () => {
    // Seed 215329928 of the randomized fault runs: offline, RxDB tries a failed pull again only
    // after `retryTime`; a push handler that waited for that pull kept every later change out of
    // the outbox until then (15 s after the network came back), where nothing could send it.
    db = await openEddyDatabase({ name: `race-${randomUUID()}`, storage: getRxStorageMemory() });
    let offline = false;
    const api = {
      get: async () => {
        if (offline) throw new Error('Failed to fetch');
        return serverUser('07:15');
      },
    } as unknown as ApiClient;
    const replication = replicate({ collection: db.profile, mapping: profileMapping, api, owner: '100001', afterPush: () => undefined });
    await replication.awaitInitialReplication();
    offline = true;
    const failed = firstValueFrom(replication.error$);
    void replication.reSync();
    await failed;
    const doc = await db.profile.findOne(PROFILE_ID).exec();
    const after = await doc?.incrementalPatch({ notificationTimings: { breakfast: '06:40', lunch: '12:30', dinner: '19:45' } });
    await vi.waitFor(async () => expect(await pendingOps()).toHaveLength(1), { timeout: 3000 });
    await after?.incrementalPatch({ notificationTimings: { breakfast: '06:40', lunch: '13:00', dinner: '19:45' } });
    // Both are in the outbox long before RxDB tries the pull again (retryTime is 15 s).
    await vi.waitFor(async () => expect((await pendingOps()).map((op) => op.body)).toEqual([{ breakfast: '06:40' }, { lunch: '13:00' }]), { timeout: 3000 });
    await replication.cancel();
  });

  /**
   * A profile replication in sync with a server whose breakfast is 07:15, which then changes to
   * 09:00; `pulled()` waits until the device shows the change (i.e. until something made it pull).
   */
  async function inSyncThenChangedOnServer() {
    const opened = await openEddyDatabase({ name: `race-${randomUUID()}`, storage: getRxStorageMemory() });
    db = opened;
    let breakfast = '07:15';
    let requests = 0;
    const api = { get: async () => (requests++, serverUser(breakfast)) } as unknown as ApiClient;
    const replication = replicate({ collection: opened.profile, mapping: profileMapping, api, owner: '100001', afterPush: () => undefined });
    await replication.awaitInitialReplication();
    await replication.awaitInSync();
    breakfast = '09:00';
    const pulled = () =>
      vi.waitFor(async () => expect((await opened.profile.findOne(PROFILE_ID).exec())?.notificationTimings.breakfast).toBe('09:00'), { timeout: 3000 });
    return { replication, pulled, requests: () => requests };
  }

  it('pulls by itself when a refusal is decided for the server copy, in whichever tab', async () => {
    // Seed 215329919: the patient chose the server's copy in a tab that did not lead the
    // replication; the leading tab was never asked to pull, and the decision did not show.
    const { replication, pulled } = await inSyncThenChangedOnServer();
    // What discardRefused() stores, as another tab would: no reSync() is called here.
    await addOverride({ collection: 'profile', docId: PROFILE_ID, doc: 'refetch' });
    await pulled();
    expect(await peekOverrides('profile')).toEqual([]);
    await replication.cancel();
  });

  it('pulls when another tab asks, as a tab that does not lead the replication does when it loads', async () => {
    // Seed 87846861: a conflict decided on another device did not show in a reloaded tab, as
    // another tab of the device led the replication and nothing asked it to pull.
    const { replication, pulled, requests } = await inSyncThenChangedOnServer();
    // The tab's own ask is not for it: it pulls by itself, and would pull twice.
    const before = requests();
    askLeaderToPull('100001');
    await new Promise((r) => setTimeout(r, 300));
    expect(requests()).toBe(before);
    askLeaderToPull('100001', 'another-tab');
    await pulled();
    await replication.cancel();
  });

  it('skips a document whose write was waiting when the request went out, even if it was sent before the answer came', async () => {
    await enqueue({
      collection: 'profile',
      docId: PROFILE_ID,
      kind: 'update',
      path: '/users/notificationTimings',
      body: { breakfast: '06:40', lunch: '12:30', dinner: '19:45' },
      madeAt: Date.now(),
    });
    const api = {
      get: async () => {
        // The outbox was drained meanwhile, after the server had answered with what it had then.
        const answer = serverUser('07:15');
        await clearOutbox();
        return answer;
      },
    } as unknown as ApiClient;
    const pulled = await pullChanges(api, profileMapping, undefined);
    expect(pulled.documents).toEqual([]);
    // Once nothing is waiting, the profile is pulled as usual.
    expect((await pullChanges({ get: async () => serverUser('06:40') } as unknown as ApiClient, profileMapping, undefined)).documents).toMatchObject([
      { _id: PROFILE_ID, notificationTimings: { breakfast: '06:40' } },
    ]);
  });
});
