// GET /api/admin/worklist (issue 18): each reason at its edges, the order by clinical weight and why, paging, who may read
// it and the audit entries it leaves. Real Fastify `inject`, real database (PGlite, or PostgreSQL
// when DATABASE_URL is set), no mocks. Each patient is made for one case, in a hospital of its own
// that only this file's admin sees; readings are placed relative to now with margins of an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { admins, auditLog, glucoseReadings, medicineIntakes, patients, prescriptions } from '../db/schema.ts';
import { localDate } from '../lib/time.ts';
import { patientRepo } from '../repositories/patients.ts';
import { staffRepo } from '../repositories/staff.ts';
import { worklistRepo } from '../repositories/worklist.ts';
import { sortByPriority } from '../services/worklist-priority.ts';
import { WORKLIST_RULES } from '../services/worklist-rules.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let adminToken: string;
let hospitalId: string;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

type Reason = { code: string; text: string; value: number | null };
type Priority = { rank: number; tier: string | null; weight: number; count: number | null; outOf: number | null; summary: string };
type Entry = { hospNo: string; name: string; reasons: Reason[]; priority: Priority; lastReadingAt: string | null; lastSyncAt: string | null };
type Page = { patients: Entry[]; days: number; computedAt: string; total: number; page: number; limit: number; pages: number };

let serial = 0;
/** A patient of the worklist hospital; `name` says which case it is. */
async function patient(name: string, timeZone = 'UTC'): Promise<{ id: string; hospNo: string }> {
  serial += 1;
  const hospNo = `71${String(serial).padStart(4, '0')}`;
  const p = await patientRepo.insert(h.db, { hospNo, hospitalId, name, timeZone });
  return { id: p.id, hospNo };
}

/** Readings `[hours ago, mg/dL]`. */
async function readings(patientId: string, list: readonly (readonly [number, number])[], deleted = false): Promise<void> {
  const now = Date.now();
  await h.db.insert(glucoseReadings).values(
    list.map(([hoursAgo, value]) => ({
      id: randomUUID(),
      patientId,
      type: 'Random' as const,
      valueMgDl: value,
      recordedAt: new Date(now - hoursAgo * HOUR),
      ...(deleted ? { deletedAt: new Date() } : {}),
    })),
  );
}

/** `n` readings of `value` spread over the last 13.5 days, the newest an hour ago (readings on 13+ days). */
const spread = (n: number, value: number): [number, number][] => Array.from({ length: n }, (_, i) => [1 + i * Math.floor(324 / Math.max(1, n - 1)), value]);

