import type { AppContext } from '../context.ts';
import { mealSlotOf, type MealSlot } from '../../schemas/dose-slot.ts';
import type { MedicineTaken, MedicineTakenDelete, RemindLater } from '../../schemas/medicine.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { localDate, localTime } from '../lib/time.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { intakeRepo } from '../repositories/records.ts';
import { reminderJobRepo } from '../repositories/reminder-jobs.ts';
import { versionPage } from '../repositories/version-page.ts';
import { MEALS, mealsOfDose } from '../reminders/dose-pattern.ts';
import { intakeDto, medicineDto } from './dto.ts';
import { guardedDelete, type ConflictWords } from './record-conflicts.ts';
import { listSynced, measurementTime, ownAdd, recordId, type ListKeys, type Since } from './record-helpers.ts';

export const MEDICINE_MSG = {
  taken: 'Medicine recorded successfully',
  doseRemoved: 'Dose removed successfully',
  doseNotFound: 'Dose not found',
  alreadyTaken: (medicine: string, slot: MealSlot, day: string) => `${medicine} is already recorded as taken for ${slot} on ${day}.`,
  notFound: (prescrNo: string) => `No medicine with prescription number ${prescrNo} was found`,
  reminderNotFound: 'Medicine not found',
  scheduled: 'Reminder scheduled',
  remindAtRange: 'remindAt must be within 2 hours of now',
} as const;

/** The `code` of a 409 for a second dose in a slot: the device offers to undo or mark it extra. */
export const DOSE_ALREADY_RECORDED = 'dose-already-recorded';

const DOSE_CONFLICT: ConflictWords = {
  notFound: MEDICINE_MSG.doseNotFound,
  changed: 'This dose was changed on another device.',
  deleted: 'This dose was removed on another device.',
  changedNotDeleted: 'This dose was changed on another device, so it was not removed.',
};

const SNOOZE_DEFAULT_MS = 15 * 60_000;
const SNOOZE_RANGE_MS = 2 * 3600_000;

/**
 * Active medicines: no end date, or an end date on or after today, where "today" and the end of
 * the end date are the patient's local ones. With `since`, the medicines that changed plus the ids
 * of those no longer active.
 */
export async function activeMedicines(ctx: AppContext, patient: { patientId: string; timeZone: string }, since?: Since, now = new Date()) {
  const today = localDate(now, patient.timeZone);
  const isActive = (endDate: string | null) => endDate === null || endDate >= today;
  if (since && 'version' in since) {
    // The page covers every prescription that changed, active or not; ended ones are listed in
    // `deleted` below whether they changed or not (an end date passing at midnight changes no row).
    const page = versionPage(await medicineRepo.changedSince(ctx.db, patient.patientId, since.version, since.limit), since.version, since.limit);
    return {
      medicines: page.rows.filter((r) => isActive(r.endDate)).map(medicineDto),
      deleted: await medicineRepo.endedIds(ctx.db, patient.patientId, today),
      checkpoint: page.checkpoint,
      ...(page.next !== undefined ? { next: page.next } : {}),
    };
  }
  const rows = await medicineRepo.active(ctx.db, patient.patientId, today, since?.at);
  if (!since) return { medicines: rows.map(medicineDto) };
  return { medicines: rows.map(medicineDto), deleted: await medicineRepo.endedIds(ctx.db, patient.patientId, today) };
}

/**
 * Every prescription, ended ones too, with their start and end dates (`?include=ended`): the device
 * keeps them all, so its report over a past period lists the medicines of that period as the
 * server's does, and tells active from ended by the end date itself (an end date passing at
 * midnight changes no row, so no pull could say it). `deleted` lists the prescriptions that no
 * longer exist: none, since a prescription is ended, never deleted (its row goes only with its
 * patient, and so does the patient's data on every device).
 */
export async function everyPrescription(ctx: AppContext, patientId: string, since?: Since) {
  if (since && 'version' in since) {
    const page = versionPage(await medicineRepo.changedSince(ctx.db, patientId, since.version, since.limit), since.version, since.limit);
    return { medicines: page.rows.map(medicineDto), deleted: [], checkpoint: page.checkpoint, ...(page.next !== undefined ? { next: page.next } : {}) };
  }
  const rows = await medicineRepo.all(ctx.db, patientId, since?.at);
  return since ? { medicines: rows.map(medicineDto), deleted: [] } : { medicines: rows.map(medicineDto) };
}

/**
 * Records a dose: one per prescription, patient-local day and meal slot unless `extra`. The slot is
 * the one given, else the meal whose time is nearest to when it was taken (mealSlotOf, the same
 * function the device uses).
 */
export async function markTaken(ctx: AppContext, patient: { patientId: string; timeZone: string }, input: MedicineTaken, now = new Date()) {
  const { patientId, timeZone } = patient;
  const prescription = await medicineRepo.byPrescrNo(ctx.db, patientId, input.prescrNo.trim());
  if (!prescription) throw notFound(MEDICINE_MSG.notFound(input.prescrNo));
  // A replayed add returns what it stored, before the one-per-slot rule could call it a second dose.
  if (input._id) {
    const existing = await intakeRepo.findOwn(ctx.db, patientId, input._id);
    if (existing) return { message: MEDICINE_MSG.taken, data: intakeDto(existing) };
  }
  const takenAt = measurementTime('takenAt', input.takenAt, now);
  const day = localDate(takenAt, timeZone);
  const slot = input.slot ?? mealSlotOf(localTime(takenAt, timeZone), (await patientRepo.byId(ctx.db, patientId))?.notificationTimings ?? DEFAULT_TIMINGS);
  const result = await medicineRepo.insertDose(ctx.db, {
    id: recordId(input._id),
    patientId,
    prescriptionId: prescription.id,
    prescrNo: prescription.prescrNo,
    medicineName: input.medicineName.trim(),
    dose: input.dose.trim(),
    takenAt,
    day,
    slot,
    extra: input.extra === true,
  });
  if (result === 'slot-taken') {
    const current = await medicineRepo.doseInSlot(ctx.db, patientId, prescription.prescrNo, day, slot);
    throw conflict(MEDICINE_MSG.alreadyTaken(current?.medicineName ?? input.medicineName.trim(), slot, day), {
      code: DOSE_ALREADY_RECORDED,
      current: current ? intakeDto(current) : null,
    });
  }
  return { message: MEDICINE_MSG.taken, data: intakeDto(ownAdd(result).row) };
}

/** Only reached when the patient row vanished mid-request; the schema's defaults. */
const DEFAULT_TIMINGS = { breakfast: '08:00', lunch: '13:00', dinner: '20:00' } as const;

/** Undo of a dose taken: a soft delete, so devices pull the removal. Repeating it answers the same. */
export async function removeDose(ctx: AppContext, patientId: string, input: MedicineTakenDelete) {
  await guardedDelete(ctx.db, intakeRepo, { patientId, id: input.intakeId, baseVersion: input.baseVersion }, intakeDto, DOSE_CONFLICT);
  return { message: MEDICINE_MSG.doseRemoved };
}

const takenShape: ListKeys = [['taken', null]];

export async function intakes(ctx: AppContext, patientId: string, since?: Since) {
  return listSynced(ctx, intakeRepo, patientId, since, takenShape);
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
