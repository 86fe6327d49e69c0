import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface MedicineJson {
  _id: string;
  prescrNo: string;
  name: string;
  dose: string;
  endDate: string | null;
}
interface IntakeJson {
  _id: string;
  prescrNo: string;
  medicineName: string;
  dose: string;
  takenAt: string;
}

/** YYYY-MM-DD of `instant` in `timeZone`, computed independently of the server. */
function ymd(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
/** A YYYY-MM-DD date shifted by whole days. */
function shift(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

let h: Harness;
let fx: Fixture;
let token: string;
let adminToken: string;
const ids: Record<'open' | 'yesterday' | 'today' | 'tomorrow', string> = { open: '', yesterday: '', today: '', tomorrow: '' };
let beforeCreate: string;

async function prescribe(hospNo: string, body: Record<string, unknown>): Promise<MedicineJson> {
  const res = await call(h.app, 'POST', `/api/admin/patients/${hospNo}/prescriptions`, { token: adminToken, body });
  expect(res.status).toBe(201);
  return res.json['data'] as MedicineJson;
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  const today = ymd(new Date(), 'UTC');
  beforeCreate = new Date(Date.now() - 1000).toISOString();
  ids.open = (await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-OPEN', name: 'Metformin', dose: '500 mg twice daily' }))._id;
  ids.yesterday = (await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-YDAY', name: 'Amoxicillin', dose: '250 mg', endDate: shift(today, -1) }))._id;
  ids.today = (await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-TODAY', name: 'Glimepiride', dose: '1 mg', endDate: today }))._id;
  ids.tomorrow = (await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-TMRW', name: 'Insulin glargine', dose: '10 units', endDate: shift(today, 1) }))._id;
  await prescribe(fx.patientA2.hospNo, { prescrNo: 'RX-OTHER', name: 'Sitagliptin', dose: '100 mg' });
});
afterAll(() => h.close());

describe('active medicines', () => {
  it('lists only medicines with no end date or an end date today or later', async () => {
    const res = await call(h.app, 'GET', '/api/users/medicines', { token });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const meds = res.json['medicines'] as MedicineJson[];
    expect(meds.map((m) => m.prescrNo).sort()).toEqual(['RX-OPEN', 'RX-TMRW', 'RX-TODAY']);
    const open = meds.find((m) => m.prescrNo === 'RX-OPEN');
    expect(open).toMatchObject({ _id: ids.open, name: 'Metformin', dose: '500 mg twice daily', endDate: null });
    expect(res.json['deleted']).toBeUndefined();
  });

  it('answers ?since= with the changes and the ended medicine among the deleted ids', async () => {
    const res = await call(h.app, 'GET', `/api/users/medicines?since=${encodeURIComponent(beforeCreate)}`, { token });
    expect(res.status).toBe(200);
    expect((res.json['medicines'] as MedicineJson[]).map((m) => m._id).sort()).toEqual([ids.open, ids.today, ids.tomorrow].sort());
    expect(res.json['deleted']).toEqual([ids.yesterday]);

    const later = await call(h.app, 'GET', `/api/users/medicines?since=${encodeURIComponent(new Date().toISOString())}`, { token });
    expect(later.status).toBe(200);
    expect(later.json['medicines']).toEqual([]);
    expect(later.json['deleted']).toEqual([ids.yesterday]);

    const bad = await call(h.app, 'GET', '/api/users/medicines?since=garbage', { token });
    expect(bad.status).toBe(400);
    expect(String(bad.json['message'])).toMatch(/^since must be a valid ISO date/);
  });

  it('staff cannot prescribe with a blank prescription number, name or dose', async () => {
    for (const [field, body] of [
      ['prescrNo', { prescrNo: '   ', name: 'Metformin', dose: '1' }],
      ['name', { prescrNo: 'RX-BLANK-1', name: '   ', dose: '1' }],
      ['dose', { prescrNo: 'RX-BLANK-2', name: 'Metformin', dose: ' ' }],
    ] as const) {
      const res = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, { token: adminToken, body });
      expect([field, res.status, res.json['message']]).toEqual([field, 400, `${field} must not be empty`]);
    }
  });

  it('ending a prescription today keeps it active until the end of the day', async () => {
    const created = await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-END', name: 'Atorvastatin', dose: '20 mg' });
    const end = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions/${created._id}/end`, { token: adminToken });
    expect(end.status).toBe(200);
    expect((end.json['data'] as MedicineJson).endDate).toBe(ymd(new Date(), 'UTC'));
    const list = await call(h.app, 'GET', '/api/users/medicines', { token });
    expect((list.json['medicines'] as MedicineJson[]).map((m) => m.prescrNo)).toContain('RX-END');
  });

  it('shows a patient only their own medicines, and staff through X-Hosp-No', async () => {
    const other = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const res = await call(h.app, 'GET', '/api/users/medicines', { token: other, headers: { 'x-hosp-no': fx.patientA.hospNo } });
    expect((res.json['medicines'] as MedicineJson[]).map((m) => m.prescrNo)).toEqual(['RX-OTHER']);
    const staff = await call(h.app, 'GET', '/api/users/medicines', { token: adminToken, headers: { 'x-hosp-no': fx.patientA.hospNo } });
    expect(staff.status).toBe(200);
    expect((staff.json['medicines'] as MedicineJson[]).map((m) => m.prescrNo)).toContain('RX-OPEN');
    const anon = await call(h.app, 'GET', '/api/users/medicines');
    expect(anon.status).toBe(401);
  });
});

describe('every prescription (?include=ended), for the app that keeps ended ones for its report', () => {
  interface Pulled {
    medicines: (MedicineJson & { startDate: string | null; version: number })[];
    deleted?: string[];
    checkpoint?: number;
    next?: number;
  }
  const get = async (query: string) => {
    const res = await call(h.app, 'GET', `/api/users/medicines${query}`, { token });
    expect(res.status).toBe(200);
    return res.json as unknown as Pulled;
  };
  const mine = () => new Set(Object.values(ids));

  it('lists ended prescriptions with their dates beside the active ones, the patient’s own only', async () => {
    const all = await get('?include=ended');
    expect(
      all.medicines
        .filter((m) => mine().has(m._id))
        .map((m) => m.prescrNo)
        .sort(),
    ).toEqual(['RX-OPEN', 'RX-TMRW', 'RX-TODAY', 'RX-YDAY']);
    expect(all.medicines.find((m) => m._id === ids.yesterday)).toMatchObject({ name: 'Amoxicillin', endDate: shift(ymd(new Date(), 'UTC'), -1) });
    expect(all.medicines.map((m) => m.prescrNo)).not.toContain('RX-OTHER');
    // As the plain list: no `deleted` without `since`.
    expect(all.deleted).toBeUndefined();
  });

  it('pulls by version with the ended ones as rows, and `deleted` empty: a prescription is ended, never deleted', async () => {
    const toEnd = await prescribe(fx.patientA.hospNo, { prescrNo: 'RX-TO-END', name: 'Pioglitazone', dose: '1-0-0' });
    const first = await get('?since=0&include=ended');
    expect(
      first.medicines
        .filter((m) => mine().has(m._id))
        .map((m) => m._id)
        .sort(),
    ).toEqual(Object.values(ids).sort());
    expect(first.medicines.map((m) => m._id)).toContain(toEnd._id);
    expect(first.deleted).toEqual([]);
    expect(first.checkpoint).toBe(Math.max(...first.medicines.map((m) => m.version)));
    // Nothing changed: nothing to pull, and still nothing deleted, however many have ended.
    expect(await get(`?since=${String(first.checkpoint)}&include=ended`)).toEqual({ medicines: [], deleted: [], checkpoint: first.checkpoint });

    // Ended by staff: the next pull brings the row with its end date, not a deletion.
    const ended = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions/${toEnd._id}/end`, {
      token: adminToken,
      body: { endDate: shift(ymd(new Date(), 'UTC'), -2) },
    });
    expect(ended.status).toBe(200);
    const after = await get(`?since=${String(first.checkpoint)}&include=ended`);
    expect(after.medicines.map((m) => [m._id, m.endDate])).toEqual([[toEnd._id, shift(ymd(new Date(), 'UTC'), -2)]]);
    expect(after.deleted).toEqual([]);

    // The same pull without the parameter is the base call's, unchanged: active rows only, every
    // ended one among `deleted`.
    const plain = await get(`?since=${String(first.checkpoint)}`);
    expect(plain.medicines).toEqual([]);
    expect([...(plain.deleted ?? [])].sort()).toEqual([toEnd._id, ids.yesterday].sort());
    const plainAll = await get('');
    expect(plainAll.medicines.map((m) => m._id)).not.toContain(ids.yesterday);
    expect(plainAll.medicines.map((m) => m._id)).not.toContain(toEnd._id);
    expect(plainAll.medicines.map((m) => m._id)).toContain(ids.today);
    expect(plainAll.deleted).toBeUndefined();
  });

  it('pages by version as every list does', async () => {
    const page = await get('?since=0&limit=1&include=ended');
    expect(page.medicines).toHaveLength(1);
    expect(page.next).toBe(page.checkpoint);
    expect(page.deleted).toEqual([]);
  });

  it('answers ?since=<ISO time> with the prescriptions changed since, ended ones too', async () => {
    const res = await get(`?since=${encodeURIComponent(beforeCreate)}&include=ended`);
    expect(res.medicines.map((m) => m._id)).toContain(ids.yesterday);
    expect(res.deleted).toEqual([]);
  });

  it('is described in the published OpenAPI document', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json<{ paths: Record<string, { get?: { parameters?: { name: string; in: string; schema?: { enum?: string[] } }[] } }> }>();
    const include = doc.paths['/api/users/medicines']?.get?.parameters?.find((p) => p.name === 'include');
    expect(include).toMatchObject({ in: 'query', schema: { enum: ['ended'] } });
  });

  it('refuses an include it does not know', async () => {
    const res = await call(h.app, 'GET', '/api/users/medicines?include=deleted', { token });
    expect(res.status).toBe(400);
    expect(String(res.json['message'])).toMatch(/^include/);
  });
});

describe('marking a medicine taken', () => {
  it('records the intake', async () => {
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token,
      body: { prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg twice daily' },
    });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Medicine recorded successfully');
    const data = res.json['data'] as IntakeJson;
    expect(data).toMatchObject({ prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg twice daily' });
    expect(Date.parse(data.takenAt)).toBeGreaterThan(Date.now() - 60_000);
    const list = await call(h.app, 'GET', '/api/user/medicines/taken', { token });
    expect(list.status).toBe(200);
    expect((list.json['taken'] as IntakeJson[]).map((t) => t._id)).toContain(data._id);
  });

  it('answers 404 for an unknown prescription number, including another patient’s', async () => {
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', { token, body: { prescrNo: 'RX-NOPE', medicineName: 'Metformin', dose: '1' } });
    expect(res.status).toBe(404);
    expect(res.json['message']).toBe('No medicine with prescription number RX-NOPE was found');
    const foreign = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token,
      body: { prescrNo: 'RX-OTHER', medicineName: 'Sitagliptin', dose: '100 mg' },
    });
    expect(foreign.status).toBe(404);
  });

  it('replaying with the same _id creates one intake', async () => {
    const _id = randomUUID();
    const body = { _id, prescrNo: 'RX-TODAY', medicineName: 'Glimepiride', dose: '1 mg', takenAt: new Date(Date.now() - 3600_000).toISOString() };
    const first = await call(h.app, 'POST', '/api/user/medicines/taken', { token, body });
    const second = await call(h.app, 'POST', '/api/user/medicines/taken', { token, body });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json['message']).toBe('Medicine recorded successfully');
    expect(second.json['data']).toEqual(first.json['data']);
    expect((first.json['data'] as IntakeJson).takenAt).toBe(body.takenAt);
    const list = await call(h.app, 'GET', '/api/user/medicines/taken', { token });
    expect((list.json['taken'] as IntakeJson[]).filter((t) => t._id === _id)).toHaveLength(1);
  });

  it('lists intakes with ?since=', async () => {
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token,
      body: { prescrNo: 'RX-TMRW', medicineName: 'Insulin glargine', dose: '10 units' },
    });
    const id = (res.json['data'] as IntakeJson)._id;
    const delta = await call(h.app, 'GET', `/api/user/medicines/taken?since=${encodeURIComponent(since)}`, { token });
    expect(delta.status).toBe(200);
    expect((delta.json['taken'] as IntakeJson[]).map((t) => t._id)).toEqual([id]);
  });

  it.each([
    [{ medicineName: 'Metformin', dose: '500 mg' }, 'prescrNo is required'],
    [{ prescrNo: 'RX-OPEN', dose: '500 mg' }, 'medicineName is required'],
    [{ prescrNo: 'RX-OPEN', medicineName: 'Metformin' }, 'dose is required'],
    [{ prescrNo: '', medicineName: 'Metformin', dose: '500 mg' }, 'prescrNo must not be empty'],
    [{ prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg', _id: 'abc' }, '_id must be a valid UUID'],
    [
      { prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg', takenAt: 'now' },
      'takenAt must be a valid ISO date and time (for example 2026-11-22T08:30:00Z)',
    ],
    [null, 'The request body must be a JSON object'],
    [{ prescrNo: 'RX-OPEN', medicineName: '   ', dose: '500 mg' }, 'medicineName must not be empty'],
    [{ prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '  ' }, 'dose must not be empty'],
  ])('rejects %j with a message naming the field', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });

  it('refuses an intake from the future', async () => {
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token,
      body: { prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg', takenAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('takenAt cannot be in the future: check the date and time of the device');
  });

  it('is the patient’s own write: staff get 403', async () => {
    const res = await call(h.app, 'POST', '/api/user/medicines/taken', {
      token: adminToken,
      headers: { 'x-hosp-no': fx.patientA.hospNo },
      body: { prescrNo: 'RX-OPEN', medicineName: 'Metformin', dose: '500 mg' },
    });
    expect(res.status).toBe(403);
    expect(typeof res.json['message']).toBe('string');
  });
});

describe('active medicines use the patient’s own "today"', () => {
  // Kiritimati is UTC+14 and Pago Pago UTC-11: at any instant Pago Pago's date is before
  // Kiritimati's, so a medicine ending on Pago Pago's today has ended for a Kiritimati patient.
  let k: Harness;
  let kToken: string;
  let kAdmin: string;
  let kfx: Fixture;

  beforeAll(async () => {
    k = await createHarness();
    kfx = await seedFixture(k.db, 'Pacific/Kiritimati');
    kToken = await loginPatient(k.app, kfx.patientA.hospNo, kfx.patientA.password);
    kAdmin = await loginAdmin(k.app, kfx.adminEmail, kfx.adminPassword);
  });
  afterAll(() => k.close());

  it('counts end dates against the patient’s local date', async () => {
    const now = new Date();
    const localToday = ymd(now, 'Pacific/Kiritimati');
    const behind = ymd(now, 'Pacific/Pago_Pago');
    expect(behind < localToday).toBe(true);
    const mk = async (prescrNo: string, endDate: string) => {
      const res = await call(k.app, 'POST', `/api/admin/patients/${kfx.patientA.hospNo}/prescriptions`, {
        token: kAdmin,
        body: { prescrNo, name: prescrNo, dose: '1', endDate },
      });
      expect(res.status).toBe(201);
    };
    await mk('ENDED', behind);
    await mk('LAST-DAY', localToday);
    const res = await call(k.app, 'GET', '/api/users/medicines', { token: kToken });
    expect((res.json['medicines'] as MedicineJson[]).map((m) => m.prescrNo)).toEqual(['LAST-DAY']);
  });
});
