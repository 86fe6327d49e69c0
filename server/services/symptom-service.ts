import type { AppContext } from '../context.ts';
import type { SymptomAdd, SymptomRemove } from '../../schemas/symptom.ts';
import { conflict, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { localDate } from '../lib/time.ts';
import { symptomRepo, symptomsOnDay } from '../repositories/records.ts';
import { referenceRepo } from '../repositories/reference.ts';
import { symptomDto } from './dto.ts';
import { guardedDelete, type ConflictWords } from './record-conflicts.ts';
import { listSynced, measurementTime, ownAdd, recordId, type ListKeys, type Since } from './record-helpers.ts';

export const SYMPTOM_MSG = {
  added: 'Symptom reported successfully',
  removed: 'Symptom removed successfully',
  notFound: 'Symptom report not found',
  duplicateToday: (s: string) => `You've already reported ${s} today`,
  duplicateOn: (s: string, day: string) => `You've already reported ${s} on ${day}`,
} as const;

/** Reports are only added and removed, so only a removal can meet a conflict (and a removed one is accepted). */
export const SYMPTOM_CONFLICT: ConflictWords = {
  notFound: SYMPTOM_MSG.notFound,
  changed: 'This symptom report was changed on another device.',
  deleted: 'This symptom report was removed on another device.',
  changedNotDeleted: 'This symptom report was changed on another device, so it was not removed.',
};

/** "  Blurred   vision " and "Blurred vision" are the same symptom. */
const normaliseSymptom = (s: string): string => s.trim().replace(/\s+/g, ' ');

const shape: ListKeys = [['symptoms', null]];

export async function listSymptoms(ctx: AppContext, patientId: string, since?: Since) {
  return listSynced(ctx, symptomRepo, patientId, since, shape);
}

export async function symptomReferenceList(ctx: AppContext) {
  return { symptoms: await referenceRepo.symptomNames(ctx.db) };
}

export async function addSymptom(ctx: AppContext, patient: { patientId: string; timeZone: string }, input: SymptomAdd, now = new Date()) {
  const symptom = normaliseSymptom(input.symptom);
  const recordedAt = measurementTime('recordedAt', input.recordedAt, now);
  const day = localDate(recordedAt, patient.timeZone);
  const id = recordId(input._id);
  // A replayed add returns what it stored, before the one-per-day rule could call it a duplicate.
  if (input._id) {
    const existing = await symptomRepo.findOwn(ctx.db, patient.patientId, input._id);
    if (existing) return { created: false, body: { message: SYMPTOM_MSG.added, data: symptomDto(existing) } };
  }
  try {
    const { row, created } = ownAdd(await symptomRepo.insertIdempotent(ctx.db, { id, patientId: patient.patientId, symptom, day, recordedAt }));
    return { created, body: { message: SYMPTOM_MSG.added, data: symptomDto(row) } };
  } catch (err) {
    // The partial unique index decides, so two devices reporting at once cannot both succeed.
    if (isUniqueViolation(err, 'symptoms_one_per_day_idx')) {
      throw conflict(day === localDate(now, patient.timeZone) ? SYMPTOM_MSG.duplicateToday(symptom) : SYMPTOM_MSG.duplicateOn(symptom, day));
    }
    throw err;
  }
}

export async function removeSymptom(ctx: AppContext, patient: { patientId: string; timeZone: string }, input: SymptomRemove) {
  if (input._id) {
    await guardedDelete(ctx.db, symptomRepo, { patientId: patient.patientId, id: input._id, baseVersion: input.baseVersion }, symptomDto, SYMPTOM_CONFLICT);
    return { message: SYMPTOM_MSG.removed };
  }
  const day = localDate(new Date(input.recordedAt), patient.timeZone);
  const matches = await symptomsOnDay(ctx.db, patient.patientId, normaliseSymptom(input.symptom), day);
  if (matches.length === 0) throw notFound(SYMPTOM_MSG.notFound);
  for (const m of matches) if (!m.deletedAt) await symptomRepo.softDeleteOwn(ctx.db, patient.patientId, m.id);
  return { message: SYMPTOM_MSG.removed };
}
