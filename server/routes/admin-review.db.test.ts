// GET /api/admin/patients/:hospNo/review (issue 46): one patient's review in one snapshot, audited
// once, whole or by version. Real Fastify `inject`, real database; every answer is checked against its
// declared shape by the harness.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let admin: string;
let patient: string;

type Row = { _id: string; version: number };
type Review = {
  hospNo: string;
  version: number;
  asOf: string;
  full: boolean;
  profile: { name: string; lastSyncAt: string | null };
  prescriptions: { _id: string; name: string; active: boolean }[];
  glucose: { fasting: Row[]; postprandial: Row[]; random: Row[]; deleted?: string[]; checkpoint?: number };
  symptoms: { symptoms: Row[]; deleted?: string[] };
  tests: { tests: Row[]; deleted?: string[] };
  appointments: { appointments: Row[]; deleted?: string[] };
  doses: { taken: Row[]; deleted?: string[] };
};

const review = async (hospNo: string, query = '', token = admin) => call(h.app, 'GET', `/api/admin/patients/${hospNo}/review${query}`, { token });
const asReview = (res: { status: number; json: unknown }): Review => {
  expect(res.status).toBe(200);
  return res.json as Review;
};
const write = async (path: string, body: Record<string, unknown>) => {
  const res = await call(h.app, 'POST', path, { token: patient, body });
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
  return res.json;
};
const auditCount = async () =>
  ((await call(h.app, 'GET', `/api/admin/audit?hospNo=${fx.patientA.hospNo}&limit=500`, { token: admin })).json['entries'] as unknown[]).length;
const allRows = (r: Review): Row[] => [
  ...r.glucose.fasting,
  ...r.glucose.postprandial,
  ...r.glucose.random,
  ...r.symptoms.symptoms,
  ...r.tests.tests,
  ...r.appointments.appointments,
  ...r.doses.taken,
];

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  patient = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  const given = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, {
    token: admin,
    body: { prescrNo: 'RX-1', name: 'Metformin', dose: '1-0-1', startDate: '2026-01-01' },
  });
  expect(given.status).toBe(201);
});
afterAll(() => h.close());

describe('GET /api/admin/patients/:hospNo/review', () => {
  const fasting = randomUUID();
  const random = randomUUID();

  it('answers everything the review shows, whole, with the version it reflects, and audits the read once', async () => {
    await write('/api/glucose/add', { _id: fasting, type: 'Fasting', value: 101, recordedAt: '2026-11-30T07:00:00Z' });
    await write('/api/glucose/add', { _id: random, type: 'Random', value: 150, recordedAt: '2026-11-30T12:00:00Z' });
    await write('/api/symptoms/add', { _id: randomUUID(), symptom: 'Headache', recordedAt: '2026-11-30T09:00:00Z' });
    await write('/api/appointments/add', { _id: randomUUID(), doctor: 'Dr. Osei', date: '2026-12-20T10:00:00Z' });
    const audited = await auditCount();

    const r = asReview(await review(fx.patientA.hospNo));
    expect(r.hospNo).toBe(fx.patientA.hospNo);
    expect(r.full).toBe(true);
    expect(r.profile.name).toBe('Alice Able');
    expect(r.prescriptions.map((p) => [p.name, p.active])).toEqual([['Metformin', true]]);
    expect(r.glucose.fasting.map((g) => g._id)).toEqual([fasting]);
    expect(r.glucose.random.map((g) => g._id)).toEqual([random]);
    expect(r.symptoms.symptoms).toHaveLength(1);
    expect(r.appointments.appointments).toHaveLength(1);
    expect(r.tests.tests).toEqual([]);
    expect(r.doses.taken).toEqual([]);
    // The version is the patient's own: no row is newer, and the newest row is that version.
    expect(Math.max(...allRows(r).map((row) => row.version))).toBeLessThanOrEqual(r.version);
    expect(Date.parse(r.asOf)).toBeGreaterThan(Date.now() - 60_000);
    expect(await auditCount()).toBe(audited + 1);
    const [last] = (await call(h.app, 'GET', `/api/admin/audit?hospNo=${fx.patientA.hospNo}&limit=1`, { token: admin })).json['entries'] as {
      action: string;
    }[];
    expect(last?.action).toBe('GET /api/admin/patients/:hospNo/review');
  });

  it('with ?since= answers only what changed after that version: the new rows and the deleted ids', async () => {
    const before = asReview(await review(fx.patientA.hospNo));
    const unchanged = asReview(await review(fx.patientA.hospNo, `?since=${before.version}`));
    expect(unchanged.full).toBe(false);
    expect(unchanged.version).toBe(before.version);
    expect(allRows(unchanged)).toEqual([]);
    expect(unchanged.glucose.deleted).toEqual([]);

    const added = randomUUID();
    await write('/api/glucose/add', { _id: added, type: 'Postprandial', value: 190, recordedAt: '2026-11-30T14:00:00Z' });
    await write('/api/glucose/delete', { glucoseId: fasting });
    const delta = asReview(await review(fx.patientA.hospNo, `?since=${before.version}`));
    expect(delta.full).toBe(false);
    expect(delta.version).toBeGreaterThan(before.version);
    expect(delta.glucose.postprandial.map((g) => g._id)).toEqual([added]);
    expect(delta.glucose.fasting).toEqual([]);
    expect(delta.glucose.random).toEqual([]);
    expect(delta.glucose.deleted).toEqual([fasting]);
    expect(delta.symptoms.symptoms).toEqual([]);
    // The profile and the prescriptions come whole every time (a few rows).
    expect(delta.profile.name).toBe('Alice Able');
    expect(delta.prescriptions).toHaveLength(1);
  });

  it('answers whole when the device holds a version this database never gave (restored or replaced)', async () => {
    const now = asReview(await review(fx.patientA.hospNo));
    const ahead = asReview(await review(fx.patientA.hospNo, `?since=${now.version + 50}`));
    expect(ahead.full).toBe(true);
    expect(allRows(ahead).length).toBe(allRows(now).length);
    expect(ahead.glucose.deleted).toBeUndefined();
  });

  it('is one moment of the record while the patient writes: every row up to its version, none after', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const [r] = await Promise.all([
          review(fx.patientA.hospNo).then(asReview),
          write('/api/glucose/add', { _id: randomUUID(), type: 'Random', value: 100 + i, recordedAt: '2026-12-01T08:00:00Z' }),
        ]);
        return r;
      }),
    );
    const final = asReview(await review(fx.patientA.hospNo));
    for (const r of answers) {
      const shown = allRows(r);
      expect(Math.max(...shown.map((row) => row.version))).toBeLessThanOrEqual(r.version);
      // Only adds happened meanwhile: the rows at or below its version are exactly the ones it shows.
      expect(shown.length).toBe(allRows(final).filter((row) => row.version <= r.version).length);
    }
  });

  it("refuses another hospital's patient as it refuses an unknown one, a patient's own token, and a malformed version", async () => {
    const foreign = await review(fx.patientB.hospNo);
    const unknown = await review('999999');
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual(unknown.json);
    expect((await review(fx.patientA.hospNo, '', patient)).status).toBe(403);
    const bad = await review(fx.patientA.hospNo, '?since=yesterday');
    expect(bad.status).toBe(400);
    expect(String(bad.json['message'])).toMatch(/since/);
  });
});