async function worklist(query = '', token = adminToken): Promise<Page> {
  const res = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&limit=100${query}`, { token });
  expect(res.status, res.body).toBe(200);
  return res.json as unknown as Page;
}

async function entryOf(hospNo: string): Promise<Entry> {
  const found = (await worklist()).patients.find((p) => p.hospNo === hospNo);
  if (!found) throw new Error(`${hospNo} is not on the worklist`);
  return found;
}
const codesOf = async (hospNo: string) => (await entryOf(hospNo)).reasons.map((r) => r.code);

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  hospitalId = (await staffRepo.insertHospital(h.db, { name: 'Worklist Hospital' })).id;
  const [admin] = await h.db.select().from(admins).where(eq(admins.email, fx.adminEmail));
  if (!admin) throw new Error('no admin');
  await staffRepo.grantHospitals(h.db, admin.id, [hospitalId]);
});
afterAll(() => h.close());

describe('GET /api/admin/worklist: the reasons at their edges', () => {
  it('severe-low: a reading below 54 mg/dL, not one of exactly 54; the figure is the lowest; a deleted reading does not count', async () => {
    const at54 = await patient('Edge Fiftyfour');
    await readings(at54.id, [...spread(28, 120), [5, 54]]);
    const below = await patient('Edge Belowfiftyfour');
    await readings(below.id, [...spread(48, 120), [5, 53.9], [7, 53.95]]); // 2 of 50 below 70: 4 %
    const deleted = await patient('Edge Deletedlow');
    await readings(deleted.id, spread(28, 120));
    await readings(deleted.id, [[5, 40]], true);

    expect(await codesOf(at54.hospNo)).toEqual([]);
    expect((await entryOf(below.hospNo)).reasons).toEqual([{ code: 'severe-low', value: 53.9, text: '2 readings below 54 mg/dL, lowest 53.9 mg/dL' }]);
    expect(await codesOf(deleted.hospNo)).toEqual([]);
  });

  it('low-time: more than 4 % of readings below 70 mg/dL (exactly 4 % is not)', async () => {
    const four = await patient('Edge Fourpercent');
    await readings(four.id, [...spread(24, 120), [3, 65]]); // 1 of 25 = 4 %
    const over = await patient('Edge Overfour');
    await readings(over.id, [...spread(23, 120), [3, 65]]); // 1 of 24 = 4.17 %
    expect(await codesOf(four.hospNo)).toEqual([]);
    expect((await entryOf(over.hospNo)).reasons).toEqual([{ code: 'low-time', value: 4.2, text: '4.2 % of readings below 70 mg/dL (target under 4 %)' }]);
  });

  it('low-tir: under 50 % of readings in 70–180 mg/dL, both ends in range', async () => {
    const half = await patient('Edge Halfinrange');
    await readings(half.id, [...spread(10, 181), [2, 70], [4, 70], [6, 70], [8, 70], [10, 70], [12, 180], [14, 180], [16, 180], [18, 180], [20, 180]]);
    const under = await patient('Edge Underhalf');
    await readings(under.id, [...spread(11, 250), ...spread(10, 120).map(([t, v]): [number, number] => [t + 1, v])]);
    expect(await codesOf(half.hospNo)).toEqual([]);
    expect((await entryOf(under.hospNo)).reasons).toEqual([{ code: 'low-tir', value: 47.6, text: '47.6 % of readings in range 70–180 mg/dL' }]);
  });

  it('no-data: none for 3 days (71 h ago is recent enough, 73 h is not), or none ever', async () => {
    const recent = await patient('Edge Seventyone');
    await readings(recent.id, [[71, 120], ...[4, 5, 6, 7, 8, 9, 10].map((d): [number, number] => [d * 24, 120])]);
    const old = await patient('Edge Seventythree');
    await readings(old.id, [[73, 120], ...[4, 5, 6, 7, 8, 9, 10].map((d): [number, number] => [d * 24, 120])]);
    const never = await patient('Edge Never');
    expect(await codesOf(recent.hospNo)).toEqual([]);
    const stale = await entryOf(old.hospNo);
    expect(stale.reasons).toEqual([{ code: 'no-data', value: 3, text: 'No readings for 3 days' }]);
    expect(Date.parse(stale.lastReadingAt ?? '')).toBeCloseTo(Date.now() - 73 * HOUR, -5);
    expect(await entryOf(never.hospNo)).toMatchObject({
      reasons: [{ code: 'no-data', value: null, text: 'No readings yet' }],
      lastReadingAt: null,
      lastSyncAt: null,
    });
  });

  it('sparse-data: readings on fewer than half of the days (7 of 14 is half)', async () => {
    const seven = await patient('Edge Sevendays');
    await readings(
      seven.id,
      [0, 1, 2, 3, 4, 5, 6].map((d): [number, number] => [1 + d * 24, 120]),
    );
    const six = await patient('Edge Sixdays');
    await readings(
      six.id,
      [0, 1, 2, 3, 4, 5].map((d): [number, number] => [1 + d * 24, 120]),
    );
    expect(await codesOf(seven.hospNo)).toEqual([]);
    expect((await entryOf(six.hospNo)).reasons).toEqual([{ code: 'sparse-data', value: 6, text: 'Readings on 6 of 14 days' }]);
    // Over 28 days, seven days of readings are a quarter.
    expect((await worklist('&days=28')).patients.find((p) => p.hospNo === seven.hospNo)?.reasons).toEqual([
      { code: 'sparse-data', value: 7, text: 'Readings on 7 of 28 days' },
    ]);
  });

  it('sparse-data counts days in the patient’s own time zone', async () => {
    // Four pairs of readings, 23:30 and 00:30 Kolkata time around four midnights: eight local days
    // (7 of 14 is not sparse), but only four UTC days (which would be).
    const kolkata = await patient('Edge Kolkata', 'Asia/Kolkata');
    const now = Date.now();
    const midnight = Date.parse(`${localDate(new Date(now), 'Asia/Kolkata')}T00:00:00+05:30`);
    const pairs: [number, number][] = [];
    for (let k = 1; k <= 4; k += 1) {
      const m = midnight - 2 * k * DAY;
      pairs.push([(now - (m - 30 * 60_000)) / HOUR, 120], [(now - (m + 30 * 60_000)) / HOUR, 120]);
    }
    await readings(kolkata.id, pairs);
    const utc = await patient('Edge Kolkatainutc');
    await readings(utc.id, pairs);
    expect(await codesOf(utc.hospNo)).toEqual(['sparse-data']);
    expect(await codesOf(kolkata.hospNo)).toEqual([]);
  });

  it('missed-doses: under 80 % of a meal pattern’s expected doses marked taken; extra doses, other wordings and ended prescriptions do not count', async () => {
    const today = localDate(new Date(), 'UTC');
    const dayBefore = (n: number) => localDate(new Date(Date.now() - n * DAY), 'UTC');
    const old = new Date(Date.now() - 60 * DAY);
    const make = async (name: string, taken: number, extra = 0) => {
      const p = await patient(name);
      await readings(p.id, spread(28, 120));
      // 1-0-1 from five days ago: 5 whole days before today × 2 = 10 doses expected.
      await h.db.insert(prescriptions).values([
        { patientId: p.id, prescrNo: 'RX-1', name: 'Metformin 500 mg', dose: '1-0-1', startDate: dayBefore(5), createdAt: old },
        { patientId: p.id, prescrNo: 'RX-2', name: 'Insulin glargine', dose: '10 units at night', startDate: dayBefore(30), createdAt: old },
        { patientId: p.id, prescrNo: 'RX-3', name: 'Gliclazide 40 mg', dose: '1-0-0', startDate: dayBefore(40), endDate: dayBefore(20), createdAt: old },
        { patientId: p.id, prescrNo: 'RX-4', name: 'Paused', dose: '0-0-0', startDate: dayBefore(30), createdAt: old },
      ]);
      const slots: { day: string; slot: 'breakfast' | 'dinner' }[] = [];
      for (let d = 1; d <= 5; d += 1) for (const slot of ['breakfast', 'dinner'] as const) slots.push({ day: dayBefore(d), slot });
      const intake = (day: string, slot: 'breakfast' | 'lunch' | 'dinner', isExtra = false) => ({
        id: randomUUID(),
        patientId: p.id,
        prescrNo: 'RX-1',
        medicineName: 'Metformin 500 mg',
        dose: '1-0-1',
        takenAt: new Date(`${day}T08:00:00Z`),
        slot,
        day,
        extra: isExtra,
      });
      const rows = slots.slice(0, taken).map((s) => intake(s.day, s.slot));
      for (let i = 0; i < extra; i += 1) rows.push(intake(dayBefore(1), 'lunch', true));
      rows.push(intake(today, 'breakfast')); // today's: not in the period's whole days
      rows.push(intake(dayBefore(6), 'breakfast')); // before the prescription's start: in no period day
      await h.db.insert(medicineIntakes).values(rows);
      return p;
    };
    const eight = await make('Edge Eightoften', 8);
    const seven = await make('Edge Sevenoften', 7, 3);
    expect(await codesOf(eight.hospNo)).toEqual([]);
    expect((await entryOf(seven.hospNo)).reasons).toEqual([{ code: 'missed-doses', value: 70, text: '70 % of doses marked taken (7 of 10)' }]);
  });

  it('missed-doses starts counting on the day a prescription without a start date was written', async () => {
    const p = await patient('Edge Newprescription');
    await readings(p.id, spread(28, 120));
    await h.db
      .insert(prescriptions)
      .values({ patientId: p.id, prescrNo: 'RX-9', name: 'Metformin 500 mg', dose: '½-0-½ after food', createdAt: new Date(Date.now() - 2 * DAY) });
    const day = localDate(new Date(Date.now() - DAY), 'UTC');
    await h.db.insert(medicineIntakes).values({
      id: randomUUID(),
      patientId: p.id,
      prescrNo: 'RX-9',
      medicineName: 'Metformin 500 mg',
      dose: '½-0-½',
      takenAt: new Date(`${day}T08:00:00Z`),
      slot: 'breakfast',
      day,
    });
    // Written 2 days ago: that day and yesterday, 2 a day = 4 expected, 1 taken.
    expect((await entryOf(p.hospNo)).reasons).toEqual([{ code: 'missed-doses', value: 25, text: '25 % of doses marked taken (1 of 4)' }]);
  });

  it('rising-mean: at least 10 % and 10 mg/dL above the previous period, each with 3 readings', async () => {
    const make = async (name: string, before: number[], now: number[]) => {
      const p = await patient(name);
      await readings(p.id, [...before.map((v, i): [number, number] => [15 * 24 + i * 24, v]), ...now.map((v, i): [number, number] => [2 + i * 24, v])]);
      return p;
    };
    const ten = await make('Edge Risingten', [150, 150, 150], [165, 165, 165]);
    const nine = await make('Edge Risingnine', [150, 150, 150], [164, 164, 164]);
    const small = await make('Edge Risingsmall', [90, 90, 90], [99, 99, 99]); // 10 % but 9 mg/dL
    const few = await make('Edge Risingfew', [150, 150], [200, 200, 200]);
    expect((await entryOf(ten.hospNo)).reasons).toContainEqual({ code: 'rising-mean', value: 15, text: 'Mean glucose up 15 mg/dL (150 → 165 mg/dL)' });
    for (const p of [nine, small, few]) expect(await codesOf(p.hospNo)).not.toContain('rising-mean');
  });
});

describe('GET /api/admin/worklist: order, paging, access and audit', () => {
  it('the tester’s case: 13 % of readings below 70 (lowest 57) ranks above 1 of 4 below 70 (lowest 69) with sparse data', async () => {
    const sparse = await patient('Order Sparseonelow');
    await readings(sparse.id, [
      [1, 69],
      [97, 120],
      [193, 130],
      [289, 110],
    ]);
    const thirteen = await patient('Order Thirteenpercent');
    await readings(thirteen.id, [...spread(39, 120), [2, 57], [30, 60], [60, 62], [100, 65], [150, 66], [200, 68]]);
    const list = (await worklist()).patients;
    const [ia, ib] = [list.findIndex((p) => p.hospNo === sparse.hospNo), list.findIndex((p) => p.hospNo === thirteen.hospNo)];
    const [a, b] = [list[ia], list[ib]];
    expect(a?.reasons.map((r) => r.code)).toEqual(['low-time', 'sparse-data']);
    expect(b?.reasons.map((r) => r.code)).toEqual(['low-time']);
    expect(ib).toBeLessThan(ia);
    expect(b?.priority).toMatchObject({
      tier: 'low-time',
      weight: 4.2,
      count: 6,
      outOf: 45,
      summary: 'Time below range: 6 of 45 readings below 70 mg/dL (13.3 %), 4.2 readings beyond the 4 % the target allows',
    });
    expect(a?.priority).toMatchObject({ tier: 'low-time', weight: 0.84, count: 1, outOf: 4 });
  });

  it('level-2 lows by their risk: two of 53 before one of 45 before one of 50; another reason breaks a tie; any before 40 % below 70', async () => {
    const make = async (name: string, list: [number, number][]) => {
      const p = await patient(name);
      await readings(p.id, list);
      return p.hospNo;
    };
    const forty = await make('Order Fortypercent', [...spread(30, 120), ...Array.from({ length: 20 }, (_, i): [number, number] => [2 + i * 15, 62])]);
    const fifty = await make('Order Fifty', [...spread(28, 120), [3, 50]]);
    const fiftyLowTime = await make('Order Fiftyandlowtime', [...spread(10, 120), [3, 50], [4, 60]]);
    const fortyFive = await make('Order Fortyfive', [...spread(28, 120), [3, 45]]);
    const twoOf53 = await make('Order Twoof53', [...spread(28, 120), [3, 53], [5, 53]]);
    const order = (await worklist()).patients.map((p) => p.hospNo).filter((n) => [forty, fifty, fiftyLowTime, fortyFive, twoOf53].includes(n));
    expect(order).toEqual([twoOf53, fortyFive, fiftyLowTime, fifty, forty]);
    expect((await entryOf(twoOf53)).priority).toMatchObject({ tier: 'severe-low', count: 2, outOf: 30, weight: 38.813 });
  });

  it('no data for 10 days before 4 days; never a reading counts from registration', async () => {
    const days = (list: number[]) => list.map((d): [number, number] => [d * 24 + 1, 120]);
    const four = await patient('Order Fourdays');
    await readings(four.id, days([4, 5, 6, 7, 8, 9, 10, 11]));
    const ten = await patient('Order Tendays');
    await readings(ten.id, days([10, 11, 12, 13]));
    const neverLong = await patient('Order Neverlong');
    await h.db
      .update(patients)
      .set({ createdAt: new Date(Date.now() - 30 * DAY) })
      .where(eq(patients.id, neverLong.id));
    const neverNew = await patient('Order Nevernew');
    const order = (await worklist()).patients.filter((p) => [four, ten, neverLong, neverNew].some((x) => x.hospNo === p.hospNo));
    expect(order.map((p) => p.name)).toEqual(['Order Neverlong', 'Order Tendays', 'Order Fourdays', 'Order Nevernew']);
    expect(order.map((p) => [p.priority.tier, p.priority.count])).toEqual([
      ['no-data', 30],
      ['no-data', 10],
      ['no-data', 4],
      ['no-data', 0],
    ]);
    expect(order[0]?.priority.summary).toBe('No data: no reading since registration 30 days ago');
  });

  it('orders every patient of the cases above as comparePriority does over their figures, and says why each stands where they do', async () => {
    const list = (await worklist()).patients;
    const { rows } = await worklistRepo.page(h.db, { hospitalId, days: 14, now: new Date(), limit: 1000, offset: 0, rules: WORKLIST_RULES });
    expect(list.map((p) => p.hospNo)).toEqual(sortByPriority(rows, 14, new Date()).map((r) => r.hospNo));
    list.forEach((p, i) => {
      // The reasons are listed most urgent first: the first is the one that places the patient.
      expect(p.priority, p.name).toMatchObject({ rank: i + 1, tier: p.reasons[0]?.code ?? null });
      expect(p.priority.summary.length).toBeGreaterThan(10);
    });
    expect(list[0]?.priority.tier).toBe('severe-low');
    expect(list.at(-1)?.priority).toMatchObject({ tier: null, weight: 0, summary: 'Nothing to act on: by the lowest reading, then by name' });
    // Page 2 goes on counting.
    const second = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&limit=5&page=2`, { token: adminToken });
    expect((second.json as unknown as Page).patients.map((p) => p.priority.rank)).toEqual([6, 7, 8, 9, 10]);
  });

  it('pages, with the total; a page past the end is empty', async () => {
    const all = await worklist();
    const res = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&limit=3&page=2`, { token: adminToken });
    expect(res.status).toBe(200);
    const page2 = res.json as unknown as Page;
    expect(page2).toMatchObject({ total: all.total, page: 2, limit: 3, pages: Math.ceil(all.total / 3), days: 14 });
    expect(page2.patients.map((p) => p.hospNo)).toEqual(all.patients.slice(3, 6).map((p) => p.hospNo));
    const past = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&limit=3&page=1000`, { token: adminToken });
    expect(past.json).toMatchObject({ patients: [], total: all.total, page: 1000 });
  });

  it('writes one audit entry per patient listed', async () => {
    const before = await h.db.select().from(auditLog).where(eq(auditLog.action, 'GET /api/admin/worklist'));
    const res = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&limit=4`, { token: adminToken });
    const listed = (res.json as unknown as Page).patients.map((p) => p.hospNo);
    const after = await h.db.select().from(auditLog).where(eq(auditLog.action, 'GET /api/admin/worklist'));
    const added = after.filter((e) => !before.some((b) => b.id === e.id));
    expect(added.map((e) => e.hospNo).sort()).toEqual([...listed].sort());
    expect(added.every((e) => e.actorKind === 'admin' && e.actorLabel.length > 0 && e.patientId !== null)).toBe(true);
  });

  it('refuses a hospital the staff member does not see, patients, no token, and a period outside 7–90 days', async () => {
    const other = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${fx.hospitalB.id}`, { token: adminToken });
    expect(other).toMatchObject({ status: 404, json: { message: 'Hospital not found' } });
    const patientToken = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    expect((await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}`, { token: patientToken })).status).toBe(403);
    expect((await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}`)).status).toBe(401);
    for (const days of [6, 91, 'x'])
      expect((await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospitalId}&days=${days}`, { token: adminToken })).status).toBe(400);
    expect((await call(h.app, 'GET', '/api/admin/worklist', { token: adminToken })).status).toBe(400);
  });

  it('a doctor whose token names the hospital reads it too', async () => {
    const created = await call(h.app, 'POST', '/api/admin/doctor-tokens', {
      token: adminToken,
      body: { doctorName: 'Dr. Worklist', hospitalIds: [hospitalId], expiresAt: new Date(Date.now() + DAY).toISOString() },
    });
    expect(created.status).toBe(201);
    const page = await worklist('', String(created.json['token']));
    expect(page.total).toBeGreaterThan(10);
    const audited = await h.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'GET /api/admin/worklist'), eq(auditLog.actorKind, 'doctor')));
    expect(audited.length).toBe(page.patients.length);
  });

  it('the database’s reading of a dose pattern is the reminders’ own (mealsOfDose)', async () => {
    const { mealsOfDose } = await import('../reminders/dose-pattern.ts');
    const doses = [
      '1-0-1',
      '1-1-1',
      '0-0-1',
      '½-0-½',
      '0.5-0-0',
      '1/2-1/2-0',
      '0,0-1-0',
      '0/2-0-1',
      '1 - 0 - 1 after food',
      '1–0–1',
      '10 units',
      'twice daily',
      '0-0-0',
      '2-2-2\nwith water',
      ' 1-0-1',
    ];
    const p = await patient('Edge Patterns');
    const old = new Date(Date.now() - 60 * DAY);
    await h.db.insert(prescriptions).values(
      doses.map((dose, i) => ({
        patientId: p.id,
        prescrNo: `RX-P${i}`,
        name: `Medicine ${i}`,
        dose,
        startDate: localDate(new Date(Date.now() - 7 * DAY), 'UTC'),
        createdAt: old,
      })),
    );
    await readings(p.id, spread(28, 120));
    const { rows } = await worklistRepo.page(h.db, { hospitalId, days: 7, now: new Date(), limit: 1000, offset: 0, rules: WORKLIST_RULES });
    const facts = rows.find((r) => r.hospNo === p.hospNo);
    // 7 whole days from the start date up to yesterday, each dose as many times a day as it has meals.
    const perDay = doses.map((d) => (/^\s*\S+\s*[-–]\s*\S+\s*[-–]\s*\S+/.test(d) ? mealsOfDose(d).length : 0)).reduce((a, b) => a + b, 0);
    expect(facts?.expectedDoses).toBe(perDay * 7);
    expect(facts?.takenDoses).toBe(0);
  });
});
