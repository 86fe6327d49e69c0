// The device's report and the server's hold the same medicines: the demo patient's data pulled by
// the real replication into the device's encrypted database, read as the report screen reads it
// (use-local-report.ts), against the server's own report input for the same 90 days. The demo
// patient's Sitagliptin ended 30 days ago: the device held only active prescriptions and its report
// left it out, while the server's PDF listed it.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { RxCollection } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../../report/build-report.ts';
import type { ReportInput } from '../../../report/types.ts';
import type { AppContext } from '../../../server/context.ts';
import { patientRepo } from '../../../server/repositories/patients.ts';
import { DEMO, seedDemo } from '../../../server/seed/demo.ts';
import { reportInput } from '../../../server/services/report-service.ts';
import { createHarness, loginPatient, type Harness } from '../../../server/testing/harness.ts';
import { createApiClient } from '../../../sync/api-client.ts';
import { destroyDataKey } from '../../../sync/storage/crypto.ts';
import { clearOutbox } from '../../../sync/outbox.ts';
import { replicate, type RestMapping } from '../../../sync/replication.ts';
import { openEddyDatabase, type EddyDatabase } from '../../../sync/storage/database.ts';
import * as m from '../../lib/sync-mappings.ts';
import { presetRange, todayIn } from './range.ts';
import { queryWindow, reportInputFromLocal } from './report-input.ts';

let h: Harness;
let db: EddyDatabase;
let patientId: string;

beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
  const baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  const p = DEMO.patients[0];
  const token = await loginPatient(h.app, p.hospNo, p.password);
  patientId = (await patientRepo.byHospNo(h.db, p.hospNo))?.id ?? '';
  const api = createApiClient({ baseUrl, getToken: () => token });
  db = await openEddyDatabase({ name: `local-report-${randomUUID()}`, storage: getRxStorageMemory() });
  // What the app replicates for the report (src/lib/runtime.ts), each pulled once.
  const pull = async <D extends { _id: string }>(collection: RxCollection<D>, mapping: RestMapping<D>) => {
    const r = replicate({ collection, mapping, api, owner: p.hospNo, afterPush: () => undefined });
    const errors: unknown[] = [];
    r.error$.subscribe((e) => errors.push(e));
    await r.awaitInitialReplication();
    await r.awaitInSync();
    await r.cancel();
    expect(errors).toEqual([]);
  };
  await pull(db.profile, m.profileMapping);
  await pull(db.medicines, m.medicineMapping);
  await pull(db.medicineIntakes, m.medicineIntakeMapping);
  await pull(db.glucose, m.glucoseMapping);
  await pull(db.symptoms, m.symptomMapping);
  await pull(db.appointments, m.appointmentMapping);
  await pull(db.labTests, m.labTestMapping);
});
afterAll(async () => {
  await db.close();
  await clearOutbox();
  await destroyDataKey();
  await h.close();
});

/** The device's report input over `range`, read as useLocalReport reads it. */
async function deviceInput(range: ReportInput['range'], generatedAt: string): Promise<ReportInput> {
  const { since, until } = queryWindow(range);
  const between = (field: string) => ({ selector: { [field]: { $gte: since, $lt: until } } });
  const plain = <D>(docs: { toJSON(withMeta: false): D }[]) => docs.map((d) => d.toJSON(false));
  const profile = (await db.profile.findOne('profile').exec())?.toMutableJSON(false);
  if (!profile) throw new Error('no profile pulled');
  return reportInputFromLocal(
    {
      profile,
      readings: plain(await db.glucose.find(between('recordedAt')).exec()),
      medicines: plain(await db.medicines.find().exec()),
      intakes: plain(await db.medicineIntakes.find(between('takenAt')).exec()),
      symptoms: plain(await db.symptoms.find(between('recordedAt')).exec()),
      labTests: plain(await db.labTests.find().exec()),
      appointments: plain(await db.appointments.find(between('date')).exec()),
    },
    range,
    generatedAt,
  );
}

describe("the device's 90-day report", () => {
  it('lists a medicine that ended inside the period, with the same adherence rows as the server’s report', async () => {
    const now = new Date();
    const profile = (await db.profile.findOne('profile').exec())?.toJSON(false);
    const range = presetRange(90, todayIn(profile?.timeZone, now));
    const device = await deviceInput(range, now.toISOString());
    const server = await reportInput({ db: h.db } as unknown as AppContext, patientId, range, now);

    // Every prescription, ended ones too, on both sides.
    const meds = (input: ReportInput) => [...input.medicines].sort((a, b) => a.prescrNo.localeCompare(b.prescrNo));
    expect(meds(device)).toEqual(meds(server));
    const ended = device.medicines.find((x) => x.name === 'Sitagliptin 100 mg tablet');
    expect(ended?.endDate).toBeDefined();
    expect(ended?.endDate && ended.endDate >= range.from && ended.endDate < range.to).toBe(true);

    const adherence = buildReport(device, 'mg/dL').adherence;
    expect(adherence.map((a) => a.name)).toContain('Sitagliptin 100 mg tablet');
    expect(adherence).toEqual(buildReport(server, 'mg/dL').adherence);
  });
});
