// Hospitals, as admins manage them: the ones they may see, a new one (granted to its creator), a rename.
import type { AppContext } from '../../context.ts';
import type { HospitalInput } from '../../../schemas/admin.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { staffRepo } from '../../repositories/staff.ts';
import { staffMfaRepo } from '../../repositories/staff-mfa.ts';
import { hospitalDto } from '../dto.ts';
import type { StaffPrincipal } from '../principal.ts';
import { ADMIN_MSG, checkHospital, checkTimeZone, type Admin } from './scope.ts';

/** The settings an admin sent; blank texts clear theirs (back to the default). */
function settingsOf(input: Partial<HospitalInput>) {
  const text = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
  const identifierSystem = text(input.identifierSystem);
  const careContact = text(input.careContact);
  return {
    ...(input.severeLowMgDl !== undefined ? { severeLowMgDl: input.severeLowMgDl } : {}),
    ...(input.urgentHighMgDl !== undefined ? { urgentHighMgDl: input.urgentHighMgDl } : {}),
    ...(identifierSystem !== undefined ? { identifierSystem } : {}),
    ...(careContact !== undefined ? { careContact } : {}),
    ...(input.requireStaffMfa !== undefined ? { requireStaffMfa: input.requireStaffMfa } : {}),
  };
}

export async function listHospitals(ctx: AppContext, principal: StaffPrincipal) {
  return { hospitals: (await staffRepo.hospitalsByIds(ctx.db, principal.hospitalIds)).map(hospitalDto) };
}

/** A hospital name taken: named as such only when the caller manages the hospital that has it. */
async function nameTaken(ctx: AppContext, principal: Admin, name: string) {
  const holder = await staffRepo.hospitalByName(ctx.db, name);
  return conflict(holder && principal.hospitalIds.includes(holder.id) ? ADMIN_MSG.hospitalTaken(name) : ADMIN_MSG.hospitalNameUnusable(name));
}

/** Adding a hospital is the group administrator's (admins.group_admin); a hospital's admin manages their own. */
export async function createHospital(ctx: AppContext, principal: Admin, input: HospitalInput) {
  if (!principal.groupAdmin) throw forbidden(ADMIN_MSG.groupAdminOnly);
  checkTimeZone(input.timeZone);
  try {
    const hospital = await ctx.db.transaction(async (tx) => {
      const h = await staffRepo.insertHospital(tx, {
        name: input.name.trim(),
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        ...settingsOf(input),
      });
      await staffRepo.grantHospitals(tx, principal.adminId, [h.id]);
      return h;
    });
    return { data: hospitalDto(hospital) };
  } catch (err) {
    if (isUniqueViolation(err)) throw await nameTaken(ctx, principal, input.name.trim());
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
      ...settingsOf(input),
    });
    if (!row) throw notFound(ADMIN_MSG.hospitalNotFound);
    // A second factor now asked for: the sessions of its admins opened without one end (the
    // caller's goes on, and their next login sets one up).
    if (input.requireStaffMfa === true) await staffMfaRepo.endSessionsWithoutSecondFactor(ctx.db, id, principal.sessionId, new Date());
    return { data: hospitalDto(row) };
  } catch (err) {
    if (isUniqueViolation(err)) throw await nameTaken(ctx, principal, String(input.name).trim());
    throw err;
  }
}
