// A patient's prescriptions, as staff read and admins manage them: the list with what was taken, a new
// one, an edit, and ending one on a given last day.
import type { AppContext } from '../../context.ts';
import type { PrescriptionInput, PrescriptionPatch } from '../../../schemas/medicine.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { isRealDate, localDate } from '../../lib/time.ts';
import { medicineRepo } from '../../repositories/medicines.ts';
import type { PatientRow } from '../../repositories/patients.ts';
import { intakeRepo } from '../../repositories/records.ts';
import { intakeDto, medicineDto } from '../dto.ts';
import type { StaffPrincipal } from '../principal.ts';
import { ADMIN_MSG, patientForStaff, type Admin } from './scope.ts';

function checkDates(startDate: string | null | undefined, endDate: string | null | undefined): void {
  if (startDate && !isRealDate(startDate)) throw badRequest(ADMIN_MSG.badDate('startDate'));
  if (endDate && !isRealDate(endDate)) throw badRequest(ADMIN_MSG.badDate('endDate'));
  if (startDate && endDate && endDate < startDate) throw badRequest(ADMIN_MSG.endBeforeStart);
}

export async function listPrescriptions(ctx: AppContext, principal: StaffPrincipal, hospNo: string) {
  const p = await patientForStaff(ctx, principal, hospNo);
  return { prescriptions: await prescriptionsOf(ctx, p), taken: (await intakeRepo.listChanges(ctx.db, p.id)).rows.map(intakeDto) };
}

/** A patient's prescriptions, each said active while its last day has not passed in the patient's time zone. */
export async function prescriptionsOf(ctx: AppContext, p: Pick<PatientRow, 'id' | 'timeZone'>) {
  const today = localDate(new Date(), p.timeZone);
  const rows = await medicineRepo.all(ctx.db, p.id);
  return rows.map((r) => ({ ...medicineDto(r), active: r.endDate === null || r.endDate >= today }));
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
