// A hospital's settings (the staff area's Manage page): admins set and clear them, out-of-range or
// malformed values are refused with a message saying what is wrong, and the patient's profile
// (GET /api/users/, which the device stores and the staff review reads) carries them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Settings {
  identifierSystem: string;
  urgentHighMgDl: number;
  careContact: string | null;
}

let h: Harness;
let fx: Fixture;
let patient: string;
let admin: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  patient = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
});
afterAll(() => h.close());

const patchHospital = (body: unknown) => call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: admin, body });

async function profileSettings(): Promise<Settings> {
  const res = await call(h.app, 'GET', '/api/users/', { token: patient });
  expect(res.status).toBe(200);
  return (res.json['user'] as { hospitalSettings: Settings }).hospitalSettings;
}

async function staffProfileSettings(): Promise<Settings> {
  const res = await call(h.app, 'GET', '/api/users/', { token: admin, headers: { 'x-hosp-no': fx.patientA.hospNo } });
  expect(res.status).toBe(200);
  return (res.json['user'] as { hospitalSettings: Settings }).hospitalSettings;
}

describe("a hospital's settings", () => {
  it('reach the profile with their defaults: the hospital id as identifier system, 400 mg/dL, no contact', async () => {
    const defaults = { identifierSystem: `urn:uuid:${fx.hospitalA.id}`, urgentHighMgDl: 400, careContact: null };
    expect(await profileSettings()).toEqual(defaults);
    expect(await staffProfileSettings()).toEqual(defaults);
  });

  it('are set by an admin and carried by the profile of every patient of the hospital', async () => {
    const res = await patchHospital({
      urgentHighMgDl: 350,
      careContact: ' Diabetes nurse, ext. 2210 (8 am to 8 pm) ',
      identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1',
    });
    expect(res.status).toBe(200);
    const set = { identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1', urgentHighMgDl: 350, careContact: 'Diabetes nurse, ext. 2210 (8 am to 8 pm)' };
    expect(res.json['data']).toMatchObject(set);
    expect(await profileSettings()).toEqual(set);
    expect(await staffProfileSettings()).toEqual(set);
    const a2 = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
    expect(((await call(h.app, 'GET', '/api/users/', { token: a2 })).json['user'] as { hospitalSettings: Settings }).hospitalSettings).toEqual(set);
    const list = await call(h.app, 'GET', '/api/admin/hospitals', { token: admin });
    expect((list.json['hospitals'] as (Settings & { _id: string })[]).find((x) => x._id === fx.hospitalA.id)).toMatchObject(set);
    // An http(s) namespace is accepted too.
    expect((await patchHospital({ identifierSystem: 'https://fhir.example-hospital.org/hospital-numbers' })).status).toBe(200);
    expect((await profileSettings()).identifierSystem).toBe('https://fhir.example-hospital.org/hospital-numbers');
  });

  it('are cleared by sending null or an empty text: no contact, the default identifier system', async () => {
    expect((await patchHospital({ careContact: null, identifierSystem: null })).status).toBe(200);
    expect(await profileSettings()).toEqual({ identifierSystem: `urn:uuid:${fx.hospitalA.id}`, urgentHighMgDl: 350, careContact: null });
    expect((await patchHospital({ careContact: 'Ward 4' })).status).toBe(200);
    expect((await patchHospital({ careContact: '   ' })).status).toBe(200);
    expect((await profileSettings()).careContact).toBeNull();
  });

  it.each([
    [{ urgentHighMgDl: 299 }, 'urgentHighMgDl must be between 300 and 500'],
    [{ urgentHighMgDl: 501 }, 'urgentHighMgDl must be between 300 and 500'],
    [{ urgentHighMgDl: '400' }, 'urgentHighMgDl must be a number'],
    [{ careContact: 'x'.repeat(201) }, 'careContact must be how patients reach the care team, shown in the advice (at most 200 characters), or null for none'],
    [{ identifierSystem: 'MRN' }, 'identifierSystem must be an absolute URI: urn:oid:…, urn:uuid:… or http(s)://…; null for the default'],
    [{ identifierSystem: 'urn:uuid:1234' }, 'identifierSystem must be an absolute URI: urn:oid:…, urn:uuid:… or http(s)://…; null for the default'],
  ])('refuse %j with a 400 that says what is wrong, and change nothing', async (body, message) => {
    const before = await profileSettings();
    const res = await patchHospital(body);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
    expect(await profileSettings()).toEqual(before);
  });

  it('are refused to a patient', async () => {
    const res = await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: patient, body: { urgentHighMgDl: 300 } });
    expect([401, 403]).toContain(res.status);
    expect((await profileSettings()).urgentHighMgDl).toBe(350);
  });
});
