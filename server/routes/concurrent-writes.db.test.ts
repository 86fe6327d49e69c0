// Staff and the patient write one patient's records at the same moment (docs/sync-protocol.md,
// "Versions, not wall clocks"): every write takes the patient's version counter, and staff's profile
// edit locks the patient's row. Those two locks must never wait on each other in a circle. Found by
// the route fuzzing on PostgreSQL: a staff edit of the patient (row locked FOR UPDATE, then the
// counter) and a new prescription (counter, then the foreign key's KEY SHARE on the patient row)
// deadlocked, and PostgreSQL aborted one of them with a 500. On the embedded database, which runs one
// transaction at a time, this test passes either way; the PostgreSQL pass of CI is where it bites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let admin: string;
let patient: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  patient = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

describe('writes of one patient by staff and by the patient at the same moment', { timeout: 60_000 }, () => {
  it('all succeed: no deadlock between the patient row and the version counter', async () => {
    const base = `/api/admin/patients/${fx.patientA.hospNo}`;
    const statuses: string[] = [];
    for (let round = 0; round < 15; round++) {
      const writes = [
        call(h.app, 'PATCH', base, { token: admin, body: { name: `Patient A ${round}` } }),
        call(h.app, 'POST', `${base}/prescriptions`, { token: admin, body: { prescrNo: `RX-C-${round}`, name: 'Metformin', dose: '500 mg' } }),
        call(h.app, 'PATCH', base, { token: admin, body: { notificationTimings: { lunch: `13:${String(round).padStart(2, '0')}` } } }),
        call(h.app, 'POST', '/api/glucose/add', { token: patient, body: { type: 'Random', value: 100 + round } }),
        call(h.app, 'POST', '/api/users/glucometerAlerts', { token: patient, body: { day: 'Monday' } }),
        call(h.app, 'POST', '/api/users/notificationTimings', {
          token: patient,
          body: { breakfast: '07:00', lunch: '13:00', dinner: `20:${String(round).padStart(2, '0')}` },
        }),
      ];
      for (const res of await Promise.all(writes))
        if (res.status >= 300 && res.status !== 409) statuses.push(`${round}: ${res.status} ${res.body.slice(0, 120)}`);
    }
    expect(statuses).toEqual([]);
  });
});
