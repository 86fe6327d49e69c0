import type { ApiClient } from '../../../sync/api-client.ts';
import type {
  ReviewAppointment,
  ReviewBundle,
  ReviewDose,
  ReviewGlucose,
  ReviewLabTest,
  ReviewPrescription,
  ReviewProfile,
  ReviewSymptom,
} from './types.ts';

type Get = ApiClient['get'];

/**
 * Everything the report shows, in parallel. The record endpoints answer for the patient named by
 * the X-Hosp-No header the staff API client adds; the admin endpoints take the number in the path.
 */
export async function fetchReviewBundle(api: { get: Get }, hospNo: string): Promise<ReviewBundle> {
  const no = encodeURIComponent(hospNo);
  const [user, glucose, symptoms, tests, appointments, taken, prescriptions, users] = await Promise.all([
    api.get<{ user: ReviewProfile }>('/users/'),
    api.get<Partial<ReviewGlucose>>('/glucose'),
    api.get<{ symptoms: ReviewSymptom[] }>('/symptoms'),
    api.get<{ tests: ReviewLabTest[] }>('/tests'),
    api.get<{ appointments: ReviewAppointment[] }>('/appointments'),
    api.get<{ taken: ReviewDose[] }>('/user/medicines/taken'),
    api.get<{ prescriptions: ReviewPrescription[] }>(`/admin/patients/${no}/prescriptions`),
    api.get<{ users: { hospNo: string; lastSyncAt: string | null }[] }>(`/admin/users?search=${no}`),
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
