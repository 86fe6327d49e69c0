import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, isoDateTime, mutationId, syncVersion, uuid } from './common.ts';

export const GLUCOSE_TYPES = ['Fasting', 'Postprandial', 'Random'] as const;
export type GlucoseType = (typeof GLUCOSE_TYPES)[number];

/** Plausible capillary glucose in mg/dL; values outside are almost surely typing errors. */
export const GLUCOSE_MIN_MG_DL = 20;
export const GLUCOSE_MAX_MG_DL = 600;
/** mg/dL per mmol/L for glucose. */
export const MG_DL_PER_MMOL_L = 18.016;

export const glucoseType = { type: 'string', enum: GLUCOSE_TYPES } as const;
export const glucoseValue = {
  type: 'number',
  minimum: GLUCOSE_MIN_MG_DL,
  maximum: GLUCOSE_MAX_MG_DL,
  unit: 'mg/dL',
} as const;

export const glucoseReadingSchema = {
  $id: 'GlucoseReading',
  type: 'object',
  properties: {
    _id: uuid,
    type: glucoseType,
    value: glucoseValue,
    recordedAt: isoDateTime,
    updatedAt: isoDateTime,
    version: syncVersion,
  },
  required: ['_id', 'type', 'value', 'recordedAt'],
  additionalProperties: false,
} as const;
export type GlucoseReading = FromSchema<typeof glucoseReadingSchema>;

export const glucoseAddSchema = {
  type: 'object',
  properties: { _id: uuid, type: glucoseType, value: glucoseValue, recordedAt: isoDateTime, mutationId },
  required: ['type', 'value'],
} as const;
export type GlucoseAdd = FromSchema<typeof glucoseAddSchema>;

export const glucoseUpdateSchema = {
  type: 'object',
  properties: { glucoseId: uuid, gtype: glucoseType, gvalue: glucoseValue, recordedAt: isoDateTime, baseVersion, mutationId },
  required: ['glucoseId', 'gtype', 'gvalue'],
} as const;
export type GlucoseUpdate = FromSchema<typeof glucoseUpdateSchema>;

export const glucoseDeleteSchema = {
  type: 'object',
  properties: { glucoseId: uuid, baseVersion, mutationId },
  required: ['glucoseId'],
} as const;
export type GlucoseDelete = FromSchema<typeof glucoseDeleteSchema>;
