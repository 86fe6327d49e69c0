import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { RxReplicationWriteToMasterRow } from 'rxdb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import type { Medicine } from '../schemas/medicine.ts';
import { createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { drainOutbox } from './drain.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { medicineMapping } from './medicine-sync.ts';
import { checkServerHistory } from './history.ts';
import { appliedVersion, clearOutbox, listRefusals, pendingCount, readHistory, setReplaySession } from './outbox.ts';
import { pullChanges, pushChanges } from './replication.ts';

// A restored server healed by the device that still holds the data (docs/sync-protocol.md, "A
// restored server"; issue 45). The restore is a real one of the tables involved: copied aside at
// the "backup", put back whole (versions as they were: the version triggers are off meanwhile).
let h: Harness;
let fx: Fixture;
let baseUrl: string;
let api: ApiClient;
let token: string;
const deviceId = 'device-history-0001';
const TABLES = ['glucose_readings', 'applied_mutations', 'history_marks', 'sync_counters', 'record_made'] as const;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  api = createApiClient({ baseUrl, getToken: () => token, getDeviceId: () => deviceId });
});
afterAll(() => h.close());
beforeEach(async () => {
  await clearOutbox();
  await setReplaySession({ token, deviceId });
});

async function backup(): Promise<void> {
  for (const t of TABLES) {
    await h.db.execute(sql.raw(`DROP TABLE IF EXISTS backup_${t}`));
    await h.db.execute(sql.raw(`CREATE TABLE backup_${t} AS SELECT * FROM ${t}`));
  }
}
async function restore(): Promise<void> {
  await h.db.transaction(async (tx) => {
    await tx.execute(sql.raw('ALTER TABLE glucose_readings DISABLE TRIGGER USER'));
    for (const t of TABLES) {
      await tx.execute(sql.raw(`DELETE FROM ${t}`));
      await tx.execute(sql.raw(`INSERT INTO ${t} SELECT * FROM backup_${t}`));
    }
    await tx.execute(sql.raw('ALTER TABLE glucose_readings ENABLE TRIGGER USER'));
  });
}

type Doc = GlucoseReading & { _deleted: boolean };
const reading = (value: number): Doc => ({
  _id: randomUUID(),
  type: 'Random',
  value,
  recordedAt: new Date(Date.now() - 3600_000).toISOString(),
  _deleted: false,
});
const row = (doc: Doc, assumed?: Doc) =>
  (assumed ? { newDocumentState: doc, assumedMasterState: assumed } : { newDocumentState: doc }) as RxReplicationWriteToMasterRow<GlucoseReading>;
async function onServer(): Promise<Doc[]> {
  return glucoseMapping.fromList(await api.get('/glucose')).docs.map((d) => ({ ...d, _deleted: false }));
}
async function sent(n: number): Promise<void> {
  expect((await drainOutbox({ baseUrl })).sent).toHaveLength(n);
}

