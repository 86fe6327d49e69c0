import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithDeleted } from 'rxdb';
import { createHarness, loginPatient, type Harness } from '../server/testing/harness.ts';
import { DEMO, seedDemo } from '../server/seed/demo.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { appointmentMapping } from './appointment-sync.ts';
import { labTestMapping } from './lab-test-sync.ts';
import { medicineMapping } from './medicine-sync.ts';
import { clearOutbox, drainOutbox, setReplaySession } from './outbox.ts';
import { PROFILE_DOC_ID, profileMapping } from './profile-sync.ts';
import { labTestReferenceMapping, symptomReferenceMapping } from './reference-sync.ts';
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

async function roundTrip<D extends { _id: string; updatedAt?: string }>(mapping: RestMapping<D>, doc: D, changed: D) {
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
    expect(sym.after).toBeUndefined();

    const a = { _id: id(), doctor: 'Dr. Rao', date: new Date(Date.now() + 86_400_000).toISOString(), notes: '' };
    const appt = await roundTrip(appointmentMapping, a, { ...a, notes: 'Bring the logbook' });
    expect(appt.pulled).toMatchObject({ doctor: 'Dr. Rao', notes: 'Bring the logbook' });
    expect(appt.after).toBeUndefined();

    const t = { _id: id(), name: 'HbA1c', value: 7.1, unit: null, recordedAt: at };
    const lab = await roundTrip(labTestMapping, t, { ...t, value: 6.9 });
    expect(lab.pulled).toMatchObject({ value: 6.9, unit: '%' });
    expect(lab.after).toBeUndefined();
  });
});
