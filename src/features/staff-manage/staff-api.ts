// What the management endpoints answer (server/services/admin/), and the small helpers
// every management form shares. All calls go through the staff runtime's own API client.
import { ApiError } from '../../../sync/api-client.ts';
import { staffRuntime } from '../../lib/staff-runtime.ts';

export interface MealTimes {
  breakfast: string;
  lunch: string;
  dinner: string;
}

export interface AdminPatient {
  _id: string;
  hospNo: string;
  name: string;
  gender: string | null;
  age: number | null;
  address: string | null;
  hospitalId: string;
  notificationTimings: MealTimes;
  /** The patient record's version when it was read: a save states it, so it never puts back an older meal time. */
  version?: number;
}

export interface AdminPrescription {
  _id: string;
  prescrNo: string;
  name: string;
  dose: string;
  startDate: string | null;
  endDate: string | null;
  active: boolean;
}

export interface DoctorToken {
  _id: string;
  doctorName: string;
  hospitalIds: string[];
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

export interface AuditEntry {
  _id: string;
  at: string;
  actorKind: string;
  actor: string;
  hospNo: string | null;
  action: string;
  ip: string | null;
  userAgent: string | null;
}

export const staffApi = staffRuntime.api;

/** The server's own message when it gave one; otherwise the caller's fallback. */
export function failureText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}

export const patientPath = (hospNo: string) => `/admin/patients/${encodeURIComponent(hospNo)}`;

/** The server's rule for a hospital number (schemas/common.ts): letters, digits and - / . _. */
export const HOSP_NO_PATTERN = /^[A-Za-z0-9][A-Za-z0-9/._-]{0,31}$/;
