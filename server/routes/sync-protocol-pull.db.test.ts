// docs/sync-protocol.md, "Versions, not wall clocks": pulls by the database's per-patient version
// page with a cursor, return every change exactly once (deletions as ids), and never skip a commit
// that finished after a later one had been pulled.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Reading {
  _id: string;
  value: number;
  version: number;
}
interface GlucosePage {
  fasting: Reading[];
  postprandial: Reading[];
  random: Reading[];
  deleted: string[];
  checkpoint: number;
  next?: number;
}

let h: Harness;
let fx: Fixture;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const post = (url: string, body: Record<string, unknown>) => call(h.app, 'POST', url, { token, body });

async function pull(since: number, limit?: number): Promise<GlucosePage> {
  const res = await call(h.app, 'GET', `/api/glucose?since=${since}${limit === undefined ? '' : `&limit=${limit}`}`, { token });
  expect(res.status).toBe(200);
  return res.json as unknown as GlucosePage;
}

const rowsOf = (p: GlucosePage) => [...p.fasting, ...p.postprandial, ...p.random];

/** Every page from `since` on, following `next`. */
async function pullAll(since: number, limit: number): Promise<{ pages: GlucosePage[]; checkpoint: number }> {
  const pages: GlucosePage[] = [];
  let from = since;
  for (let guard = 0; guard < 100; guard++) {
    const page = await pull(from, limit);
    pages.push(page);
    if (page.next === undefined) return { pages, checkpoint: page.checkpoint };
    expect(page.next).toBe(page.checkpoint);
    from = page.next;
  }
  throw new Error('the cursor never ended');
}

async function addReading(value: number): Promise<Reading> {
  const res = await post('/api/glucose/add', { type: 'Random', value });
  expect(res.status).toBe(201);
  return res.json['data'] as Reading;
}

