import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api-client.ts';
import { createSyncController } from './controller.ts';
import { checkServerHistory } from './history.ts';
import type { DrainResult } from './drain.ts';
import { createSyncStatus } from './status.ts';

vi.mock('./history.ts', () => ({ checkServerHistory: vi.fn(async () => 'intact') }));

const drained: DrainResult = { sent: [], rejected: [], kept: 0, stuck: 0, unauthorized: false };

function controllerWith(opts: { online: () => boolean; inSync: Promise<unknown>; api?: ApiClient }) {
  const status = createSyncStatus({ offline: false });
  let announced = 0;
  const pulls = { here: 0, leader: 0, drains: 0 };
  const controller = createSyncController({
    status,
    ...(opts.api ? { api: opts.api } : {}),
    drain: async () => {
      pulls.drains++;
      return drained;
    },
    replications: () => [{ reSync: () => void pulls.here++, awaitInSync: () => opts.inSync }],
    onUnauthorized: () => undefined,
    registerBackgroundSync: async () => undefined,
    onSynchronized: () => void announced++,
    isStale: () => false,
    isOnline: opts.online,
    askLeaderToPull: () => void pulls.leader++,
  });
  return { status, controller, announced: () => announced, pulls };
}

describe('the sync controller', () => {
  it('says synchronized when a sync ends online', async () => {
    const { status, controller, announced } = controllerWith({ online: () => true, inSync: Promise.resolve() });
    await controller.syncNow({ announce: true });
    expect(status.getSnapshot().offline).toBe(false);
    expect(status.getSnapshot().lastSyncAt).toBeTypeOf('number');
    expect(announced()).toBe(1);
  });

  it('never says synchronized while an entry waits for a decision or keeps failing (one state at a time)', async () => {
    for (const waiting of [{ refused: 1 }, { stuck: 1 }]) {
      const { status, controller, announced } = controllerWith({ online: () => true, inSync: Promise.resolve() });
      status.update(waiting);
      await controller.syncNow({ announce: true });
      expect(announced()).toBe(0);
      // Decided: the next sync says it.
      status.update({ refused: 0, stuck: 0 });
      await controller.syncNow({ announce: true });
      expect(announced()).toBe(1);
    }
  });

  it('a server restored from a backup is synced with again at once, and synchronized is said only after that', async () => {
    const check = vi.mocked(checkServerHistory);
    check.mockResolvedValueOnce('healed');
    const api = {} as ApiClient;
    const { controller, announced, pulls } = controllerWith({ online: () => true, inSync: Promise.resolve(), api });
    await controller.syncNow({ announce: true });
    expect(announced()).toBe(0);
    await expect.poll(() => pulls.drains).toBe(2);
    await controller.idle();
    expect(check).toHaveBeenCalledTimes(2);
    expect(check).toHaveBeenCalledWith(api);
  });

  it('keeps the offline notice when the connection went while the sync ran', async () => {
    let online = true;
    let inSync!: () => void;
    const { status, controller, announced } = controllerWith({ online: () => online, inSync: new Promise<void>((r) => (inSync = r)) });
    const sync = controller.syncNow({ announce: true });
    await new Promise((r) => setTimeout(r, 10));
    // The browser's 'offline' event, while the replications finish what they had started.
    online = false;
    status.update({ offline: true });
    inSync();
    await sync;
    expect(status.getSnapshot().offline).toBe(true);
    expect(announced()).toBe(0);
  });

  it('keeps the offline notice when the history check fails because the connection went (CI, PostgreSQL pass)', async () => {
    const check = vi.mocked(checkServerHistory);
    const { status, controller, announced } = controllerWith({ online: () => true, inSync: Promise.resolve(), api: {} as ApiClient });
    check.mockImplementationOnce(async () => {
      // The browser's 'offline' event came while the check was on its way; the check then fails.
      status.update({ offline: true });
      throw new TypeError('Failed to fetch');
    });
    await controller.syncNow({ announce: true });
    expect(status.getSnapshot().offline).toBe(true);
    expect(status.getSnapshot().lastSyncAt).toBeUndefined();
    expect(announced()).toBe(0);
  });

  it('a refreshing sync pulls here and asks the leading tab to pull; one that must not refresh does neither', async () => {
    const { controller, pulls } = controllerWith({ online: () => true, inSync: Promise.resolve() });
    await controller.syncNow({ announce: false, refresh: false });
    expect(pulls).toMatchObject({ here: 0, leader: 0 });
    await controller.syncNow({ announce: false });
    expect(pulls).toMatchObject({ here: 1, leader: 1 });
  });
});

describe('a 401 met by the drain', () => {
  it('names the session token the drain sent with, so a later session is not ended by it', async () => {
    const ended: (string | undefined)[] = [];
    const controller = createSyncController({
      status: createSyncStatus({ offline: false }),
      drain: async () => ({ ...drained, unauthorized: true, token: 'the-ended-session' }),
      replications: () => [],
      onUnauthorized: (token) => void ended.push(token),
      registerBackgroundSync: async () => undefined,
      onSynchronized: () => undefined,
      isStale: () => false,
      isOnline: () => true,
      askLeaderToPull: () => undefined,
    });
    await controller.syncNow({ announce: false });
    expect(ended).toEqual(['the-ended-session']);
  });
});
