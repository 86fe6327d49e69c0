import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDateTime, mutationId, syncVersion, uuid } from './common.ts';

export const GLUCOSE_TYPES = ['Fasting', 'Postprandial', 'Random'] as const;
export type GlucoseType = (typeof GLUCOSE_TYPES)[number];

/** Plausible capillary glucose in mg/dL; values outside are almost surely typing errors. */
export const GLUCOSE_MIN_MG_DL = 20;
export const GLUCOSE_MAX_MG_DL = 600;
/** mg/dL per mmol/L for glucose. */
export const MG_DL_PER_MMOL_L = 18.016;

/** The units a meter shows and a patient types in: whole mg/dL, or mmol/L to one decimal. */
export const ENTRY_UNITS = ['mg/dL', 'mmol/L'] as const;
export type EntryUnit = (typeof ENTRY_UNITS)[number];

export const glucoseType = { type: 'string', enum: GLUCOSE_TYPES } as const;
export const glucoseValue = {
  type: 'number',
  minimum: GLUCOSE_MIN_MG_DL,
  maximum: GLUCOSE_MAX_MG_DL,
  unit: 'mg/dL',
} as const;
/** The unit a reading was typed in (issue 16); with `enteredValue`, the number as typed in it. */
export const entryUnit = { type: 'string', enum: ENTRY_UNITS } as const;
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

export const glucoseUpdateSchema = {
  type: 'object',
  properties: { glucoseId: uuid, gtype: glucoseType, gvalue: glucoseValue, unit: entryUnit, enteredValue, recordedAt: isoDateTime, utcOffsetMinutes, baseVersion, madeAt, mutationId },
  required: ['glucoseId', 'gtype', 'gvalue'],
} as const;
export type GlucoseUpdate = FromSchema<typeof glucoseUpdateSchema>;

export const glucoseDeleteSchema = {
  type: 'object',
  properties: { glucoseId: uuid, baseVersion, madeAt, mutationId },
  required: ['glucoseId'],
} as const;
export type GlucoseDelete = FromSchema<typeof glucoseDeleteSchema>;

/**
 * mmol/L (as typed) → mg/dL as stored: one decimal, so the way back to the typed value is exact
 * (10.0 mmol/L → 180.2 mg/dL → 10.0 mmol/L).
 */
export const storedMgDl = (mmol: number): number => Math.round(mmol * MG_DL_PER_MMOL_L * 10) / 10;

/** The mg/dL a value typed in `unit` is stored as. */
export const mgDlOf = (entered: number, unit: EntryUnit): number => (unit === 'mmol/L' ? storedMgDl(entered) : entered);

/**
 * Why a reading's value as typed does not belong to its stored mg/dL, or undefined when it does (or
 * when it carries none): a unit needs its value and the reverse, and the stored value must be the
 * typed one converted as the app converts it (within 0.05 mg/dL, the stored precision).
 */
export function enteredMismatch(value: number, unit: EntryUnit | null | undefined, entered: number | null | undefined): string | undefined {
  const hasUnit = unit !== undefined && unit !== null;
  const hasValue = entered !== undefined && entered !== null;
  if (!hasUnit && !hasValue) return undefined;
  if (!hasUnit) return 'enteredValue needs the unit it was typed in';
  if (!hasValue) return 'unit needs the enteredValue typed in it';
  if (Math.abs(mgDlOf(entered, unit) - value) > 0.05 + 1e-9) return `value ${value} mg/dL is not ${entered} ${unit}`;
  return undefined;
}
