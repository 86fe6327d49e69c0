// The staff area's management: hospitals, patients, access keys, temporary passwords,
// prescriptions, doctor tokens and the audit log. An admin acts only within their hospitals.
import type { AppContext } from '../context.ts';
import type { AuditQuery, DoctorTokenInput, HospitalInput, PatientCreate, PatientPatch, UsersQuery } from '../../schemas/admin.ts';
import type { PrescriptionInput, PrescriptionPatch } from '../../schemas/medicine.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { hashPassword, randomToken, sha256 } from '../lib/crypto.ts';
import { normaliseAccessKey, randomAccessKey } from '../lib/access-key.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { isRealDate, isValidTimeZone, localDate } from '../lib/time.ts';
import { accessKeyRepo } from '../repositories/access-keys.ts';
import { auditRepo } from '../repositories/audit.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo, type PatientRow } from '../repositories/patients.ts';
import { intakeRepo } from '../repositories/records.ts';
import { staffRepo, type DoctorTokenRow } from '../repositories/staff.ts';
import { hospitalDto, intakeDto, medicineDto } from './dto.ts';
import type { StaffPrincipal } from './principal.ts';
import { mealList, mealTimeChange } from './meal-times.ts';
import { alertDaysOf, normaliseDay } from './profile-service.ts';

type Admin = Extract<StaffPrincipal, { kind: 'admin' }>;

export const ADMIN_MSG = {
  patientNotFound: 'Patient not found',
  mealTimesChanged: (fields: Parameters<typeof mealList>[0]) =>
    `The ${mealList(fields)} time${fields.length === 1 ? ' was' : 's were'} changed by the patient or another staff member since this page was opened.`,
  hospitalNotFound: 'Hospital not found',
  hospNoTaken: (n: string) => `A patient with hospital number ${n} already exists`,
  hospitalTaken: (n: string) => `A hospital named ${n} already exists`,
  prescrNoTaken: (n: string) => `Prescription number ${n} already exists for this patient`,
  badTimeZone: 'timeZone must be an IANA time zone such as Europe/London or Asia/Kolkata',
  badDate: (f: string) => `${f} must be a real calendar date (YYYY-MM-DD)`,
  endBeforeStart: 'endDate must not be before startDate',
  tokenNotFound: 'Doctor token not found',
  notYourHospital: 'You can only grant access to hospitals you manage',
} as const;

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

const doctorTokenDto = (t: DoctorTokenRow) => ({
  _id: t.id,
  doctorName: t.doctorName,
  hospitalIds: t.hospitalIds,
  expiresAt: t.expiresAt.toISOString(),
  revokedAt: t.revokedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
});

/** The patient with that number, if it belongs to one of the caller's hospitals. */
export async function patientForStaff(ctx: AppContext, principal: StaffPrincipal, hospNo: string): Promise<PatientRow> {
  const patient = await patientRepo.byHospNo(ctx.db, hospNo);
  // Same answer for another hospital's patient as for none: staff learn only about their own.
  if (!patient || !principal.hospitalIds.includes(patient.hospitalId)) throw notFound(ADMIN_MSG.patientNotFound);
  return patient;
}

/** Staff-entered alert days must all be days: a typo is refused, not silently dropped. */
function checkAlertDays(field: string, days: readonly string[] | undefined): void {
  const bad = days?.find((d) => normaliseDay(d) === undefined);
  if (bad !== undefined) throw badRequest(`${field} must list weekdays (Monday to Sunday) or dates as YYYY-MM-DD; "${bad}" is neither`);
}

function checkTimeZone(tz: string | undefined): void {
  if (tz !== undefined && !isValidTimeZone(tz)) throw badRequest(ADMIN_MSG.badTimeZone);
}

/** Refuses a hospital the staff member may not see, with the same answer as for none. */
export function checkHospital(principal: StaffPrincipal, hospitalId: string): void {
  if (!principal.hospitalIds.includes(hospitalId)) throw notFound(ADMIN_MSG.hospitalNotFound);
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

export async function listHospitals(ctx: AppContext, principal: StaffPrincipal) {
  return { hospitals: (await staffRepo.hospitalsByIds(ctx.db, principal.hospitalIds)).map(hospitalDto) };
}

export async function createHospital(ctx: AppContext, principal: Admin, input: HospitalInput) {
  checkTimeZone(input.timeZone);
  try {
    const hospital = await ctx.db.transaction(async (tx) => {
      const h = await staffRepo.insertHospital(tx, {
        name: input.name.trim(),
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        ...(input.severeLowMgDl !== undefined ? { severeLowMgDl: input.severeLowMgDl } : {}),
      });
      await staffRepo.grantHospitals(tx, principal.adminId, [h.id]);
      return h;
    });
    return { data: hospitalDto(hospital) };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ADMIN_MSG.hospitalTaken(input.name.trim()));
    throw err;
  }
}

export async function updateHospital(ctx: AppContext, principal: Admin, id: string, input: Partial<HospitalInput>) {
  checkHospital(principal, id);
  checkTimeZone(input.timeZone);
  try {
    const row = await staffRepo.updateHospital(ctx.db, id, {
      ...(input.name ? { name: input.name.trim() } : {}),
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      ...(input.severeLowMgDl !== undefined ? { severeLowMgDl: input.severeLowMgDl } : {}),
    });
    if (!row) throw notFound(ADMIN_MSG.hospitalNotFound);
    return { data: hospitalDto(row) };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ADMIN_MSG.hospitalTaken(String(input.name)));
    throw err;
  }
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
    if (isUniqueViolation(err)) throw conflict(ADMIN_MSG.hospNoTaken(input.hospNo));
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

