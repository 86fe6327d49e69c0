import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDateTime, mutationId, optionalText, syncVersion, text, uuid } from './common.ts';

const name = text(100);
const value = { type: 'number', minimum: -1e9, maximum: 1e9 } as const;
const unit = optionalText(30);

export const labTestSchema = {
  $id: 'LabTest',
  type: 'object',
  properties: { _id: uuid, name, value, unit: { anyOf: [unit, { type: 'null' }] }, recordedAt: isoDateTime, updatedAt: isoDateTime, version: syncVersion },
  required: ['_id', 'name', 'value', 'recordedAt'],
  additionalProperties: false,
} as const;
export type LabTest = FromSchema<typeof labTestSchema>;

export const labTestAddSchema = {
  type: 'object',
  properties: { _id: uuid, name, value, unit, recordedAt: isoDateTime, mutationId },
  required: ['name', 'value', 'recordedAt'],
} as const;
export type LabTestAdd = FromSchema<typeof labTestAddSchema>;

/** What an edit or removal was made on (as glucoseMadeOnSchema): the test as the device held it. */
export const labTestMadeOnSchema = {
  type: 'object',
  properties: { name, value, unit, recordedAt: isoDateTime },
  required: ['name', 'value', 'recordedAt'],
  additionalProperties: false,
} as const;
export type LabTestMadeOn = FromSchema<typeof labTestMadeOnSchema>;

export const labTestUpdateSchema = {
  type: 'object',
  properties: { testId: uuid, name, value, unit, recordedAt: isoDateTime, baseVersion, madeAt, madeOn: labTestMadeOnSchema, mutationId },
  required: ['testId', 'name', 'value', 'recordedAt'],
} as const;
export type LabTestUpdate = FromSchema<typeof labTestUpdateSchema>;

export const labTestDeleteSchema = {
  type: 'object',
  properties: { testId: uuid, baseVersion, madeAt, madeOn: labTestMadeOnSchema, mutationId },
  required: ['testId'],
} as const;
export type LabTestDelete = FromSchema<typeof labTestDeleteSchema>;

/** An entry of the reference list offered when adding a test. */
export const labTestReferenceSchema = {
  type: 'object',
  properties: { name, unit: { anyOf: [unit, { type: 'null' }] } },
  required: ['name'],
} as const;
export type LabTestReference = FromSchema<typeof labTestReferenceSchema>;
