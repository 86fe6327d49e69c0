import type { AppContext } from '../context.ts';
import { implausibleLabMessage, implausibleLabValue } from '../../schemas/lab-plausibility.ts';
import type { LabTestAdd, LabTestDelete, LabTestUpdate } from '../../schemas/lab-test.ts';
import { badRequest } from '../http/errors.ts';
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

/** The unit given, else the reference list's unit for that test, else none. */
async function unitFor(ctx: AppContext, name: string, unit: string | undefined): Promise<string | null> {
  if (unit !== undefined && unit.trim() !== '') return unit.trim();
  const ref = (await referenceRepo.labTests(ctx.db)).find((r) => r.name.toLowerCase() === name.toLowerCase());
  return ref?.unit ?? null;
}

/** The result's unit, refusing a value no assay gives (issue 16: an HbA1c of −3 % or 75 %). */
async function checkedUnit(ctx: AppContext, name: string, unit: string | undefined, value: number): Promise<string | null> {
  const resolved = await unitFor(ctx, name, unit);
  const outside = implausibleLabValue(name, resolved, value);
  if (outside) throw badRequest(implausibleLabMessage(outside));
  return resolved;
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

export async function addLabTest(ctx: AppContext, patientId: string, input: LabTestAdd) {
  const { row, created } = ownAdd(await labTestRepo.insertIdempotent(ctx.db, await addRow(ctx, patientId, input)));
  return { created, body: { message: LAB_MSG.added, data: labTestDto(row) } };
}

/** addLabTest of a new lab test with a mutation id, in one statement (see insertAnswered). */
export async function addLabTestAnswered(ctx: AppContext, patientId: string, input: LabTestAdd, mutationId: string) {
  return labTestRepo.insertAnswered(ctx.db, await addRow(ctx, patientId, input), { message: LAB_MSG.added, mutationId });
}

export async function updateLabTest(ctx: AppContext, patientId: string, input: LabTestUpdate) {
  const name = input.name.trim();
  const row = await guardedUpdate(
    ctx.db,
    labTestRepo,
    { patientId, id: input.testId, baseVersion: input.baseVersion },
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
  await guardedDelete(ctx.db, labTestRepo, { patientId, id: input.testId, baseVersion: input.baseVersion }, labTestDto, LAB_CONFLICT);
  return { message: LAB_MSG.deleted };
}
