// docs/sync-protocol.md, "dose taken": one per prescription, patient-local day and meal slot unless
// it is an extra dose. A second tap (or a second device) is refused with the dose already recorded,
// and undo removes a dose.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Dose {
  _id: string;
  prescrNo: string;
  takenAt: string;
  slot: string | null;
  extra: boolean;
  version: number;
}

let h: Harness;
let fx: Fixture;
let token: string;
let admin: string;

/** An instant yesterday (UTC, the fixture's time zone) at HH:MM, and that day. */
const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
const at = (hhmm: string) => `${yesterday}T${hhmm}:00.000Z`;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db, 'UTC');
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  for (const prescrNo of ['RX-A', 'RX-B', 'RX-C', 'RX-D']) {
    const rx = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, {
      token: admin,
      body: { prescrNo, name: 'Metformin 500 mg', dose: '1-1-1' },
    });
    expect(rx.status).toBe(201);
  }
  const timings = await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: { breakfast: '07:00', lunch: '12:30', dinner: '19:00' } });
  expect(timings.status).toBe(200);
});
afterAll(() => h.close());

const take = (prescrNo: string, takenAt: string, extra: Record<string, unknown> = {}) =>
  call(h.app, 'POST', '/api/user/medicines/taken', { token, body: { prescrNo, medicineName: 'Metformin 500 mg', dose: '1-1-1', takenAt, ...extra } });
const undo = (intakeId: string, extra: Record<string, unknown> = {}) =>
  call(h.app, 'POST', '/api/user/medicines/taken/delete', { token, body: { intakeId, ...extra } });

describe('one dose per prescription, day and meal slot', () => {
  it('puts a dose in the meal whose time is nearest, or the slot given', async () => {
    expect(((await take('RX-A', at('11:50'))).json['data'] as Dose).slot).toBe('lunch');
    expect(((await take('RX-A', at('09:40'))).json['data'] as Dose).slot).toBe('breakfast');
    expect(((await take('RX-A', at('09:00'), { slot: 'dinner' })).json['data'] as Dose).slot).toBe('dinner');
  });

  it('refuses a second dose in the same slot with 409 and the dose already recorded', async () => {
    const first = await take('RX-B', at('07:05'));
    expect(first.status).toBe(200);
    const second = await take('RX-B', at('08:30'));
    expect(second.status).toBe(409);
    expect(second.json).toEqual({
      message: `Metformin 500 mg is already recorded as taken for breakfast on ${yesterday}.`,
      code: 'dose-already-recorded',
      current: first.json['data'],
    });
    // A replay of the first (same _id) still answers with the stored dose.
    const firstDose = first.json['data'] as Dose;
    const replay = await take('RX-B', at('07:05'), { _id: firstDose._id });
    expect(replay.status).toBe(200);
    expect(replay.json['data']).toEqual(firstDose);
  });

  it('accepts a dose marked extra', async () => {
    const extra = await take('RX-B', at('08:45'), { extra: true });
    expect(extra.status).toBe(200);
    expect(extra.json['data']).toMatchObject({ slot: 'breakfast', extra: true });
  });

  it('two taps at once record one dose', async () => {
    const [a, b] = await Promise.all([take('RX-C', at('19:10')), take('RX-C', at('19:11'))]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const list = await call(h.app, 'GET', '/api/user/medicines/taken', { token });
    expect((list.json['taken'] as Dose[]).filter((d) => d.prescrNo === 'RX-C')).toHaveLength(1);
  });

  it('undo removes the dose (repeatable), after which the slot can be marked again', async () => {
    const start = (await call(h.app, 'GET', '/api/user/medicines/taken?since=0&limit=5000', { token })).json['checkpoint'] as number;
    const dose = (await take('RX-D', at('13:00'))).json['data'] as Dose;
    const removed = await undo(dose._id, { baseVersion: dose.version });
    expect(removed.status).toBe(200);
    expect(removed.json['message']).toBe('Dose removed successfully');
    expect((await undo(dose._id)).status).toBe(200);
    const again = await take('RX-D', at('13:05'));
    expect(again.status).toBe(200);

    const pulled = await call(h.app, 'GET', `/api/user/medicines/taken?since=${start}`, { token });
    expect(pulled.json['deleted']).toEqual([dose._id]);
    expect((pulled.json['taken'] as Dose[]).map((d) => d._id)).toEqual([(again.json['data'] as Dose)._id]);
    const full = await call(h.app, 'GET', '/api/user/medicines/taken', { token });
    expect((full.json['taken'] as Dose[]).map((d) => d._id)).not.toContain(dose._id);
    // Staff see only the doses that stand.
    const staff = await call(h.app, 'GET', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, { token: admin });
    expect((staff.json['taken'] as Dose[]).map((d) => d._id)).not.toContain(dose._id);
  });

  it('answers 404 for a dose the patient never had, including another patient’s', async () => {
    expect((await undo(randomUUID())).status).toBe(404);
    const other = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    const mine = ((await take('RX-C', at('06:30'))).json['data'] as Dose)._id;
    const theirs = await call(h.app, 'POST', '/api/user/medicines/taken/delete', { token: other, body: { intakeId: mine } });
    expect(theirs.status).toBe(404);
    expect(theirs.json['message']).toBe('Dose not found');
  });

  it.each([
    [{ slot: 'supper' }, 'slot must be one of: breakfast, lunch, dinner'],
    [{ extra: 'yes' }, 'extra must be a boolean'],
  ])('refuses %j', async (extra, message) => {
    const res = await take('RX-A', at('10:00'), extra);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });
});
