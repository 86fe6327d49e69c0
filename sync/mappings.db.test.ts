import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithDeleted } from 'rxdb';
import { createHarness, loginPatient, type Harness } from '../server/testing/harness.ts';
import { DEMO, seedDemo } from '../server/seed/demo.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { appointmentMapping } from './appointment-sync.ts';
import { labTestMapping } from './lab-test-sync.ts';
import { medicineIntakeMapping } from './medicine-intake-sync.ts';
import { medicineMapping } from './medicine-sync.ts';
import { drainOutbox } from './drain.ts';
import { glucoseMapping } from './glucose-sync.ts';
import { clearOutbox, listRefusals, setReplaySession } from './outbox.ts';
import { PROFILE_DOC_ID, profileMapping } from './profile-sync.ts';
import { labTestReferenceMapping, symptomReferenceMapping } from './reference-sync.ts';
import { settleAutomatically } from './refusals.ts';
import { pullChanges, pushChanges, type RestMapping } from './replication.ts';
import { symptomMapping } from './symptom-sync.ts';

// Each collection's mapping against the real API with the demo patient's data.
let h: Harness;
let api: ApiClient;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  const p = DEMO.patients[0];
  const token = await loginPatient(h.app, p.hospNo, p.password);
  api = createApiClient({ baseUrl, getToken: () => token });
  await clearOutbox();
  await setReplaySession({ token, deviceId: 'device-mapping-test' });
});
afterAll(() => h.close());

async function roundTrip<D extends { _id: string }>(mapping: RestMapping<D>, doc: D, changed: D) {
  const w = (d: D, deleted = false) => ({ ...d, _deleted: deleted }) as WithDeleted<D>;
  await pushChanges(mapping, [{ newDocumentState: w(doc) }]);
  if (mapping.toOp(w(changed), false)) await pushChanges(mapping, [{ newDocumentState: w(changed), assumedMasterState: w(doc) }]);
  const sent = await drainOutbox({ baseUrl });
  expect(sent.rejected).toEqual([]);
  const pulled = (await pullChanges(api, mapping, undefined)).documents.find((d) => d._id === doc._id);
  await pushChanges(mapping, [{ newDocumentState: w(changed, true), assumedMasterState: w(changed) }]);
  await drainOutbox({ baseUrl });
  const after = (await pullChanges(api, mapping, undefined)).documents.find((d) => d._id === doc._id);
  return { pulled, after };
}

describe('collection mappings', () => {
  it("pull the demo patient's medicines, profile and reference lists", async () => {
    const meds = await pullChanges(api, medicineMapping, undefined);
    expect(meds.documents.length).toBeGreaterThanOrEqual(2);
    expect(meds.documents[0]).toMatchObject({ _deleted: false, prescrNo: expect.stringMatching(/^RX-/) });
    const profile = await pullChanges(api, profileMapping, undefined);
    expect(profile.documents).toHaveLength(1);
    expect(profile.documents[0]).toMatchObject({ _id: PROFILE_DOC_ID, hospNum: '100001', glucometerAlerts: ['Monday', 'Thursday'] });
    expect(Object.keys(profile.documents[0] ?? {})).not.toContain('lastSyncAt');
    const symptoms = await pullChanges(api, symptomReferenceMapping, undefined);
    expect(symptoms.documents.some((d) => d.name === 'Headache' && d._id.startsWith('ref-'))).toBe(true);
    const tests = await pullChanges(api, labTestReferenceMapping, undefined);
    expect(tests.documents.find((d) => d.name === 'HbA1c')).toMatchObject({ unit: '%' });
  });

  it('round-trip symptoms, appointments and lab tests through the outbox', async () => {
    const id = () => crypto.randomUUID();
    const at = new Date(Date.now() - 3600_000).toISOString();
    const s = { _id: id(), symptom: 'Blurred vision', recordedAt: at };
    const sym = await roundTrip(symptomMapping, s, s);
    expect(sym.pulled).toMatchObject({ symptom: 'Blurred vision' });
    // A pull from the start lists what was deleted, so a device that had it removes it.
    expect(sym.after).toEqual({ _id: s._id, _deleted: true });

    const a = { _id: id(), doctor: 'Dr. Rao', date: new Date(Date.now() + 86_400_000).toISOString(), notes: '' };
    const appt = await roundTrip(appointmentMapping, a, { ...a, notes: 'Bring the logbook' });
    expect(appt.pulled).toMatchObject({ doctor: 'Dr. Rao', notes: 'Bring the logbook' });
    expect(appt.after).toEqual({ _id: a._id, _deleted: true });

    const t = { _id: id(), name: 'HbA1c', value: 7.1, unit: null, recordedAt: at };
    const lab = await roundTrip(labTestMapping, t, { ...t, value: 6.9 });
    expect(lab.pulled).toMatchObject({ value: 6.9, unit: '%' });
    expect(lab.after).toEqual({ _id: t._id, _deleted: true });

    // A reading keeps the unit and number it was typed in through the outbox and back (issue 16).
    // …and the device's UTC offset when it was taken: a change that moves it to another zone's clock sends the new one.
    const g = { _id: id(), type: 'Random' as const, value: 180.2, unit: 'mmol/L' as const, enteredValue: 10, recordedAt: at, utcOffsetMinutes: 60 };
    const glu = await roundTrip(glucoseMapping, g, { ...g, value: 250.4, enteredValue: 13.9, utcOffsetMinutes: 330 });
    expect(glu.pulled).toMatchObject({ value: 250.4, unit: 'mmol/L', enteredValue: 13.9, utcOffsetMinutes: 330 });
    expect(glu.after).toEqual({ _id: g._id, _deleted: true });
  });
});

