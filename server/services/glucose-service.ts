import type { AppContext } from '../context.ts';
import type { GlucoseAdd, GlucoseUpdate } from '../../schemas/glucose.ts';
import { notFound } from '../http/errors.ts';
import { glucoseRepo } from '../repositories/records.ts';
import { glucoseDto } from './dto.ts';
import { measurementTime, ownAdd, recordId } from './record-helpers.ts';

export const GLUCOSE_MSG = {
  added: 'Glucose reported successfully',
  updated: 'Glucose reading updated successfully',
  deleted: 'Glucose reading deleted successfully',
  notFound: 'Glucose reading not found',
} as const;

export async function listGlucose(ctx: AppContext, patientId: string, since?: Date) {
  const { rows, deleted } = await glucoseRepo.listChanges(ctx.db, patientId, since);
  const of = (t: string) => rows.filter((r) => r.type === t).map(glucoseDto);
  return { fasting: of('Fasting'), postprandial: of('Postprandial'), random: of('Random'), ...(since ? { deleted } : {}) };
}

export async function addGlucose(ctx: AppContext, patientId: string, input: GlucoseAdd) {
  const { row, created } = ownAdd(
    await glucoseRepo.insertIdempotent(ctx.db, {
      id: recordId(input._id),
      patientId,
      type: input.type,
      valueMgDl: input.value,
      recordedAt: measurementTime('recordedAt', input.recordedAt),
    }),
  );
  return { created, body: { message: GLUCOSE_MSG.added, data: glucoseDto(row) } };
}

export async function updateGlucose(ctx: AppContext, patientId: string, input: GlucoseUpdate) {
  const row = await glucoseRepo.updateOwn(ctx.db, patientId, input.glucoseId, {
    type: input.gtype,
    valueMgDl: input.gvalue,
    ...(input.recordedAt ? { recordedAt: measurementTime('recordedAt', input.recordedAt) } : {}),
  });
  if (!row) throw notFound(GLUCOSE_MSG.notFound);
  return { message: GLUCOSE_MSG.updated, data: glucoseDto(row) };
}

export async function deleteGlucose(ctx: AppContext, patientId: string, glucoseId: string) {
  if (!(await glucoseRepo.softDeleteOwn(ctx.db, patientId, glucoseId))) throw notFound(GLUCOSE_MSG.notFound);
  return { message: GLUCOSE_MSG.deleted };
}