describe('pull by version', () => {
  it('pages with limit and next, and returns every change exactly once, deletions as ids', async () => {
    const start = (await pull(0)).checkpoint;
    const added = [];
    for (let i = 0; i < 7; i++) added.push(await addReading(100 + i));
    const [changed, gone] = added as [Reading, Reading, ...Reading[]];
    expect((await post('/api/glucose/update', { glucoseId: changed._id, gtype: 'Random', gvalue: 199, baseVersion: changed.version })).status).toBe(200);
    expect((await post('/api/glucose/delete', { glucoseId: gone._id })).status).toBe(200);

    const { pages, checkpoint } = await pullAll(start, 2);
    expect(pages.length).toBe(4);
    const live = pages.flatMap(rowsOf);
    const deleted = pages.flatMap((p) => p.deleted);
    expect(deleted).toEqual([gone._id]);
    expect(live.map((r) => r._id).sort()).toEqual(
      added
        .filter((r) => r._id !== gone._id)
        .map((r) => r._id)
        .sort(),
    );
    expect(live.find((r) => r._id === changed._id)?.value).toBe(199);
    // Oldest change first, across pages; the last page's checkpoint is the newest version.
    const versions = live.map((r) => r.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(checkpoint).toBeGreaterThan(Math.max(...versions));

    const nothing = await pull(checkpoint);
    expect(rowsOf(nothing)).toEqual([]);
    expect(nothing).toMatchObject({ deleted: [], checkpoint });
    expect(nothing.next).toBeUndefined();
  });

  it('answers the first pull from 0 with everything, and the same shape for every list', async () => {
    const full = await pull(0, 5000);
    expect(full.next).toBeUndefined();
    for (const path of ['/api/symptoms', '/api/appointments', '/api/tests', '/api/user/medicines/taken', '/api/users/medicines']) {
      const res = await call(h.app, 'GET', `${path}?since=0&limit=10`, { token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ deleted: [], checkpoint: expect.any(Number) as number });
    }
  });

  it('keeps ?since=<ISO> for older devices, and says what since may be', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const r = await addReading(133);
    const iso = await call(h.app, 'GET', `/api/glucose?since=${encodeURIComponent(before)}`, { token });
    expect(iso.status).toBe(200);
    expect((iso.json['random'] as Reading[]).map((x) => x._id)).toContain(r._id);
    expect(iso.json['checkpoint']).toBeUndefined();
    for (const q of ['since=yesterday', 'since=-5', 'since=1234567890123456', 'since=0&limit=0', 'since=0&limit=5001']) {
      const bad = await call(h.app, 'GET', `/api/glucose?${q}`, { token });
      expect([q, bad.status]).toEqual([q, 400]);
    }
    const bad = await call(h.app, 'GET', '/api/glucose?since=yesterday', { token });
    expect(bad.json['message']).toBe('since must be a valid ISO date and time (for example 2026-11-22T08:30:00Z) or a version number (up to 15 digits)');
  });

  it('gives each of 20 concurrent writes its own version, strictly increasing, all pulled once', async () => {
    const start = (await pull(0, 5000)).checkpoint;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/api/glucose/add', { type: 'Fasting', value: 200 + i })));
    const versions = answers.map((a) => (a.json['data'] as Reading).version);
    expect(new Set(versions).size).toBe(20);
    const page = await pull(start, 5000);
    expect(page.fasting.map((r) => r.version)).toEqual([...versions].sort((a, b) => a - b));
  });

  it('stamps staff writes too: a prescription and its end reach the device by version', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const start = ((await call(h.app, 'GET', '/api/users/medicines?since=0', { token })).json['checkpoint'] as number) ?? 0;
    const rx = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, {
      token: admin,
      body: { prescrNo: 'RX-V1', name: 'Metformin', dose: '1-0-1' },
    });
    const id = (rx.json['data'] as { _id: string })._id;
    const first = await call(h.app, 'GET', `/api/users/medicines?since=${start}`, { token });
    expect((first.json['medicines'] as { _id: string; version: number }[]).map((m) => m._id)).toEqual([id]);
    await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions/${id}/end`, { token: admin, body: { endDate: '2020-01-01' } });
    const second = await call(h.app, 'GET', `/api/users/medicines?since=${String(first.json['checkpoint'])}`, { token });
    expect(second.json['medicines']).toEqual([]);
    expect(second.json['deleted']).toContain(id);
    expect(second.json['checkpoint']).toBeGreaterThan(first.json['checkpoint'] as number);
  });
});

describe('a commit that finishes after a later one was pulled', () => {
  it.skipIf(!process.env['DATABASE_URL'])('is still pulled from the checkpoint (PostgreSQL: two connections, one transaction held)', async () => {
    const { default: pg } = await import('pg');
    const other = new pg.Client({ connectionString: h.databaseUrl });
    await other.connect();
    try {
      const start = (await pull(0, 5000)).checkpoint;
      const held = randomUUID();
      await other.query('begin');
      await other.query(`insert into glucose_readings (id, patient_id, type, value_mg_dl, recorded_at) values ($1, $2, 'Random', 111, now())`, [
        held,
        fx.patientA.id,
      ]);
      // A write through the API now waits for the held transaction's lock on the patient's counter.
      const write = post('/api/glucose/add', { type: 'Random', value: 222 });
      await waitForLockWait(other);
      const during = await pull(start, 5000);
      expect(rowsOf(during)).toEqual([]);
      expect(during.checkpoint).toBe(start);
      await other.query('commit');
      const written = await write;
      expect(written.status).toBe(201);
      const after = await pull(during.checkpoint, 5000);
      expect(
        rowsOf(after)
          .map((r) => r._id)
          .sort(),
      ).toEqual([held, (written.json['data'] as Reading)._id].sort());
      const heldVersion = rowsOf(after).find((r) => r._id === held)?.version ?? Infinity;
      expect(heldVersion).toBeLessThan((written.json['data'] as Reading).version);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });
});

/** Until another session of this database waits for a lock (the API's write behind the held one). */
async function waitForLockWait(client: { query(sql: string): Promise<{ rows: { n: number }[] }> }): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the API write never waited for the held transaction');
}
