import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { clearOutbox, enqueue } from './outbox.ts';
import { profileMapping } from './profile-sync.ts';
import { beginFirstPulls, dropFirstPulls, pullChanges, takeFirstPull, type RestMapping } from './replication.ts';

// The first pull of a login onto an empty device is begun before the replication starts; the
// replication takes it as its own first pull, with the writes that were waiting when it went out.
afterEach(async () => {
  dropFirstPulls();
  await clearOutbox();
  await destroyDataKey();
});

const recordedAt = new Date().toISOString();
type Row = GlucoseReading & { version: number };

/** A server of glucose readings that counts the list requests and the tokens they carried. */
function server(rows: Row[]) {
  const asked: { path: string; token?: string }[] = [];
  const api = {
    get: (path: string, ro?: { token?: string }) => {
      asked.push({ path, ...(ro?.token ? { token: ro.token } : {}) });
      const since = Number(/since=(\d+)/.exec(path)?.[1] ?? 0);
      const random = rows.filter((r) => r.version > since);
      return Promise.resolve({ fasting: [], postprandial: [], random, deleted: [], checkpoint: Math.max(since, ...rows.map((r) => r.version)) });
    },
  } as unknown as ApiClient;
  return { api, asked };
}
const mappings = [glucoseMapping, profileMapping] as unknown as RestMapping<{ _id: string }>[];

describe('a first pull begun at login', () => {
  it('is what the first pull of its patient returns, without asking again, and only once', async () => {
    const rows: Row[] = [{ _id: randomUUID(), type: 'Random', value: 120, recordedAt, version: 3 }];
    const { api, asked } = server(rows);
    beginFirstPulls(api, mappings, '100001', 'token-1');
    // Only the versioned collections are begun; with the login's token, before any session is stored.
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([{ path: '/glucose?since=0&limit=5000', token: 'token-1' }]);
    // The server changes meanwhile: the first pull still returns what was fetched, with its checkpoint.
    rows.push({ _id: randomUUID(), type: 'Random', value: 99, recordedAt, version: 4 });
    const first = await pullChanges(api, glucoseMapping, undefined, undefined, () => takeFirstPull('glucose', '100001'));
    expect(first.documents.map((d) => d.value)).toEqual([120]);
    expect(first.checkpoint).toEqual({ version: 3 });
    expect(asked).toHaveLength(1);
    // The next pull asks the server from that checkpoint.
    const next = await pullChanges(api, glucoseMapping, first.checkpoint, undefined, () => takeFirstPull('glucose', '100001'));
    expect(next.documents.map((d) => d.value)).toEqual([99]);
    expect(asked.at(-1)?.path).toBe('/glucose?since=3&limit=5000');
    // Taken once: a later pull from version 0 asks the server.
    await pullChanges(api, glucoseMapping, undefined, undefined, () => takeFirstPull('glucose', '100001'));
    expect(asked).toHaveLength(3);
  });

  it('counts a write waiting when it went out as waiting, though it was sent before the replication took the pull', async () => {
    const id = randomUUID();
    const { api, asked } = server([{ _id: id, type: 'Random', value: 120, recordedAt, version: 3 }]);
    await enqueue({
      collection: 'glucose',
      docId: id,
      kind: 'update',
      path: '/glucose/update',
      body: { glucoseId: id, gvalue: 130, baseVersion: 3 },
      madeAt: Date.now(),
      versioned: true,
    });
    beginFirstPulls(api, mappings, '100001', 'token-1');
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    // The write is sent (the outbox empties) before the replication starts.
    await clearOutbox();
    const first = await pullChanges(api, glucoseMapping, undefined, undefined, () => takeFirstPull('glucose', '100001'));
    // The server's older copy is not written over the device's change; the checkpoint stays before it.
    expect(first.documents).toEqual([]);
    expect(first.checkpoint).toEqual({ version: 2 });
  });

  it('is not taken by another patient, by a pull from a checkpoint, or once dropped', async () => {
    const { api, asked } = server([{ _id: randomUUID(), type: 'Random', value: 120, recordedAt, version: 3 }]);
    beginFirstPulls(api, mappings, '100001', 'token-1');
    expect(takeFirstPull('glucose', '100002')).toBeUndefined();
    beginFirstPulls(api, mappings, '100001', 'token-1');
    await pullChanges(api, glucoseMapping, { version: 3 }, undefined, () => takeFirstPull('glucose', '100001'));
    expect(asked.at(-1)?.path).toBe('/glucose?since=3&limit=5000');
    // Not taken by that pull: still there for the first one.
    expect(takeFirstPull('glucose', '100001')).toBeDefined();
    // Dropped (a logout, a lock): gone.
    beginFirstPulls(api, mappings, '100001', 'token-1');
    dropFirstPulls();
    expect(takeFirstPull('glucose', '100001')).toBeUndefined();
    // Older than a minute: asked again rather than taken.
    beginFirstPulls(api, mappings, '100001', 'token-1');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(takeFirstPull('glucose', '100001')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
