// What every part of the staff area's management shares: who is an admin, the messages the API
// answers with, and the rule that staff act only within their own hospitals.
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { isValidTimeZone } from '../../lib/time.ts';
import { patientRepo, type PatientRow } from '../../repositories/patients.ts';
import { mealList } from '../meal-times.ts';
import type { StaffPrincipal } from '../principal.ts';

export type Admin = Extract<StaffPrincipal, { kind: 'admin' }>;

export const ADMIN_MSG = {
  patientNotFound: 'Patient not found',
  mealTimesChanged: (fields: Parameters<typeof mealList>[0]) =>
    `The ${mealList(fields)} time${fields.length === 1 ? ' was' : 's were'} changed by the patient or another staff member since this page was opened.`,
  hospitalNotFound: 'Hospital not found',
  hospNoTaken: (n: string) => `A patient with hospital number ${n} already exists`,
  /** Taken by a patient the caller may not see: said without saying so (issue 48). */
  hospNoUnusable: (n: string) => `Hospital number ${n} cannot be used. Check the number; if it is right, ask your hospital group's administrator.`,
  hospitalTaken: (n: string) => `A hospital named ${n} already exists`,
  /** Taken by a hospital the caller may not see. */
  hospitalNameUnusable: (n: string) => `The name ${n} cannot be used. Choose another name.`,
  groupAdminOnly: "Only the hospital group's administrator can add hospitals.",
  /** A group admin manages the hospitals granted to them, as any admin (README "Who may read what"): not every hospital. */
  tokenBeyondScope:
    'This doctor token also covers hospitals you do not manage: an admin who manages all of them, such as the one who created it, can revoke it.',
  prescrNoTaken: (n: string) => `Prescription number ${n} already exists for this patient`,
  badTimeZone: 'timeZone must be an IANA time zone such as Europe/London or Asia/Kolkata',
  badDate: (f: string) => `${f} must be a real calendar date (YYYY-MM-DD)`,
  endBeforeStart: 'endDate must not be before startDate',
  tokenNotFound: 'Doctor token not found',
  notYourHospital: 'You can only grant access to hospitals you manage',
} as const;

/** The patient with that number, if it belongs to one of the caller's hospitals. */
export async function patientForStaff(ctx: AppContext, principal: StaffPrincipal, hospNo: string): Promise<PatientRow> {
  const patient = await patientRepo.byHospNo(ctx.db, hospNo);
  // Same answer for another hospital's patient as for none: staff learn only about their own.
  if (!patient || !principal.hospitalIds.includes(patient.hospitalId)) throw notFound(ADMIN_MSG.patientNotFound);
  return patient;
}

/** Refuses a hospital the staff member may not see, with the same answer as for none. */
export function checkHospital(principal: StaffPrincipal, hospitalId: string): void {
  if (!principal.hospitalIds.includes(hospitalId)) throw notFound(ADMIN_MSG.hospitalNotFound);
}

export function checkTimeZone(tz: string | undefined): void {
  if (tz !== undefined && !isValidTimeZone(tz)) throw badRequest(ADMIN_MSG.badTimeZone);
}
