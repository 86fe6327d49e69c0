import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { RxReplicationWriteToMasterRow } from 'rxdb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import { createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { drainOutbox } from './drain.ts';
import { clearOutbox, pendingOps, setReplaySession } from './outbox.ts';
import { pullChanges, pushChanges } from './replication.ts';

// The replication handlers against the real API: what a device pushes reaches the server once,
// and what it pulls never hides a write that is still waiting to be sent.
let h: Harness;
let fx: Fixture;
let baseUrl: string;
let api: ApiClient;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  api = createApiClient({ baseUrl, getToken: () => token, getDeviceId: () => 'device-test-0001' });
  await setReplaySession({ token, deviceId: 'device-test-0001' });
});
afterAll(() => h.close());
beforeEach(async () => {
  await clearOutbox();
  await setReplaySession({ token, deviceId: 'device-test-0001' });
});

const reading = (over: Partial<GlucoseReading & { _deleted: boolean }> = {}): GlucoseReading & { _deleted: boolean } => ({
  _id: randomUUID(),
  type: 'Fasting',
  value: 111,
  recordedAt: new Date(Date.now() - 3600_000).toISOString(),
  _deleted: false,
  ...over,
});

const row = (doc: GlucoseReading & { _deleted: boolean }, assumed?: GlucoseReading & { _deleted: boolean }): RxReplicationWriteToMasterRow<GlucoseReading> =>
  assumed ? { newDocumentState: doc, assumedMasterState: assumed } : { newDocumentState: doc };

describe('glucose replication', () => {
  it('turns a new, a changed and a removed document into add, update and delete, sent in order', async () => {
    const a = reading({ value: 120 });
    expect(await pushChanges(glucoseMapping, [row(a)])).toBe(1);
    const changed = { ...a, value: 135, type: 'Random' as const };
    await pushChanges(glucoseMapping, [row(changed, a)]);
    expect((await pendingOps()).map((o) => o.kind)).toEqual(['add', 'update']);
    const drained = await drainOutbox({ baseUrl });
    expect(drained.sent.map((o) => o.path)).toEqual(['/glucose/add', '/glucose/update']);

    const server = (await api.get<{ random: GlucoseReading[] }>('/glucose')).random.find((r) => r._id === a._id);
    expect(server).toMatchObject({ value: 135, type: 'Random', recordedAt: a.recordedAt });

    await pushChanges(glucoseMapping, [row({ ...changed, _deleted: true }, changed)]);
    await drainOutbox({ baseUrl });
    const after = await api.get<{ random: GlucoseReading[] }>('/glucose');
    expect(after.random.some((r) => r._id === a._id)).toBe(false);
  });

  it('sends nothing for a document created and removed before it was ever pushed', async () => {
    expect(await pushChanges(glucoseMapping, [row(reading({ _deleted: true }))])).toBe(0);
    expect(await pendingOps()).toEqual([]);
  });

  // RxDB notes what it pushed only when the push handler returns: a reload while it waited leaves an
  // add queued (or already sent) but unnoted, and the next state comes with no server state
  // (randomized fault runs, seed 2003727757).
  it('sends a removal of a document whose add is queued though RxDB never noted it pushed', async () => {
    const d = reading({ value: 141 });
    await pushChanges(glucoseMapping, [row(d)]);
    expect(await pushChanges(glucoseMapping, [row({ ...d, _deleted: true })])).toBe(1);
    expect((await pendingOps()).map((o) => o.kind)).toEqual(['add', 'delete']);
    expect((await drainOutbox({ baseUrl })).rejected).toEqual([]);
    expect((await api.get<{ fasting: GlucoseReading[] }>('/glucose')).fasting.some((r) => r._id === d._id)).toBe(false);
  });

  it('sends an edit, not a repeated add, of a document the server already applied though RxDB never noted it', async () => {
    const e = reading({ value: 142 });
    await pushChanges(glucoseMapping, [row(e)]);
    await drainOutbox({ baseUrl });
    await pushChanges(glucoseMapping, [row({ ...e, value: 172 })]);
    expect((await pendingOps()).map((o) => o.kind)).toEqual(['update']);
    expect((await drainOutbox({ baseUrl })).rejected).toEqual([]);
    expect((await api.get<{ fasting: GlucoseReading[] }>('/glucose')).fasting.find((r) => r._id === e._id)).toMatchObject({ value: 172 });
    // And its removal, still unnoted by RxDB, is sent too.
    await pushChanges(glucoseMapping, [row({ ...e, value: 172, _deleted: true })]);
    expect((await drainOutbox({ baseUrl })).sent.map((o) => o.kind)).toEqual(['delete']);
    expect((await api.get<{ fasting: GlucoseReading[] }>('/glucose')).fasting.some((r) => r._id === e._id)).toBe(false);
  });

  it('pulls everything first, then only changes and deletions after the checkpoint', async () => {
    await pushChanges(glucoseMapping, [row(reading({ value: 99 }))]);
    await drainOutbox({ baseUrl });
    const first = await pullChanges(api, glucoseMapping, undefined);
    expect(first.checkpoint?.version).toBeGreaterThan(0);
    const b = reading({ value: 222 });
    await pushChanges(glucoseMapping, [row(b)]);
    await drainOutbox({ baseUrl });
    const delta = await pullChanges(api, glucoseMapping, first.checkpoint);
    // By server version: exactly what changed after the checkpoint, nothing older.
    expect(delta.documents.map((d) => d._id)).toEqual([b._id]);
    expect(delta.checkpoint?.version).toBeGreaterThan(first.checkpoint?.version ?? 0);
    // A checkpoint of the older clock-based protocol pulls everything once.
    expect((await pullChanges(api, glucoseMapping, { since: new Date().toISOString() })).documents.length).toBeGreaterThanOrEqual(2);
    expect(delta.documents.find((d) => d._id === b._id)).toMatchObject({ value: 222, _deleted: false });

    await pushChanges(glucoseMapping, [row({ ...b, _deleted: true }, b)]);
    await drainOutbox({ baseUrl });
    const gone = await pullChanges(api, glucoseMapping, delta.checkpoint);
    expect(gone.documents).toContainEqual({ _id: b._id, _deleted: true });
  });

  it('does not let a pull overwrite a change that is still waiting in the outbox', async () => {
    const c = reading({ value: 150 });
    await pushChanges(glucoseMapping, [row(c)]);
    await drainOutbox({ baseUrl });
    // Offline edit: queued, not yet sent.
    await pushChanges(glucoseMapping, [row({ ...c, value: 180 }, c)]);
    const pulled = await pullChanges(api, glucoseMapping, undefined);
    expect(pulled.documents.some((d) => d._id === c._id)).toBe(false);
    await drainOutbox({ baseUrl });
    const later = await pullChanges(api, glucoseMapping, undefined);
    expect(later.documents.find((d) => d._id === c._id)).toMatchObject({ value: 180 });
  });
});
