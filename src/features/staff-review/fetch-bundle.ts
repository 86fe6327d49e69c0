import type { ApiClient } from '../../../sync/api-client.ts';
import { chosenPatientReads as records, staffReads, type StaffRead } from '../../lib/staff-api.ts';
import type { ReviewBundle } from './types.ts';

/**
 * Everything the report shows, in parallel. The record endpoints answer for the patient named by
 * the X-Hosp-No header the staff API client adds; the admin endpoints take the number in the path.
 */
export async function fetchReviewBundle(api: Pick<ApiClient, 'get'>, hospNo: string): Promise<ReviewBundle> {
  const get = <T>(r: StaffRead<T>) => api.get<T>(r.path);
  const [user, glucose, symptoms, tests, appointments, taken, prescriptions, users] = await Promise.all([
    get(records.profile()),
    get(records.glucose()),
    get(records.symptoms()),
    get(records.labTests()),
    get(records.appointments()),
    get(records.dosesTaken()),
    get(staffReads.prescriptions(hospNo)),
    get(staffReads.users({ search: hospNo })),
  ]);
  const listed = users.users.find((u) => u.hospNo === hospNo);
  return {
    hospNo,
    profile: user.user,
    glucose: { fasting: glucose.fasting ?? [], postprandial: glucose.postprandial ?? [], random: glucose.random ?? [] },
    symptoms: symptoms.symptoms,
    tests: tests.tests,
    appointments: appointments.appointments,
    prescriptions: prescriptions.prescriptions,
    doses: taken.taken,
    lastSyncAt: listed?.lastSyncAt ?? user.user.lastSyncAt ?? null,
  };
}
