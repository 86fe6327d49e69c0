// Doctor tokens: read access for a doctor to some of an admin's hospitals, until a date at most 90
// days away; the token is shown once and only its hash is kept; revoking ends access at once.
import type { AppContext } from '../../context.ts';
import type { DoctorTokenInput } from '../../../schemas/admin.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { staffRepo, type DoctorTokenRow } from '../../repositories/staff.ts';
import { ADMIN_MSG, type Admin } from './scope.ts';

const doctorTokenDto = (t: DoctorTokenRow) => ({
  _id: t.id,
  doctorName: t.doctorName,
  hospitalIds: t.hospitalIds,
  expiresAt: t.expiresAt.toISOString(),
  revokedAt: t.revokedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
});

export async function listDoctorTokens(ctx: AppContext, principal: Admin) {
  const rows = await staffRepo.doctorTokens(ctx.db);
  // A token that also covers other hospitals is listed with the caller's hospitals only: the others are not theirs to see.
  return {
    tokens: rows
      .filter((t) => t.hospitalIds.some((h) => principal.hospitalIds.includes(h)))
      .map((t) => doctorTokenDto({ ...t, hospitalIds: t.hospitalIds.filter((h) => principal.hospitalIds.includes(h)) })),
  };
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
  // Revoking ends the doctor's access everywhere it reaches: only someone who manages all of it may.
  if (!row.hospitalIds.every((h) => principal.hospitalIds.includes(h))) throw forbidden(ADMIN_MSG.tokenBeyondScope);
  await staffRepo.revokeDoctorToken(ctx.db, id);
  return { message: 'Doctor token revoked' };
}