function checkDates(startDate: string | null | undefined, endDate: string | null | undefined): void {
  if (startDate && !isRealDate(startDate)) throw badRequest(ADMIN_MSG.badDate('startDate'));
  if (endDate && !isRealDate(endDate)) throw badRequest(ADMIN_MSG.badDate('endDate'));
  if (startDate && endDate && endDate < startDate) throw badRequest(ADMIN_MSG.endBeforeStart);
}

export async function listPrescriptions(ctx: AppContext, principal: StaffPrincipal, hospNo: string) {
  const p = await patientForStaff(ctx, principal, hospNo);
  const today = localDate(new Date(), p.timeZone);
  const rows = await medicineRepo.all(ctx.db, p.id);
  return {
    prescriptions: rows.map((r) => ({ ...medicineDto(r), active: r.endDate === null || r.endDate >= today })),
    taken: (await intakeRepo.listChanges(ctx.db, p.id)).rows.map(intakeDto),
  };
}

export async function addPrescription(ctx: AppContext, principal: Admin, hospNo: string, input: PrescriptionInput) {
  const p = await patientForStaff(ctx, principal, hospNo);
  checkDates(input.startDate, input.endDate);
  try {
    const row = await medicineRepo.insert(ctx.db, {
      patientId: p.id,
      prescrNo: input.prescrNo.trim(),
      name: input.name.trim(),
      dose: input.dose.trim(),
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      createdBy: principal.adminId,
    });
    return { data: medicineDto(row) };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ADMIN_MSG.prescrNoTaken(input.prescrNo.trim()));
    throw err;
  }
}

export async function updatePrescription(ctx: AppContext, principal: Admin, hospNo: string, id: string, input: PrescriptionPatch) {
  const p = await patientForStaff(ctx, principal, hospNo);
  const existing = await medicineRepo.byId(ctx.db, p.id, id);
  if (!existing) throw notFound('Prescription not found');
  checkDates(input.startDate !== undefined ? input.startDate : existing.startDate, input.endDate !== undefined ? input.endDate : existing.endDate);
  const row = await medicineRepo.update(ctx.db, p.id, id, {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.dose !== undefined ? { dose: input.dose.trim() } : {}),
    ...(input.startDate !== undefined ? { startDate: input.startDate } : {}),
    ...(input.endDate !== undefined ? { endDate: input.endDate } : {}),
  });
  return { data: medicineDto(row ?? existing) };
}

/** Ends a prescription: its last day is `endDate`, by default today in the patient's time zone. */
export async function endPrescription(ctx: AppContext, principal: Admin, hospNo: string, id: string, endDate: string | undefined) {
  const p = await patientForStaff(ctx, principal, hospNo);
  return updatePrescription(ctx, principal, hospNo, id, { endDate: endDate ?? localDate(new Date(), p.timeZone) });
}

export async function listDoctorTokens(ctx: AppContext, principal: Admin) {
  const rows = await staffRepo.doctorTokens(ctx.db);
  return { tokens: rows.filter((t) => t.hospitalIds.some((h) => principal.hospitalIds.includes(h))).map(doctorTokenDto) };
}

export const DOCTOR_TOKEN_MAX_DAYS = 90;

export async function createDoctorToken(ctx: AppContext, principal: Admin, input: DoctorTokenInput) {
  if (!input.hospitalIds.every((h) => principal.hospitalIds.includes(h))) throw forbidden(ADMIN_MSG.notYourHospital);
  const expiresAt = new Date(input.expiresAt);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt must be in the future');
  if (expiresAt.getTime() > Date.now() + DOCTOR_TOKEN_MAX_DAYS * 24 * 3600_000) throw badRequest(`expiresAt must be within ${DOCTOR_TOKEN_MAX_DAYS} days`);
  const token = randomToken();
  const row = await staffRepo.insertDoctorToken(ctx.db, {
    tokenHash: sha256(token),
    doctorName: input.doctorName.trim(),
    hospitalIds: [...new Set(input.hospitalIds)],
    expiresAt,
    createdBy: principal.adminId,
  });
  return { message: 'Doctor token created. It is shown only once.', token, data: doctorTokenDto(row) };
}

export async function revokeDoctorToken(ctx: AppContext, principal: Admin, id: string) {
  const row = await staffRepo.doctorTokenById(ctx.db, id);
  if (!row || !row.hospitalIds.some((h) => principal.hospitalIds.includes(h))) throw notFound(ADMIN_MSG.tokenNotFound);
  await staffRepo.revokeDoctorToken(ctx.db, id);
  return { message: 'Doctor token revoked' };
}

export async function auditEntries(ctx: AppContext, principal: Admin, q: AuditQuery) {
  const rows = await auditRepo.list(ctx.db, {
    hospitalIds: principal.hospitalIds,
    hospNo: q.hospNo,
    before: q.before ? new Date(q.before) : undefined,
    limit: q.limit ?? 100,
  });
  return {
    entries: rows.map((r) => ({
      _id: r.id,
      at: r.at.toISOString(),
      actorKind: r.actorKind,
      actor: r.actorLabel,
      hospNo: r.hospNo,
      action: r.action,
      ip: r.ip,
      userAgent: r.userAgent,
    })),
  };
}