describe('settings and doses', () => {
  it('push a profile change as the calls that make the same difference on the server', async () => {
    const [before] = (await pullChanges(api, profileMapping, undefined)).documents;
    if (!before) throw new Error('no profile');
    const changed = { ...before, notificationTimings: { breakfast: '07:15', lunch: '12:45', dinner: '19:30' }, glucometerAlerts: ['Thursday', 'Saturday'] };
    const queued = await pushChanges(profileMapping, [{ newDocumentState: changed, assumedMasterState: before }]);
    // Each meal time changed on its own (so a care team's change of another is merged), Saturday
    // added, Monday removed; Thursday unchanged sends nothing.
    expect(queued).toBe(5);
    expect((await drainOutbox({ baseUrl })).rejected).toEqual([]);
    const [after] = (await pullChanges(api, profileMapping, undefined)).documents;
    expect(after).toMatchObject({ notificationTimings: changed.notificationTimings });
    expect([...(after?.glucometerAlerts ?? [])].sort()).toEqual(['Saturday', 'Thursday']);
    // The same state again is no change at all.
    expect(await pushChanges(profileMapping, [{ newDocumentState: changed, assumedMasterState: changed }])).toBe(0);
  });

  it('record a dose taken once, with the time it was taken, and pull it back', async () => {
    const [medicine] = (await pullChanges(api, medicineMapping, undefined)).documents;
    if (!medicine) throw new Error('no medicine');
    const takenAt = new Date(Date.now() - 600_000).toISOString();
    // An extra dose: the demo may have recorded this meal's dose already (one per meal slot is
    // proven in sync-protocol.db.test.ts).
    const dose = { _id: crypto.randomUUID(), prescrNo: medicine.prescrNo, medicineName: medicine.name, dose: medicine.dose, takenAt, extra: true };
    await pushChanges(medicineIntakeMapping, [{ newDocumentState: { ...dose, _deleted: false } }]);
    // A replay of the same write (crash between send and delete) stores nothing twice.
    await pushChanges(medicineIntakeMapping, [{ newDocumentState: { ...dose, _deleted: false } }]);
    expect((await drainOutbox({ baseUrl })).rejected).toEqual([]);
    const pulled = (await pullChanges(api, medicineIntakeMapping, undefined)).documents.filter((d) => d._id === dose._id);
    expect(pulled).toEqual([expect.objectContaining({ ...dose, _deleted: false })]);
  });

  it('make an add the server refuses for good disappear on the next pull', async () => {
    const today = new Date().toISOString();
    const first = { _id: crypto.randomUUID(), symptom: 'Dizziness', recordedAt: today };
    const second = { _id: crypto.randomUUID(), symptom: 'Dizziness', recordedAt: today };
    await pushChanges(symptomMapping, [{ newDocumentState: { ...first, _deleted: false } }, { newDocumentState: { ...second, _deleted: false } }]);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([expect.objectContaining({ status: 409, message: "You've already reported Dizziness today" })]);
    // Kept, sealed, until settled: the server already has what the patient meant, so it is settled
    // without asking, and the patient is told why.
    expect(await listRefusals()).toHaveLength(1);
    expect(await settleAutomatically()).toEqual(["You've already reported Dizziness today"]);
    expect(await listRefusals()).toEqual([]);
    const pulled = await pullChanges(api, symptomMapping, undefined);
    expect(pulled.documents).toContainEqual({ _id: second._id, _deleted: true });
    expect(pulled.documents.find((d) => d._id === first._id)).toMatchObject({ _deleted: false });
    // Handed out once: a later pull no longer mentions it.
    expect((await pullChanges(api, symptomMapping, undefined)).documents.some((d) => d._id === second._id)).toBe(false);
  });
});
