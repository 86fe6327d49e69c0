// What every management form shares: the answers' types (derived from the server's schemas in
// lib/staff-api.ts, where each call is written once), the refusal's wording and the hospital number's rule.
import { ApiError } from '../../../sync/api-client.ts';
import type { MealTimings } from '../../../schemas/user-profile.ts';

export type { AuditEntry, DoctorToken, StaffPatient as AdminPatient, StaffPrescription as AdminPrescription } from '../../lib/staff-api.ts';
export type MealTimes = MealTimings;

/** The server's own message when it gave one; otherwise the caller's fallback. */
export function failureText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}

/** The server's rule for a hospital number (schemas/common.ts): letters, digits and - / . _. */
export const HOSP_NO_PATTERN = /^[A-Za-z0-9][A-Za-z0-9/._-]{0,31}$/;
