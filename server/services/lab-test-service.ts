import type { AppContext } from '../context.ts';
import type { LabTestAdd, LabTestUpdate } from '../../schemas/lab-test.ts';
import { notFound } from '../http/errors.ts';
import { labTestRepo } from '../repositories/records.ts';
import { referenceRepo } from '../repositories/reference.ts';
import { labTestDto } from './dto.ts';
import { measurementTime, ownAdd, recordId } from './record-helpers.ts';

export const LAB_MSG = {
  added: 'Lab test reported successfully',
  updated: 'Lab test updated successfully',
  deleted: 'Lab test deleted successfully',
  notFound: 'Lab test not found',
} as const;

export async function listLabTests(ctx: AppContext, patientId: string, since?: Date) {
  const { rows, deleted } = await labTestRepo.listChanges(ctx.db, patientId, since);
  return { tests: rows.map(labTestDto), ...(since ? { deleted } : {}) };
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

export async function addLabTest(ctx: AppContext, patientId: string, input: LabTestAdd) {
  const name = input.name.trim();
  const { row, created } = ownAdd(
    await labTestRepo.insertIdempotent(ctx.db, {
      id: recordId(input._id),
      patientId,
      name,
      value: input.value,
      unit: await unitFor(ctx, name, input.unit),
      recordedAt: measurementTime('recordedAt', input.recordedAt),
    }),
  );
  return { created, body: { message: LAB_MSG.added, data: labTestDto(row) } };
}

export async function updateLabTest(ctx: AppContext, patientId: string, input: LabTestUpdate) {
  const name = input.name.trim();
  const row = await labTestRepo.updateOwn(ctx.db, patientId, input.testId, {
    name,
    value: input.value,
    unit: await unitFor(ctx, name, input.unit),
    recordedAt: measurementTime('recordedAt', input.recordedAt),
  });
  if (!row) throw notFound(LAB_MSG.notFound);
  return { message: LAB_MSG.updated, data: labTestDto(row) };
}

export async function deleteLabTest(ctx: AppContext, patientId: string, testId: string) {
  if (!(await labTestRepo.softDeleteOwn(ctx.db, patientId, testId))) throw notFound(LAB_MSG.notFound);
  return { message: LAB_MSG.deleted };
}