describe('a server restored from a backup', () => {
  it('gets again, exactly once, every write it acknowledged after the backup; the device pulls everything once', async () => {
    const kept = reading(101);
    await pushChanges(glucoseMapping, [row(kept)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    const keptOnServer = (await onServer()).find((d) => d._id === kept._id) as Doc;
    await backup();

    // After the backup: a new reading, an edit of the first, and a reading added and then removed.
    const lost = reading(202);
    const removed = reading(303);
    await pushChanges(glucoseMapping, [row(lost), row(removed)]);
    await sent(2);
    const removedOnServer = (await onServer()).find((d) => d._id === removed._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...keptOnServer, value: 150 }, keptOnServer), row({ ...removedOnServer, _deleted: true }, removedOnServer)]);
    await sent(2);
    expect(await checkServerHistory(api)).toBe('intact');
    const { checkpoint } = await pullChanges(api, glucoseMapping, undefined);
    expect(checkpoint?.version).toBeGreaterThan(0);

    await restore();
    const restored = await onServer();
    expect(restored.filter((d) => [kept._id, lost._id, removed._id].includes(d._id)).map((d) => d.value)).toEqual([101]);

    expect(await checkServerHistory(api)).toBe('healed');
    // The four writes after the backup go again, with the first (which the backup has) ahead of them.
    expect(await pendingCount()).toBe(5);
    expect(await appliedVersion(`glucose|${kept._id}`)).toBeUndefined();
    await sent(5);
    const healed = await onServer();
    expect(healed.filter((d) => d._id === kept._id).map((d) => d.value)).toEqual([150]);
    expect(healed.filter((d) => d._id === lost._id).map((d) => d.value)).toEqual([202]);
    expect(healed.filter((d) => d._id === removed._id)).toEqual([]);

    // The checkpoint of the lost history pulls everything once, and the next from there.
    const { epoch } = await readHistory();
    expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
    const pulled = await pullChanges(api, glucoseMapping, checkpoint);
    expect(pulled.documents.map((d) => d._id)).toEqual(expect.arrayContaining([kept._id, lost._id]));
    expect(pulled.checkpoint?.history).toBe(epoch);
    expect((await pullChanges(api, glucoseMapping, pulled.checkpoint)).documents).toEqual([]);

    // Healed: the next check finds everything, and nothing goes again.
    expect(await checkServerHistory(api)).toBe('intact');
    expect(await pendingCount()).toBe(0);
  });

  it('a server that was not restored gets nothing again, and a write waiting keeps its place after the ones sent again', async () => {
    const first = reading(111);
    await pushChanges(glucoseMapping, [row(first)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    expect(await checkServerHistory(api)).toBe('intact');
    expect(await pendingCount()).toBe(0);

    await backup();
    const second = reading(222);
    await pushChanges(glucoseMapping, [row(second)]);
    await sent(1);
    // Written offline and still waiting when the restored server is met.
    const waiting = reading(333);
    await pushChanges(glucoseMapping, [row(waiting)]);
    await restore();
    expect(await checkServerHistory(api)).toBe('healed');
    await sent(3);
    const values = (await onServer()).filter((d) => [first._id, second._id, waiting._id].includes(d._id)).map((d) => d.value);
    expect(values.sort()).toEqual([111, 222, 333]);
  });

  it('an edit sent to the restored server before any check is not refused as "not found": the drain heals first', async () => {
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    const mine = reading(155);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    const known = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await restore();
    // Edited on the device right after the restore: the drain meets 404, asks, and heals.
    await pushChanges(glucoseMapping, [row({ ...known, value: 166 }, known)]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([]);
    expect(result.sent.map((op) => op.name)).toEqual(['glucose.add', 'glucose.update']);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([166]);
    expect(await pendingCount()).toBe(0);
  });

  it('an edit made on a version the restore lost waits for the heal: the earlier edit it lost lands first, and the patient’s last value stays (chaos seeds 26508907, 8812002)', async () => {
    const mine = reading(140);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    const added = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...added, value: 120 }, added)]);
    await sent(1);
    await restore();
    // Made on top of the 120 the server acknowledged (and lost): its base is a version the restored
    // server never gave this reading. Accepted, it would land before the 120 sent again at the heal.
    const edited = { ...added, value: 120 };
    await pushChanges(glucoseMapping, [row({ ...edited, value: 130 }, edited)]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect(result.sent.map((op) => op.body['gvalue'] ?? op.body['value'])).toEqual([140, 120, 130]);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([130]);
    expect(await pendingCount()).toBe(0);
  });

  /** The patient's other device, as the server sees it: its own device id, its own writes. */
  const otherDevice = (path: string, body: Record<string, unknown>) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        'x-device-id': 'device-history-0002',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });

  it('an edit of a reading another device added, sent again before that device healed its add, waits for it instead of being refused as "not found" (chaos seed 317377829)', async () => {
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    const theirs = reading(188);
    const add = { _id: theirs._id, type: theirs.type, value: theirs.value, recordedAt: theirs.recordedAt, mutationId: 'device-history-0002:1' };
    expect((await otherDevice('/glucose/add', add)).status).toBe(201);
    const held = (await onServer()).find((d) => d._id === theirs._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...held, value: 199 }, held)]);
    await sent(1);
    await restore();
    // This device comes back first: its edit goes again, and the server has no such reading yet.
    expect(await checkServerHistory(api)).toBe('healed');
    const t0 = Date.now();
    const first = await drainOutbox({ baseUrl, now: () => t0 });
    expect(first.rejected).toEqual([]);
    expect(first.kept).toBe(1);
    expect(await listRefusals()).toEqual([]);
    expect(await pendingCount()).toBe(1);
    // Not again before its pause is over, even if the add is back.
    expect((await otherDevice('/glucose/add', add)).status).toBe(201);
    expect((await drainOutbox({ baseUrl, now: () => t0 + 1_000 })).sent).toEqual([]);
    const second = await drainOutbox({ baseUrl, now: () => t0 + 6_000 });
    expect(second.sent.map((op) => op.name)).toEqual(['glucose.update']);
    expect((await onServer()).filter((d) => d._id === theirs._id).map((d) => d.value)).toEqual([199]);
    expect(await pendingCount()).toBe(0);
  });

  it('two devices that heal one reading in the other order: the edit made last stays, and the earlier one is dropped without a question (chaos seed 5120337)', async () => {
    const mine = reading(150);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    const added = (await onServer()).find((d) => d._id === mine._id) as Doc;
    // This device edits first, the other device a moment later; the restore loses both.
    await pushChanges(glucoseMapping, [row({ ...added, value: 160 }, added)]);
    await sent(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = { glucoseId: mine._id, gtype: added.type, gvalue: 170, madeAt: new Date().toISOString(), mutationId: 'device-history-0002:7' };
    expect((await otherDevice('/glucose/update', later)).status).toBe(200);
    await restore();
    // The other device heals first: its edit, sent again on no version, applies.
    expect((await otherDevice('/glucose/update', later)).status).toBe(200);
    // This device heals after it: its edit was made before, so it changes nothing and asks nothing.
    expect(await checkServerHistory(api)).toBe('healed');
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect(await pendingCount()).toBe(0);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([170]);
    // And the device takes the server's value at its next pull.
    const pulled = await pullChanges(api, glucoseMapping, undefined);
    expect(pulled.documents.filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([170]);
  });

  it('an edit made after the heal on a copy that still carries a version of the lost history goes again on no version, instead of being refused (chaos seed 5120337)', async () => {
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    // The other device's writes after the backup, which it never heals here: the versions they took
    // are handed out again by the restored database, lower than those this device saw.
    for (const n of [1, 2, 3])
      expect((await otherDevice('/glucose/add', { type: 'Random', value: 100 + n, mutationId: `device-history-0002:2${n}` })).status).toBe(201);
    const mine = reading(210);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    const held = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await restore();
    expect(await checkServerHistory(api)).toBe('healed');
    await sent(1);
    const now = (await onServer()).find((d) => d._id === mine._id) as Doc;
    expect(now.version).toBeLessThan(held.version as number);
    // The device's copy was not pulled again yet: the patient's edit states the old version.
    await pushChanges(glucoseMapping, [row({ ...held, value: 230 }, held)]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect(result.sent.map((op) => op.name)).toEqual(['glucose.update']);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([230]);
  });

  it('two devices edit one reading offline after the database was replaced: the edit that comes second is a stated conflict, never a silent overwrite (chaos seed 2077632303)', async () => {
    const mine = reading(172);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    const held = (await onServer()).find((d) => d._id === mine._id) as Doc;
    // Replaced: its marks and mutation ids are not this device's, and the reading is back (another
    // device healed it first) under a version of its own. Every session has ended.
    await h.db.execute(sql`DELETE FROM history_marks`);
    await h.db.execute(sql`DELETE FROM applied_mutations`);
    await h.db.execute(sql`DELETE FROM record_made`);
    await h.db.execute(sql.raw(`UPDATE glucose_readings SET recorded_at = recorded_at WHERE id = '${mine._id}'`));
    token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await setReplaySession({ token, deviceId });
    // The other device, healed and pulled, changes the reading on its new version: 294, made first.
    const now = (await onServer()).find((d) => d._id === mine._id) as Doc;
    const theirs = {
      glucoseId: mine._id,
      gtype: now.type,
      gvalue: 294,
      baseVersion: now.version,
      madeAt: new Date(Date.now() - 1_000).toISOString(),
      mutationId: 'device-history-0002:31',
    };
    expect((await otherDevice('/glucose/update', theirs)).status).toBe(200);
    // This device changed its copy offline a moment later, on 172, never having seen 294: 293. The
    // heal sends it on no version; sent so, it overwrote 294 without a word to either device.
    await pushChanges(glucoseMapping, [row({ ...held, value: 293 }, held)]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected.map((r) => [r.op.name, r.status])).toEqual([['glucose.update', 409]]);
    expect((await listRefusals()).map((r) => r.op.docId)).toEqual([mine._id]);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([294]);
    expect(await pendingCount()).toBe(0);
  });

  it("the device's own edit, sent again by its heal, is no conflict for its next edit made on the restored reading (chaos seed 1838412833)", async () => {
    const mine = reading(172);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    await backup();
    const added = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...added, value: 200 }, added)]);
    await sent(1);
    // Restored from the backup: the reading is 172 again. The device pulls it before it heals, and
    // the patient changes it: 246, made on 172.
    await restore();
    const restored = (await onServer()).find((d) => d._id === mine._id) as Doc;
    expect(restored.value).toBe(172);
    await pushChanges(glucoseMapping, [row({ ...restored, value: 246 }, restored)]);
    // The heal sends the journal (the edit to 200) ahead of the waiting edit. The server then holds
    // this device's own 200, not what 246 was made on: that is no other device's change.
    expect(await checkServerHistory(api)).toBe('healed');
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([246]);
    expect(await pendingCount()).toBe(0);
  });

  it('a removal sent again on no version is refused when the reading changed since it was made, and applies when it did not', async () => {
    const changed = reading(140);
    const kept = reading(150);
    await pushChanges(glucoseMapping, [row(changed), row(kept)]);
    await sent(2);
    const heldChanged = (await onServer()).find((d) => d._id === changed._id) as Doc;
    const heldKept = (await onServer()).find((d) => d._id === kept._id) as Doc;
    await h.db.execute(sql`DELETE FROM history_marks`);
    await h.db.execute(sql`DELETE FROM applied_mutations`);
    token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await setReplaySession({ token, deviceId });
    const now = (await onServer()).find((d) => d._id === changed._id) as Doc;
    expect(
      (
        await otherDevice('/glucose/update', {
          glucoseId: changed._id,
          gtype: now.type,
          gvalue: 180,
          baseVersion: now.version,
          mutationId: 'device-history-0002:41',
        })
      ).status,
    ).toBe(200);
    await pushChanges(glucoseMapping, [row({ ...heldChanged, _deleted: true }, heldChanged), row({ ...heldKept, _deleted: true }, heldKept)]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected.map((r) => [r.op.docId, r.status])).toEqual([[changed._id, 409]]);
    const left = (await onServer()).filter((d) => [changed._id, kept._id].includes(d._id));
    expect(left.map((d) => [d._id, d.value])).toEqual([[changed._id, 180]]);
  });

  it('a record the device holds but never wrote goes back, by its id, at the first pull after the heal; a prescription the server no longer lists leaves', async () => {
    // Written by the patient's other device; this one pulled it.
    const other = reading(177);
    const res = await fetch(`${baseUrl}/api/glucose/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...other, _deleted: undefined }),
    });
    expect(res.status).toBe(201);
    const first = await pullChanges(api, glucoseMapping, undefined);
    const held = first.documents.find((d) => d._id === other._id) as Doc;
    expect(held.value).toBe(177);
    expect(await checkServerHistory(api)).toBe('intact');
    // The database replaced: that reading is gone, and this device's journal never had it.
    await h.db.execute(sql`DELETE FROM history_marks`);
    await h.db.execute(sql.raw(`DELETE FROM glucose_readings WHERE id = '${other._id}'`));
    expect(await checkServerHistory(api)).toBe('healed');
    const healed = await pullChanges(api, glucoseMapping, first.checkpoint, undefined, undefined, async () => [held]);
    expect(healed.documents.find((d) => d._id === other._id)).toBeUndefined();
    await sent(1);
    expect((await onServer()).filter((d) => d._id === other._id).map((d) => d.value)).toEqual([177]);
    // The server's own: a prescription the device lists and the server no longer does.
    const prescription = { _id: randomUUID(), prescrNo: 'RX-GONE-1', medicineName: 'Gone 1 mg', dose: '1-0-0', version: 1 } as unknown as Medicine;
    const meds = await pullChanges(api, medicineMapping, { version: 1, query: medicineMapping.listQuery ?? '' }, undefined, undefined, async () => [
      prescription,
    ]);
    expect(meds.documents.filter((d) => d._id === prescription._id)).toEqual([{ ...prescription, _deleted: true }]);
  });

  it('a new session checks the history before it sends an edit stated on a version: a replaced database’s own versions are never compared with it', async () => {
    const mine = reading(150);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    const added = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...added, value: 160 }, added)]);
    await sent(1);
    const edited = { ...added, value: 160 };
    // Replaced: its marks and mutation ids are not this device's, and it numbers the reading anew,
    // past the version the device's next edit is stated on. Every session has ended.
    await h.db.execute(sql`DELETE FROM history_marks`);
    await h.db.execute(sql`DELETE FROM applied_mutations`);
    await h.db.execute(sql.raw(`UPDATE glucose_readings SET recorded_at = recorded_at WHERE id = '${mine._id}'`));
    await h.db.execute(sql.raw(`UPDATE glucose_readings SET recorded_at = recorded_at WHERE id = '${mine._id}'`));
    token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await setReplaySession({ token, deviceId });
    await pushChanges(glucoseMapping, [row({ ...edited, value: 170 }, edited)]);
    const result = await drainOutbox({ baseUrl });
    // Compared with the new versions, the edit was "changed on another device" while nobody had.
    expect(result.rejected).toEqual([]);
    expect(await listRefusals()).toEqual([]);
    expect((await onServer()).filter((d) => d._id === mine._id).map((d) => d.value)).toEqual([170]);
    expect(await pendingCount()).toBe(0);
    // Checked once for this session: the next edit goes straight out.
    const now = (await onServer()).find((d) => d._id === mine._id) as Doc;
    await pushChanges(glucoseMapping, [row({ ...now, value: 175 }, now)]);
    expect((await drainOutbox({ baseUrl })).sent.map((op) => op.name)).toEqual(['glucose.update']);
  });

  it('a replaced database (a mark it never gave) is healed the same way', async () => {
    const mine = reading(144);
    await pushChanges(glucoseMapping, [row(mine)]);
    await sent(1);
    expect(await checkServerHistory(api)).toBe('intact');
    await h.db.execute(sql`DELETE FROM history_marks`);
    await h.db.execute(sql`DELETE FROM applied_mutations`);
    await h.db.execute(sql.raw(`DELETE FROM glucose_readings WHERE id = '${mine._id}'`));
    expect(await checkServerHistory(api)).toBe('healed');
    await sent(1);
    expect((await onServer()).filter((d) => d._id === mine._id)).toHaveLength(1);
  });
});
