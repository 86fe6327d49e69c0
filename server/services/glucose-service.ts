import type { AppContext } from '../context.ts';
import { SEVERE_LOW_LEVEL } from '../../schemas/admin.ts';
import type { GlucoseUnit } from '../../schemas/glucose-units.ts';
import { enteredMismatch, type GlucoseAdd, type GlucoseDelete, type GlucoseMadeOn, type GlucoseUpdate } from '../../schemas/glucose.ts';
import { badRequest } from '../http/errors.ts';
import { glucoseRepo, type GlucoseRow } from '../repositories/records.ts';
import { glucoseDto } from './dto.ts';
import { guardedDelete, guardedUpdate, type ConflictWords } from './record-conflicts.ts';
import { listSynced, measurementTime, ownAdd, recordId, type ListKeys, type Since } from './record-helpers.ts';

export const GLUCOSE_MSG = {
  added: 'Glucose reported successfully',
  updated: 'Glucose reading updated successfully',
  deleted: 'Glucose reading deleted successfully',
  notFound: 'Glucose reading not found',
} as const;

export const GLUCOSE_CONFLICT: ConflictWords = {
  notFound: GLUCOSE_MSG.notFound,
  changed: 'This reading was changed on another device or by your care team since you edited it.',
  deleted: 'This reading was deleted on another device.',
  changedNotDeleted: 'This reading was changed on another device or by your care team, so it was not deleted.',
};

const byType: ListKeys = [
  ['fasting', 'Fasting'],
  ['postprandial', 'Postprandial'],
  ['random', 'Random'],
];

export async function listGlucose(ctx: AppContext, patientId: string, since?: Since) {
  return listSynced(ctx, glucoseRepo, patientId, since, byType);
}

/**
 * The value as typed, kept beside the stored mg/dL (issue 16), or none when the client sent none (an
 * older client: a changed value without it must not keep the previous one's).
 */
function asEntered(value: number, unit: GlucoseUnit | undefined, enteredValue: number | undefined) {
  const wrong = enteredMismatch(value, unit, enteredValue);
  if (wrong) throw badRequest(`The glucose value as entered does not match: ${wrong}`);
  return { enteredUnit: unit ?? null, enteredValue: enteredValue ?? null };
}

const addRow = (patientId: string, input: GlucoseAdd) => ({
  id: recordId(input._id),
  patientId,
  type: input.type,
  valueMgDl: input.value,
  ...asEntered(input.value, input.unit, input.enteredValue),
  recordedAt: measurementTime('recordedAt', input.recordedAt),
  utcOffsetMinutes: input.utcOffsetMinutes ?? null,
});

/**
 * The device's offset belongs to the reading's time: an edit that sends one stores it; one without
 * (an older client) keeps the stored offset while the time stays, and clears it when the time
 * moves, as the old offset need not hold at the new time.
 */
function offsetOf(input: GlucoseUpdate, recordedAt: Date | undefined, current: GlucoseRow): { utcOffsetMinutes?: number | null } {
  if (input.utcOffsetMinutes !== undefined) return { utcOffsetMinutes: input.utcOffsetMinutes };
  return recordedAt && recordedAt.getTime() !== current.recordedAt.getTime() ? { utcOffsetMinutes: null } : {};
}

/**
 * A reading that may be a severe low for some hospital: the database queued its alert with the
 * write (migration 0007), and the scheduler is asked to send it now rather than at its next pass.
 */
function wakeIfLow(ctx: AppContext, valueMgDl: number): void {
  if (valueMgDl < SEVERE_LOW_LEVEL.max) ctx.wakeScheduler();
}

export async function addGlucose(ctx: AppContext, patientId: string, input: GlucoseAdd) {
  wakeIfLow(ctx, input.value);
  const { row, created } = ownAdd(await glucoseRepo.insertIdempotent(ctx.db, addRow(patientId, input)));
  return { created, body: { message: GLUCOSE_MSG.added, data: glucoseDto(row) } };
}

/** addGlucose of a new reading with a mutation id, in one statement (see insertAnswered). */
export async function addGlucoseAnswered(ctx: AppContext, patientId: string, input: GlucoseAdd, mutationId: string) {
  wakeIfLow(ctx, input.value);
  return glucoseRepo.insertAnswered(ctx.db, addRow(patientId, input), { message: GLUCOSE_MSG.added, mutationId });
}

/**
 * What an edit or removal was made on, as the row would hold it (a reading's fields as the device
 * held them, in an edit's shape): compared with the row, never stored.
 */
function madeOnValues(on: GlucoseMadeOn | undefined): Partial<GlucoseRow> | undefined {
  if (!on) return undefined;
  return {
    type: on.gtype,
    valueMgDl: on.gvalue,
    // Only compared: a value as typed that does not match is left out rather than refused.
    ...(enteredMismatch(on.gvalue, on.unit, on.enteredValue) ? {} : asEntered(on.gvalue, on.unit, on.enteredValue)),
    ...(on.recordedAt ? { recordedAt: new Date(on.recordedAt) } : {}),
    ...(on.utcOffsetMinutes !== undefined ? { utcOffsetMinutes: on.utcOffsetMinutes } : {}),
  };
}

export async function updateGlucose(ctx: AppContext, patientId: string, input: GlucoseUpdate) {
  wakeIfLow(ctx, input.gvalue);
  const recordedAt = input.recordedAt ? measurementTime('recordedAt', input.recordedAt) : undefined;
  const values = {
    type: input.gtype,
    valueMgDl: input.gvalue,
    ...asEntered(input.gvalue, input.unit, input.enteredValue),
    ...(recordedAt ? { recordedAt } : {}),
  };
  const row = await guardedUpdate(
    ctx.db,
    glucoseRepo,
    { patientId, id: input.glucoseId, baseVersion: input.baseVersion, madeOn: madeOnValues(input.madeOn) },
    (current) => ({ ...values, ...offsetOf(input, recordedAt, current) }),
    glucoseDto,
    GLUCOSE_CONFLICT,
  );
  return { message: GLUCOSE_MSG.updated, data: glucoseDto(row) };
}

export async function deleteGlucose(ctx: AppContext, patientId: string, input: GlucoseDelete) {
  await guardedDelete(
    ctx.db,
    glucoseRepo,
    { patientId, id: input.glucoseId, baseVersion: input.baseVersion, madeOn: madeOnValues(input.madeOn) },
    glucoseDto,
    GLUCOSE_CONFLICT,
  );
  return { message: GLUCOSE_MSG.deleted };
}
