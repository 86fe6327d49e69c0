import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDateTime, mutationId, syncVersion, uuid } from './common.ts';
import { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, GLUCOSE_UNITS, mgDlOf, type GlucoseUnit } from './glucose-units.ts';

export const GLUCOSE_TYPES = ['Fasting', 'Postprandial', 'Random'] as const;
export type GlucoseType = (typeof GLUCOSE_TYPES)[number];

export const glucoseType = { type: 'string', enum: GLUCOSE_TYPES } as const;
export const glucoseValue = {
  type: 'number',
  minimum: GLUCOSE_MIN_MG_DL,
  maximum: GLUCOSE_MAX_MG_DL,
  unit: 'mg/dL',
} as const;
/** The unit a reading was typed in (issue 16); with `enteredValue`, the number as typed in it. */
export const entryUnit = { type: 'string', enum: GLUCOSE_UNITS } as const;
/** Wide enough for any plausible reading in either unit; `enteredMismatch` ties it to `value`. */
export const enteredValue = { type: 'number', minimum: 1, maximum: GLUCOSE_MAX_MG_DL } as const;
const nullable = <T extends object>(s: T) => ({ anyOf: [s, { type: 'null' }] }) as const;

/** Every UTC offset in use, from UTC−12:00 to UTC+14:00, in minutes east of UTC. */
export const UTC_OFFSET_MIN_MINUTES = -720;
export const UTC_OFFSET_MAX_MINUTES = 840;
/**
 * The recording device's UTC offset at the moment of the reading (minutes east of UTC: +330 in
 * Kolkata, −300 in New York in winter), from the device's own clock. With `recordedAt` it gives the
 * wall-clock time the patient saw when they took it, whatever zone the reading is read in later.
 */
export const utcOffsetMinutes = {
  type: 'integer',
  minimum: UTC_OFFSET_MIN_MINUTES,
  maximum: UTC_OFFSET_MAX_MINUTES,
  unit: 'minutes east of UTC',
  description: "the recording device's UTC offset in minutes east of UTC at the time of the reading",
} as const;

export const glucoseReadingSchema = {
  $id: 'GlucoseReading',
  type: 'object',
  properties: {
    _id: uuid,
    type: glucoseType,
    value: glucoseValue,
    unit: nullable(entryUnit),
    enteredValue: nullable(enteredValue),
    recordedAt: isoDateTime,
    utcOffsetMinutes: nullable(utcOffsetMinutes),
    updatedAt: isoDateTime,
    version: syncVersion,
  },
  required: ['_id', 'type', 'value', 'recordedAt'],
  additionalProperties: false,
} as const;
export type GlucoseReading = FromSchema<typeof glucoseReadingSchema>;

export const glucoseAddSchema = {
  type: 'object',
  properties: { _id: uuid, type: glucoseType, value: glucoseValue, unit: entryUnit, enteredValue, recordedAt: isoDateTime, utcOffsetMinutes, mutationId },
  required: ['type', 'value'],
} as const;
export type GlucoseAdd = FromSchema<typeof glucoseAddSchema>;

/**
 * What an edit or removal was made on: the reading as the device held it, in the edit's own fields.
 * Read only for a write sent on no version after a heal (docs/sync-protocol.md, "What a write sent
 * again was made on"): a reading that no longer holds it changed since, and the write is a stated conflict.
 */
export const glucoseMadeOnSchema = {
  type: 'object',
  properties: { gtype: glucoseType, gvalue: glucoseValue, unit: entryUnit, enteredValue, recordedAt: isoDateTime, utcOffsetMinutes },
  required: ['gtype', 'gvalue'],
  additionalProperties: false,
} as const;
export type GlucoseMadeOn = FromSchema<typeof glucoseMadeOnSchema>;

export const glucoseUpdateSchema = {
  type: 'object',
  properties: {
    glucoseId: uuid,
    gtype: glucoseType,
    gvalue: glucoseValue,
    unit: entryUnit,
    enteredValue,
    recordedAt: isoDateTime,
    utcOffsetMinutes,
    baseVersion,
    madeAt,
    madeOn: glucoseMadeOnSchema,
    mutationId,
  },
  required: ['glucoseId', 'gtype', 'gvalue'],
} as const;
export type GlucoseUpdate = FromSchema<typeof glucoseUpdateSchema>;

export const glucoseDeleteSchema = {
  type: 'object',
  properties: { glucoseId: uuid, baseVersion, madeAt, madeOn: glucoseMadeOnSchema, mutationId },
  required: ['glucoseId'],
} as const;
export type GlucoseDelete = FromSchema<typeof glucoseDeleteSchema>;

/**
 * Why a reading's value as typed does not belong to its stored mg/dL, or undefined when it does (or
 * when it carries none): a unit needs its value and the reverse, and the stored value must be the
 * typed one converted as the app converts it (within 0.05 mg/dL, the stored precision).
 */
export function enteredMismatch(value: number, unit: GlucoseUnit | null | undefined, entered: number | null | undefined): string | undefined {
  const hasUnit = unit !== undefined && unit !== null;
  const hasValue = entered !== undefined && entered !== null;
  if (!hasUnit && !hasValue) return undefined;
  if (!hasUnit) return 'enteredValue needs the unit it was typed in';
  if (!hasValue) return 'unit needs the enteredValue typed in it';
  if (Math.abs(mgDlOf(entered, unit) - value) > 0.05 + 1e-9) return `value ${value} mg/dL is not ${entered} ${unit}`;
  return undefined;
}
