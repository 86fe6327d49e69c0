// The staff API as the staff screens call it: one function per call, its path written once, and its
// answer's type derived from the JSON Schema the server answers through (schemas/api.ts), its body's
// from the schema the server validates with (schemas/admin.ts, schemas/medicine.ts). A screen never
// spells a URL or states the type it hopes to get back; a changed answer on the server is a type
// error here. Reads are descriptions (`StaffRead`) that lib/use-staff-query.ts fetches (the review
// fetches its own, features/staff-review/fetch-bundle.ts); writes are sent at once.
import type { AuditQuery, DoctorTokenInput, HospitalInput, PatientCreate, PatientPatch, UsersQuery, WorklistQuery } from '../../schemas/admin.ts';
import type * as Answers from '../../schemas/api.ts';
import type { Answer } from '../../schemas/api.ts';
import type { PrescriptionInput } from '../../schemas/medicine.ts';
import { useMemo } from 'react';
import type { ApiClient } from '../../sync/api-client.ts';
import { useStaffRuntime } from './runtime-context.tsx';

/** A GET of the staff API and the type of its answer (carried by the type only). */
export interface StaffRead<T> {
  readonly path: string;
  /** Never set: it lets `useStaffQuery(read)` know what the answer is. */
  readonly answer?: T;
}

/** A query's named fields, each optional and possibly undefined (left out of the URL). */
type Params<Q> = { [K in keyof Q as string extends K ? never : K]?: Q[K] | undefined };

const read = <S>(path: string): StaffRead<Answer<S>> => ({ path });
const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};
const patientPath = (hospNo: string) => `/admin/patients/${encodeURIComponent(hospNo)}`;

export type StaffPatient = Answer<typeof Answers.patientRead>['patient'];
export type UsersPage = Answer<typeof Answers.usersPage>;
export type WorklistPage = Answer<typeof Answers.worklistPage>;
export type StaffPrescription = Answer<typeof Answers.prescriptions>['prescriptions'][number];
export type DoctorToken = Answer<typeof Answers.doctorTokens>['tokens'][number];
export type AuditEntry = Answer<typeof Answers.auditEntries>['entries'][number];
export type ManagedHospital = Answer<typeof Answers.hospitals>['hospitals'][number];

/** The staff API's reads, for useStaffQuery. */
export const staffReads = {
  users: (q: Params<UsersQuery>) =>
    read<typeof Answers.usersPage>(`/admin/users${query({ search: q.search, page: q.page, limit: q.limit, hospitalId: q.hospitalId })}`),
  worklist: (q: Params<WorklistQuery>) =>
    read<typeof Answers.worklistPage>(`/admin/worklist${query({ hospitalId: q.hospitalId, days: q.days, page: q.page, limit: q.limit })}`),
  patient: (hospNo: string) => read<typeof Answers.patientRead>(patientPath(hospNo)),
  prescriptions: (hospNo: string) => read<typeof Answers.prescriptions>(`${patientPath(hospNo)}/prescriptions`),
  /** One patient's review in one snapshot; with `since` (a version it answered) only what changed after it. */
  review: (hospNo: string, since?: number) => read<typeof Answers.patientReview>(`${patientPath(hospNo)}/review${query({ since })}`),
  doctorTokens: () => read<typeof Answers.doctorTokens>('/admin/doctor-tokens'),
  hospitals: () => read<typeof Answers.hospitals>('/admin/hospitals'),
  audit: (q: Params<AuditQuery>) => read<typeof Answers.auditEntries>(`/admin/audit${query({ hospNo: q.hospNo, before: q.before, limit: q.limit })}`),
};

/**
 * A staff member's writes to one patient's record on their way (issue 46). The live signal of such
 * a write can reach an open review before the write's own answer does; the review waits for the
 * write (whose answer asks it to refresh) instead of reading the review a second time.
 */
export const patientWrites = (() => {
  const onTheirWay = new Map<string, number>();
  const listeners = new Set<(hospNo: string) => void>();
  const add = (hospNo: string, n: number) => {
    const left = (onTheirWay.get(hospNo) ?? 0) + n;
    if (left > 0) onTheirWay.set(hospNo, left);
    else onTheirWay.delete(hospNo);
  };
  return {
    /** `write` counted as on its way for `hospNo` until it is answered (or fails). */
    track<T>(hospNo: string, write: Promise<T>): Promise<T> {
      add(hospNo, 1);
      return write.finally(() => {
        add(hospNo, -1);
        for (const l of listeners) l(hospNo);
      });
    },
    onTheirWay: (hospNo: string): boolean => onTheirWay.has(hospNo),
    /** Called as each write for a patient is answered. */
    subscribe(listener: (hospNo: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
})();

/** The staff API's writes (admins only: the server refuses a doctor), sent with the staff runtime's client `api`. */
export const staffWritesOf = (api: ApiClient) => ({
  createPatient: (body: PatientCreate) => api.post<Answer<typeof Answers.patientWritten>>('/admin/patients', body),
  updatePatient: (hospNo: string, body: PatientPatch) =>
    patientWrites.track(hospNo, api.patch<Answer<typeof Answers.patientWritten>>(patientPath(hospNo), body)),
  issueAccessKey: (hospNo: string, expiresInDays: number) =>
    api.post<Answer<typeof Answers.accessKeyIssued>>(`${patientPath(hospNo)}/access-key`, { expiresInDays }),
  setTemporaryPassword: (hospNo: string) => api.post<Answer<typeof Answers.temporaryPassword>>(`${patientPath(hospNo)}/temporary-password`),
  addPrescription: (hospNo: string, body: PrescriptionInput) =>
    patientWrites.track(hospNo, api.post<Answer<typeof Answers.prescriptionWritten>>(`${patientPath(hospNo)}/prescriptions`, body)),
  /** Its last day is `endDate`. */
  endPrescription: (hospNo: string, id: string, endDate: string) =>
    patientWrites.track(
      hospNo,
      api.post<Answer<typeof Answers.prescriptionWritten>>(`${patientPath(hospNo)}/prescriptions/${encodeURIComponent(id)}/end`, { endDate }),
    ),
  createDoctorToken: (body: DoctorTokenInput) => api.post<Answer<typeof Answers.doctorTokenCreated>>('/admin/doctor-tokens', body),
  /** Changes the fields sent; a null text setting goes back to none (or its default). */
  updateHospital: (id: string, body: Partial<HospitalInput>) =>
    api.patch<Answer<typeof Answers.hospitalWritten>>(`/admin/hospitals/${encodeURIComponent(id)}`, body),
  revokeDoctorToken: (id: string) => api.post<Answer<typeof Answers.message>>(`/admin/doctor-tokens/${encodeURIComponent(id)}/revoke`),
});

export type StaffWrites = ReturnType<typeof staffWritesOf>;

/** The staff API's writes, for a screen. */
export function useStaffWrites(): StaffWrites {
  const { api } = useStaffRuntime();
  return useMemo(() => staffWritesOf(api), [api]);
}
