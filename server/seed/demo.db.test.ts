import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKLIST_DAYS } from '../../schemas/admin.ts';
import { glucoseReadings } from '../db/schema.ts';
import { staffRepo } from '../repositories/staff.ts';
import { worklistRepo } from '../repositories/worklist.ts';
import { reasonsOf } from '../services/worklist-service.ts';
import { sortByPriority } from '../services/worklist-priority.ts';
import { WORKLIST_RULES } from '../services/worklist-rules.ts';
import { call, createHarness, loginAdmin, outboxCodes, type Harness } from '../testing/harness.ts';
import { DEMO, seedDemo, wardNameOf } from './demo.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  expect(await seedDemo(h.db)).toBe(true);
});
afterAll(() => h.close());

type Reading = { type: string; value: number; recordedAt: string };

describe('demo data', () => {
  it('is seeded once', async () => {
    expect(await seedDemo(h.db)).toBe(false);
  });

  it('gives a patient’s records the same ids on every seeding (a demo database made again heals without doubles)', async () => {
    const again = await createHarness();
    try {
      expect(await seedDemo(again.db)).toBe(true);
      const ids = async (db: Harness['db']) => (await db.select({ id: glucoseReadings.id }).from(glucoseReadings)).map((r) => r.id).sort();
      const first = await ids(h.db);
      expect(first.length).toBeGreaterThan(100);
      expect(await ids(again.db)).toEqual(first);
      for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      await again.close();
    }
  });

  it('lets the demo patient log in with password, access key and one-time code', async () => {
    const p = DEMO.patients[0];
    const pw = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: p.hospNo, password: p.password } });
    expect(pw.status).toBe(200);
    const key = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: p.hospNo, accessKey: p.accessKey } });
    expect(key.status).toBe(200);
    expect(typeof key.json['expiresAt']).toBe('string');
    await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: p.hospNo } });
    const [mail] = await outboxCodes(h.dataDir);
    expect(mail?.text).toMatch(/To: admin@demo\.hospital/);
    const otp = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: p.hospNo, otp: mail?.code } });
    expect(otp.status).toBe(200);
  });

  it('gives each patient 90 days of plausible readings of all three types, medicines, symptoms, labs and appointments', async () => {
    for (const p of DEMO.patients) {
      const token = String((await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: p.hospNo, password: p.password } })).json['token']);
      const g = (await call(h.app, 'GET', '/api/glucose', { token })).json as Record<string, Reading[]>;
      const all = [...(g['fasting'] ?? []), ...(g['postprandial'] ?? []), ...(g['random'] ?? [])];
      for (const list of ['fasting', 'postprandial', 'random']) expect(g[list]?.length).toBeGreaterThan(20);
      const days = new Set(all.map((r) => r.recordedAt.slice(0, 10)));
      expect(days.size).toBeGreaterThan(70);
      const oldest = Math.min(...all.map((r) => Date.parse(r.recordedAt)));
      expect(Date.now() - oldest).toBeGreaterThan(85 * 86_400_000);
      expect(all.every((r) => r.value >= 20 && r.value <= 600 && Date.parse(r.recordedAt) <= Date.now())).toBe(true);
      const fasting = (g['fasting'] ?? []).map((r) => r.value);
      const typical = fasting.filter((v) => v >= 90 && v <= 160).length / fasting.length;
      expect(typical).toBeGreaterThan(0.7);
      expect(all.some((r) => r.value < 70)).toBe(true);
      expect(all.some((r) => r.value > 250)).toBe(true);

      const meds = (await call(h.app, 'GET', '/api/users/medicines', { token })).json['medicines'] as { name: string; dose: string; prescrNo: string }[];
      expect(meds.length).toBeGreaterThanOrEqual(2);
      expect(meds.every((m) => m.dose && m.prescrNo.startsWith('RX-'))).toBe(true);
      expect(meds.some((m) => m.name.startsWith('Sitagliptin'))).toBe(false); // ended 30 days ago
      expect(((await call(h.app, 'GET', '/api/symptoms', { token })).json['symptoms'] as unknown[]).length).toBeGreaterThan(5);
      const tests = (await call(h.app, 'GET', '/api/tests', { token })).json['tests'] as { name: string; unit: string }[];
      expect(new Set(tests.map((t) => t.name))).toEqual(
        new Set(['HbA1c', 'Total cholesterol', 'LDL cholesterol', 'HDL cholesterol', 'Triglycerides', 'Creatinine', 'eGFR']),
      );
      expect(tests.find((t) => t.name === 'HbA1c')?.unit).toBe('%');
      const appts = (await call(h.app, 'GET', '/api/appointments', { token })).json['appointments'] as { date: string }[];
      expect(appts.some((a) => Date.parse(a.date) > Date.now())).toBe(true);
    }
  });

  it('gives the demo admin both hospitals and finds the patients', async () => {
    const token = await loginAdmin(h.app, DEMO.admin.email, DEMO.admin.password);
    const users = await call(h.app, 'GET', '/api/admin/users?search=1000', { token });
    expect(users.json['total']).toBe(2);
    const read = await call(h.app, 'GET', '/api/glucose', { token, headers: { 'x-hosp-no': '100001' } });
    expect(read.status).toBe(200);
  });

  it('gives each hospital a dozen patients whose worklist shows every reason, a severe low first', async () => {
    const token = await loginAdmin(h.app, DEMO.admin.email, DEMO.admin.password);
    const hospitals = (await call(h.app, 'GET', '/api/admin/hospitals', { token })).json['hospitals'] as { _id: string; name: string }[];
    expect(hospitals.map((x) => x.name).sort()).toEqual([...DEMO.hospitals].sort());
    for (const hospital of hospitals) {
      const res = await call(h.app, 'GET', `/api/admin/worklist?hospitalId=${hospital._id}&limit=100`, { token });
      expect(res.status).toBe(200);
      const list = res.json['patients'] as { name: string; reasons: { code: string }[]; priority: { rank: number; tier: string | null } }[];
      expect(list.length, hospital.name).toBeGreaterThanOrEqual(12);
      const codes = new Set(list.flatMap((p) => p.reasons.map((r) => r.code)));
      expect([...codes].sort(), hospital.name).toEqual(['low-time', 'low-tir', 'missed-doses', 'no-data', 'rising-mean', 'severe-low', 'sparse-data']);
      expect(list[0]?.reasons[0]?.code).toBe('severe-low');
      // Some patients have nothing to act on: the list is not all alarms.
      expect(list.filter((p) => p.reasons.length === 0).length, hospital.name).toBeGreaterThanOrEqual(2);
      // By clinical weight: the order comparePriority gives the figures, the ward's time-below-range
      // patient above its sparse one (who may have a low or two among few readings), each saying why.
      const now = new Date();
      const { rows } = await worklistRepo.page(h.db, {
        hospitalId: hospital._id,
        days: WORKLIST_DAYS.default,
        now,
        limit: 100,
        offset: 0,
        rules: WORKLIST_RULES,
      });
      expect(list.map((p) => p.name)).toEqual(sortByPriority(rows, WORKLIST_DAYS.default, now).map((r) => r.name));
      const at = (pattern: 'low-time' | 'sparse-data') =>
        list.findIndex(
          (p) =>
            p.name ===
            wardNameOf(
              DEMO.hospitals.findIndex((n) => n === hospital.name),
              pattern,
            ),
        );
      expect(at('low-time')).toBeGreaterThanOrEqual(0);
      expect(at('low-time')).toBeLessThan(at('sparse-data'));
      list.forEach((p, i) => expect(p.priority).toMatchObject({ rank: i + 1, tier: p.reasons[0]?.code ?? null }));
    }
  });

  // Regression: at 02:48 UTC the sparse patient of one hospital had readings on 7 of 14 days (a
  // later check of a day, counted back from now, fell past midnight), so the worklist missed a reason.
  it('shows every reason whatever the time of day the demo data is made', async () => {
    const day = Date.UTC(2026, 10, 29);
    // 03:00 failed before the fix; the others are a night and an afternoon.
    for (const hour of [0, 3, 15]) {
      const now = new Date(day + hour * 3_600_000);
      const fresh = await createHarness();
      try {
        await seedDemo(fresh.db, now);
        const admin = await staffRepo.adminByEmail(fresh.db, DEMO.admin.email);
        for (const hospital of await staffRepo.hospitalsOfAdmin(fresh.db, admin?.id ?? '')) {
          const days = WORKLIST_DAYS.default;
          const { rows } = await worklistRepo.page(fresh.db, { hospitalId: hospital.id, days, now, limit: 100, offset: 0, rules: WORKLIST_RULES });
          const codes = new Set(rows.flatMap((r) => reasonsOf(r, days, now).map((x) => x.code)));
          expect([...codes].sort(), `${hospital.name} at ${now.toISOString()}`).toEqual([
            'low-time',
            'low-tir',
            'missed-doses',
            'no-data',
            'rising-mean',
            'severe-low',
            'sparse-data',
          ]);
        }
      } finally {
        await fresh.close();
      }
    }
  }, 240_000);
});
