import type { AppContext } from '../context.ts';
import type { MedicineTaken, RemindLater } from '../../schemas/medicine.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { localDate } from '../lib/time.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { reminderJobRepo } from '../repositories/reminder-jobs.ts';
import { MEALS, mealsOfDose } from '../reminders/dose-pattern.ts';
import { intakeDto, medicineDto } from './dto.ts';
import { measurementTime, ownAdd, recordId } from './record-helpers.ts';

export const MEDICINE_MSG = {
  taken: 'Medicine recorded successfully',
  notFound: (prescrNo: string) => `No medicine with prescription number ${prescrNo} was found`,
  reminderNotFound: 'Medicine not found',
  scheduled: 'Reminder scheduled',
  remindAtRange: 'remindAt must be within 2 hours of now',
} as const;

const SNOOZE_DEFAULT_MS = 15 * 60_000;
const SNOOZE_RANGE_MS = 2 * 3600_000;

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

/**
 * "Remind Later": the same medicine reminder once more at `remindAt`, through the scheduler (so it
 * reaches every device of the patient, once, even with several server instances). A request that
 * arrives late (the device was offline) is sent at the next pass rather than dropped.
 */
export async function remindLater(ctx: AppContext, patientId: string, input: RemindLater, now = new Date()) {
  const requested = input.remindAt === undefined ? new Date(now.getTime() + SNOOZE_DEFAULT_MS) : new Date(input.remindAt);
  if (Number.isNaN(requested.getTime()) || Math.abs(requested.getTime() - now.getTime()) > SNOOZE_RANGE_MS) throw badRequest(MEDICINE_MSG.remindAtRange);
  const prescription = await medicineRepo.byPrescrNo(ctx.db, patientId, input.prescrNo.trim());
  if (!prescription) throw notFound(MEDICINE_MSG.reminderNotFound);
  const patient = await patientRepo.byId(ctx.db, patientId);
  const dueAt = new Date(Math.max(requested.getTime(), now.getTime()));
  const id = recordId(input._id);
  // The meal whose time this was, to word the notification as the first one was.
  const meal = MEALS.find((m) => patient?.notificationTimings[m] === input.time);
  const portion = meal ? mealsOfDose(prescription.dose).find((d) => d.meal === meal)?.portion : undefined;
  const { row } = await reminderJobRepo.insertOne(ctx.db, {
    patientId,
    kind: 'medicine',
    dedupeKey: `snooze:${id}`,
    dueAt,
    payload: {
      tag: `med-${prescription.prescrNo}-later-${id}`,
      ...(portion ? { portion } : {}),
      data: {
        type: 'medicine',
        prescrNo: prescription.prescrNo,
        medicineName: prescription.name,
        dose: prescription.dose,
        time: input.time,
        ...(meal ? { meal } : {}),
        notificationTime: dueAt.toISOString(),
        snoozed: true,
      },
    },
  });
  return { message: MEDICINE_MSG.scheduled, remindAt: row.dueAt.toISOString() };
}
