import { useMemo } from 'react';
import { buildReport } from '../../../report/build-report.ts';
import type { GlucoseUnit } from '../../../schemas/glucose-units.ts';
import type { ReportModel } from '../../../report/types.ts';
import {
  PROFILE_ID,
  type Appointment,
  type GlucoseReading,
  type LabTest,
  type Medicine,
  type MedicineIntake,
  type ProfileDoc,
  type Symptom,
} from '../../../sync/storage/collections.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';
import { useLiveDocs } from '../../lib/use-live.ts';
import type { DateRange } from './range.ts';
import { queryWindow, reportInputFromLocal } from './report-input.ts';

export type LocalReport = { status: 'loading' } | { status: 'no-profile' } | { status: 'ready'; model: ReportModel };

/** The patient's profile document (plain), or null before the first sync brought it. */
export function useProfileDoc(db: EddyDatabase | undefined): ProfileDoc | null | undefined {
  const found = useLiveDocs<ProfileDoc>(db, (d) => d.profile.find({ selector: { _id: PROFILE_ID } }), []);
  return found === undefined ? undefined : (found[0] ?? null);
}

/**
 * The report over `range` from the device's own data, kept current as entries change (a reading
 * added offline shows at once). Only the range, the previous period and a day's margin are read and
 * decrypted; lab tests and medicines are few and are read whole (a result before the range is the
 * "before" of the latest one).
 */
export function useLocalReport(db: EddyDatabase | undefined, profile: ProfileDoc | null | undefined, range: DateRange, unit: GlucoseUnit): LocalReport {
  const { since, until } = queryWindow(range);
  const between = (field: string) => ({ [field]: { $gte: since, $lt: until } });
  const readings = useLiveDocs<GlucoseReading>(db, (d) => d.glucose.find({ selector: between('recordedAt') }), [since, until]);
  const intakes = useLiveDocs<MedicineIntake>(db, (d) => d.medicineIntakes.find({ selector: between('takenAt') }), [since, until]);
  const symptoms = useLiveDocs<Symptom>(db, (d) => d.symptoms.find({ selector: between('recordedAt') }), [since, until]);
  const appointments = useLiveDocs<Appointment>(db, (d) => d.appointments.find({ selector: between('date') }), [since, until]);
  const labTests = useLiveDocs<LabTest>(db, (d) => d.labTests.find(), []);
  const medicines = useLiveDocs<Medicine>(db, (d) => d.medicines.find(), []);

  return useMemo((): LocalReport => {
    if (profile === null) return { status: 'no-profile' };
    if (!profile || !readings || !intakes || !symptoms || !appointments || !labTests || !medicines) return { status: 'loading' };
    const input = reportInputFromLocal({ profile, readings, medicines, intakes, symptoms, labTests, appointments }, range, new Date().toISOString());
    return { status: 'ready', model: buildReport(input, unit) };
  }, [profile, readings, intakes, symptoms, appointments, labTests, medicines, range, unit]);
}
