import type { AppContext } from '../context.ts';
import type { LabTestAdd, LabTestDelete, LabTestMadeOn, LabTestUpdate } from '../../schemas/lab-test.ts';
import { checkLabResult, labRefusalMessage } from '../../schemas/lab-units.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { labTestRepo } from '../repositories/records.ts';
import { referenceRepo } from '../repositories/reference.ts';
import { labTestDto } from './dto.ts';
import { guardedDelete, guardedUpdate, type ConflictWords } from './record-conflicts.ts';
import { listSynced, measurementTime, ownAdd, recordId, type ListKeys, type Since } from './record-helpers.ts';

export const LAB_MSG = {
  added: 'Lab test reported successfully',
  updated: 'Lab test updated successfully',
  deleted: 'Lab test deleted successfully',
  notFound: 'Lab test not found',
} as const;

export const LAB_CONFLICT: ConflictWords = {
  notFound: LAB_MSG.notFound,
  changed: 'This lab test was changed on another device or by your care team since you edited it.',
  deleted: 'This lab test was deleted on another device.',
  changedNotDeleted: 'This lab test was changed on another device or by your care team, so it was not deleted.',
};

const shape: ListKeys = [['tests', null]];

export async function listLabTests(ctx: AppContext, patientId: string, since?: Since) {
  return listSynced(ctx, labTestRepo, patientId, since, shape);
}

export async function labTestReferenceList(ctx: AppContext) {
  const rows = await referenceRepo.labTests(ctx.db);
  return { tests: rows.map((r) => ({ name: r.name, unit: r.unit })) };
}

/**
 * The result's unit as stored (the list's unit when none is given), refusing a unit its test is not
 * measured in and a value no assay gives in that unit (schemas/lab-units.ts: HbA1c 75 %, or 75 "pct").
 * Every write of a result comes through here: its own route and the same write in a batch.
 */
async function checkedUnit(ctx: AppContext, name: string, unit: string | undefined, value: number): Promise<string | null> {
  const checked = checkLabResult(name, value, unit, await referenceRepo.labTests(ctx.db));
  if ('refused' in checked) throw badRequest(labRefusalMessage(checked.refused));
  return checked.unit;
}

async function addRow(ctx: AppContext, patientId: string, input: LabTestAdd) {
  const name = input.name.trim();
  return {
    id: recordId(input._id),
    patientId,
    name,
    value: input.value,
    unit: await checkedUnit(ctx, name, input.unit, input.value),
    recordedAt: measurementTime('recordedAt', input.recordedAt),
  };
}

/**
 * The row of an add, or, when today's rules refuse it but the patient already has a record with its
 * `_id`, that record: a replay of an add the server took before those rules (its answer lost on the
 * way), answered with the record as stored like any replay, not refused for a result already kept.
 */
async function addRowOrStored(ctx: AppContext, patientId: string, input: LabTestAdd) {
  try {
    return { row: await addRow(ctx, patientId, input) };
  } catch (err) {
    const stored = err instanceof HttpError && input._id !== undefined ? await labTestRepo.findOwn(ctx.db, patientId, input._id) : undefined;
    if (!stored) throw err;
    return { stored };
  }
}

export async function addLabTest(ctx: AppContext, patientId: string, input: LabTestAdd) {
  const add = await addRowOrStored(ctx, patientId, input);
  const { row, created } = 'stored' in add ? { row: add.stored, created: false } : ownAdd(await labTestRepo.insertIdempotent(ctx.db, add.row));
  return { created, body: { message: LAB_MSG.added, data: labTestDto(row) } };
}

/**
 * addLabTest of a new lab test with a mutation id, in one statement (see insertAnswered). A refused
 * add goes the general way (undefined), which answers a repeated mutation id or a stored record's
 * replay as such, and refuses anything else the same.
 */
export async function addLabTestAnswered(ctx: AppContext, patientId: string, input: LabTestAdd, mutationId: string) {
  let row;
  try {
    row = await addRow(ctx, patientId, input);
  } catch (err) {
    if (err instanceof HttpError) return undefined;
    throw err;
  }
  return labTestRepo.insertAnswered(ctx.db, row, { message: LAB_MSG.added, mutationId });
}

/**
 * What an edit or removal was made on, as the row would hold it (see glucose-service.ts): its unit
 * as an add of it would store it, or as sent when today's rules would refuse it (it is only compared).
 */
async function madeOnValues(ctx: AppContext, on: LabTestMadeOn | undefined) {
  if (!on) return undefined;
  const name = on.name.trim();
  const checked = checkLabResult(name, on.value, on.unit, await referenceRepo.labTests(ctx.db));
  return { name, value: on.value, unit: 'refused' in checked ? (on.unit ?? null) : checked.unit, recordedAt: new Date(on.recordedAt) };
}

export async function updateLabTest(ctx: AppContext, patientId: string, input: LabTestUpdate) {
  const name = input.name.trim();
  const row = await guardedUpdate(
    ctx.db,
    labTestRepo,
    { patientId, id: input.testId, baseVersion: input.baseVersion, madeOn: await madeOnValues(ctx, input.madeOn) },
    {
      name,
      value: input.value,
      unit: await checkedUnit(ctx, name, input.unit, input.value),
      recordedAt: measurementTime('recordedAt', input.recordedAt),
    },
    labTestDto,
    LAB_CONFLICT,
  );
  return { message: LAB_MSG.updated, data: labTestDto(row) };
}

export async function deleteLabTest(ctx: AppContext, patientId: string, input: LabTestDelete) {
  await guardedDelete(
    ctx.db,
    labTestRepo,
    { patientId, id: input.testId, baseVersion: input.baseVersion, madeOn: await madeOnValues(ctx, input.madeOn) },
    labTestDto,
    LAB_CONFLICT,
  );
  return { message: LAB_MSG.deleted };
}
