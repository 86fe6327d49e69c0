// Patients, as staff find and admins manage them: the list, one patient, a new one, an edit (merged
// meal time by meal time), a new access key and a temporary password (each shown only once).
import type { AppContext } from '../../context.ts';
import type { PatientCreate, PatientPatch, UsersQuery } from '../../../schemas/admin.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { normaliseAccessKey, randomAccessKey } from '../../lib/access-key.ts';
import { hashPassword, randomToken, sha256 } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { accessKeyRepo } from '../../repositories/access-keys.ts';
import { patientRepo, type PatientRow } from '../../repositories/patients.ts';
import { staffRepo } from '../../repositories/staff.ts';
import { mealTimeChange } from '../meal-times.ts';
import { noteMadeNow } from '../record-made.ts';
import { MEAL_SLOTS } from '../../../schemas/dose-slot.ts';
import type { StaffPrincipal } from '../principal.ts';
import { alertDaysOf, normaliseDay } from '../profile-service.ts';
import { ADMIN_MSG, checkHospital, checkTimeZone, patientForStaff, type Admin } from './scope.ts';

export const patientDto = (p: PatientRow, hospital?: string) => ({
  _id: p.id,
  hospNo: p.hospNo,
  name: p.name,
  gender: p.gender,
  age: p.age,
  address: p.address,
  hospitalId: p.hospitalId,
  ...(hospital !== undefined ? { hospital } : {}),
  timeZone: p.timeZone,
  notificationTimings: p.notificationTimings,
  glucometerAlerts: alertDaysOf(p),
  hasPassword: p.passwordHash !== null,
  mustChangePassword: p.mustChangePassword,
  /** The `baseVersion` of an edit made on this copy. */
  version: p.version,
});

/** Staff-entered alert days must all be days: a typo is refused, not silently dropped. */
function checkAlertDays(field: string, days: readonly string[] | undefined): void {
  const bad = days?.find((d) => normaliseDay(d) === undefined);
  if (bad !== undefined) throw badRequest(`${field} must list weekdays (Monday to Sunday) or dates as YYYY-MM-DD; "${bad}" is neither`);
}

export async function listUsers(ctx: AppContext, principal: StaffPrincipal, q: UsersQuery) {
  const page = q.page ?? 1;
  const limit = q.limit ?? 5;
  if (q.hospitalId) checkHospital(principal, q.hospitalId);
  const { rows, total } = await patientRepo.search(ctx.db, {
    hospitalIds: q.hospitalId ? [q.hospitalId] : principal.hospitalIds,
    search: (q.search ?? '').trim(),
    page,
    limit,
  });
  return {
    users: rows.map((r) => ({ ...patientDto(r.patient, r.hospitalName), lastSyncAt: r.lastSeenAt?.toISOString() ?? null })),
    total,
    page,
    limit,
    pages: Math.ceil(total / limit),
  };
}

export async function getPatient(ctx: AppContext, principal: StaffPrincipal, hospNo: string) {
  const p = await patientForStaff(ctx, principal, hospNo);
  return { patient: patientDto(p) };
}

export async function createPatient(ctx: AppContext, principal: Admin, input: PatientCreate) {
  checkHospital(principal, input.hospitalId);
  checkTimeZone(input.timeZone);
  checkAlertDays('glucometerAlerts', input.glucometerAlerts);
  checkAlertDays('glucometerReadingAlerts', input.glucometerReadingAlerts);
  const [hospital] = await staffRepo.hospitalsByIds(ctx.db, [input.hospitalId]);
  if (!hospital) throw notFound(ADMIN_MSG.hospitalNotFound);
  try {
    const p = await patientRepo.insert(ctx.db, {
      hospNo: input.hospNo,
      hospitalId: input.hospitalId,
      name: input.name.trim(),
      gender: input.gender ?? null,
      age: input.age ?? null,
      address: input.address ?? null,
      timeZone: input.timeZone ?? hospital.timeZone,
      ...(input.notificationTimings ? { notificationTimings: input.notificationTimings } : {}),
      glucometerAlerts: alertDaysOf(input),
    });
    return { data: patientDto(p, hospital.name) };
  } catch (err) {
    if (isUniqueViolation(err)) {
      // Hospital numbers are unique across the group (a patient logs in with the number alone): one
      // taken in a hospital the caller may not see is refused without saying by whom.
      const holder = await patientRepo.byHospNo(ctx.db, input.hospNo);
      throw conflict(
        holder && principal.hospitalIds.includes(holder.hospitalId) ? ADMIN_MSG.hospNoTaken(input.hospNo) : ADMIN_MSG.hospNoUnusable(input.hospNo),
      );
    }
    throw err;
  }
}

