import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDateTime, mutationId, syncVersion, text, uuid } from './common.ts';

export const symptomName = text(100);

export const symptomSchema = {
  $id: 'Symptom',
  type: 'object',
  properties: { _id: uuid, symptom: symptomName, recordedAt: isoDateTime, updatedAt: isoDateTime, version: syncVersion },
  required: ['_id', 'symptom', 'recordedAt'],
  additionalProperties: false,
} as const;
export type Symptom = FromSchema<typeof symptomSchema>;

export const symptomAddSchema = {
  type: 'object',
  properties: { _id: uuid, symptom: symptomName, recordedAt: isoDateTime, mutationId },
  required: ['symptom'],
} as const;
export type SymptomAdd = FromSchema<typeof symptomAddSchema>;

/**
 * Removes the report of that symptom on the day of recordedAt (or exactly `_id` when given;
 * `baseVersion` is only checked then).
 */
export const symptomRemoveSchema = {
  type: 'object',
  properties: { symptom: symptomName, recordedAt: isoDateTime, _id: uuid, baseVersion, madeAt, mutationId },
  required: ['symptom', 'recordedAt'],
} as const;
export type SymptomRemove = FromSchema<typeof symptomRemoveSchema>;
