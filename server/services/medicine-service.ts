import type { AppContext } from '../context.ts';
import type { MedicineTaken } from '../../schemas/medicine.ts';
import { notFound } from '../http/errors.ts';
import { localDate } from '../lib/time.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { intakeDto, medicineDto } from './dto.ts';
import { measurementTime, ownAdd, recordId } from './record-helpers.ts';

export const MEDICINE_MSG = {
  taken: 'Medicine recorded successfully',
  notFound: (prescrNo: string) => `No medicine with prescription number ${prescrNo} was found`,
} as const;

/**
 * Active medicines: no end date, or an end date on or after today, where "today" and the end of
 * the end date are the patient's local ones. With `since`, the medicines that changed plus the ids
 * of those no longer active.
 */
export async function activeMedicines(ctx: AppContext, patient: { patientId: string; timeZone: string }, since?: Date, now = new Date()) {
  const today = localDate(now, patient.timeZone);
  const rows = await medicineRepo.active(ctx.db, patient.patientId, today, since);
  if (!since) return { medicines: rows.map(medicineDto) };
  return { medicines: rows.map(medicineDto), deleted: await medicineRepo.endedIds(ctx.db, patient.patientId, today) };
}

export async function markTaken(ctx: AppContext, patientId: string, input: MedicineTaken) {
  const prescription = await medicineRepo.byPrescrNo(ctx.db, patientId, input.prescrNo.trim());
  if (!prescription) throw notFound(MEDICINE_MSG.notFound(input.prescrNo));
  const { row } = ownAdd(
    await medicineRepo.insertIntake(ctx.db, {
      id: recordId(input._id),
      patientId,
      prescriptionId: prescription.id,
      prescrNo: prescription.prescrNo,
      medicineName: input.medicineName.trim(),
      dose: input.dose.trim(),
      takenAt: measurementTime('takenAt', input.takenAt),
    }),
  );
  return { message: MEDICINE_MSG.taken, data: intakeDto(row) };
}

export async function intakes(ctx: AppContext, patientId: string, since?: Date) {
  return { taken: (await medicineRepo.intakes(ctx.db, patientId, since)).map(intakeDto) };
}