export async function updatePatient(ctx: AppContext, principal: Admin, hospNo: string, input: PatientPatch) {
  if (input.hospitalId) checkHospital(principal, input.hospitalId);
  checkTimeZone(input.timeZone);
  checkAlertDays('glucometerAlerts', input.glucometerAlerts);
  checkAlertDays('glucometerReadingAlerts', input.glucometerReadingAlerts);
  return ctx.db.transaction(async (tx) => updatePatientIn({ ...ctx, db: tx }, principal, hospNo, input));
}

async function updatePatientIn(ctx: AppContext, principal: Admin, hospNo: string, input: PatientPatch) {
  const found = await patientForStaff(ctx, principal, hospNo);
  // Locked: the meal-time check below and the write cannot be split by a patient's write.
  const p = (await patientRepo.lock(ctx.db, found.id)) ?? found;
  const alerts = input.glucometerAlerts ?? input.glucometerReadingAlerts;
  // Meal times are merged one by one (only those sent, and only a changed value takes a new
  // version): a patient's queued edit of another meal time then meets no conflict and loses nothing.
  const timings = mealTimeChange(p, input.notificationTimings ?? {}, input.baseVersion);
  if (timings.conflicts.length > 0) throw conflict(ADMIN_MSG.mealTimesChanged(timings.conflicts), { current: patientDto(p), fields: timings.conflicts });
  // Staff change a meal time now: a patient's change made before it, sent again after a heal, stays out (services/record-made.ts).
  for (const meal of MEAL_SLOTS) if (timings.changes[meal] !== undefined) await noteMadeNow(ctx.db, p.id, `meal:${meal}`);
  const row = await patientRepo.update(
    ctx.db,
    p.id,
    {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.gender !== undefined ? { gender: input.gender } : {}),
      ...(input.age !== undefined ? { age: input.age } : {}),
      ...(input.address !== undefined ? { address: input.address } : {}),
      ...(input.hospitalId !== undefined ? { hospitalId: input.hospitalId } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      ...(alerts !== undefined ? { glucometerAlerts: alertDaysOf({ glucometerAlerts: alerts }) } : {}),
    },
    timings.changes,
  );
  if (!row) throw notFound(ADMIN_MSG.patientNotFound);
  return { data: patientDto(row) };
}

export async function issueAccessKey(ctx: AppContext, principal: Admin, hospNo: string, expiresInDays: number) {
  const p = await patientForStaff(ctx, principal, hospNo);
  const accessKey = randomAccessKey();
  const expiresAt = new Date(Date.now() + expiresInDays * 24 * 3600_000);
  await accessKeyRepo.replace(ctx.db, { patientId: p.id, keyHash: sha256(normaliseAccessKey(accessKey)), expiresAt, createdBy: principal.adminId });
  return { message: 'Access key issued. It is shown only once.', accessKey, expiresAt: expiresAt.toISOString() };
}

export async function setTemporaryPassword(ctx: AppContext, principal: Admin, hospNo: string) {
  const p = await patientForStaff(ctx, principal, hospNo);
  const temporaryPassword = `${randomToken(9)}`;
  await patientRepo.update(ctx.db, p.id, { passwordHash: await hashPassword(temporaryPassword), mustChangePassword: true });
  return { message: 'Temporary password set. It is shown only once; the patient should change it after logging in.', temporaryPassword };
}
