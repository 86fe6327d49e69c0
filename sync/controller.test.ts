import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createSyncController } from './controller.ts';
import type { DrainResult } from './drain.ts';
import { createSyncStatus } from './status.ts';

const drained: DrainResult = { sent: [], rejected: [], kept: 0, stuck: 0, unauthorized: false };

function controllerWith(opts: { online: () => boolean; inSync: Promise<unknown> }) {
  const status = createSyncStatus({ offline: false });
  let announced = 0;
  const pulls = { here: 0, leader: 0 };
  const controller = createSyncController({
    status,
    drain: async () => drained,
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

  it('a refreshing sync pulls here and asks the leading tab to pull; one that must not refresh does neither', async () => {
    const { controller, pulls } = controllerWith({ online: () => true, inSync: Promise.resolve() });
    await controller.syncNow({ announce: false, refresh: false });
    expect(pulls).toEqual({ here: 0, leader: 0 });
    await controller.syncNow({ announce: false });
    expect(pulls).toEqual({ here: 1, leader: 1 });
  });
});
