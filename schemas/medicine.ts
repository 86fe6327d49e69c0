import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDate, isoDateTime, mutationId, sinceQuery, syncVersion, text, uuid } from './common.ts';
import { mealSlot } from './dose-slot.ts';
import { mealTime } from './user-profile.ts';

export const prescrNo = text(40);
export const medicineName = text(200);
export const dose = text(60);

/** A prescribed medicine as the patient sees it. Active: no endDate, or endDate today or later. */
export const medicineSchema = {
  $id: 'Medicine',
  type: 'object',
  properties: {
    _id: uuid,
    prescrNo,
    name: medicineName,
    dose,
    startDate: { anyOf: [isoDate, { type: 'null' }] },
    endDate: { anyOf: [isoDate, { type: 'null' }] },
    updatedAt: isoDateTime,
    version: syncVersion,
  },
  required: ['_id', 'prescrNo', 'name', 'dose'],
  additionalProperties: false,
} as const;
export type Medicine = FromSchema<typeof medicineSchema>;

/**
 * `GET /users/medicines`: `?since=` as every list, and `include=ended` for every prescription, ended
 * ones too (the patient's app keeps them for the report's adherence over past periods). Without it
 * the answer holds the active ones only, with the ended ones among `deleted`, as the base call did.
 */
export const medicineListQuery = {
  ...sinceQuery,
  properties: {
    ...sinceQuery.properties,
    include: {
      type: 'string',
      enum: ['ended'],
      description: 'ended: every prescription, with its start and end dates; `deleted` then lists only prescriptions that no longer exist',
    },
  },
} as const;

/**
 * A dose taken. One per prescription, patient-local day and meal `slot` (given, or the meal whose
 * time is nearest to takenAt: mealSlotOf in dose-slot.ts), unless `extra` says it was an extra dose.
 */
export const medicineTakenSchema = {
  type: 'object',
  properties: { _id: uuid, prescrNo, medicineName, dose, takenAt: isoDateTime, slot: mealSlot, extra: { type: 'boolean' }, mutationId },
  required: ['prescrNo', 'medicineName', 'dose'],
} as const;
export type MedicineTaken = FromSchema<typeof medicineTakenSchema>;

/** Undo of a dose taken (soft delete; repeating it is harmless). */
export const medicineTakenDeleteSchema = {
  type: 'object',
  properties: { intakeId: uuid, baseVersion, madeAt, mutationId },
  required: ['intakeId'],
} as const;
export type MedicineTakenDelete = FromSchema<typeof medicineTakenDeleteSchema>;

export const medicineIntakeSchema = {
  $id: 'MedicineIntake',
  type: 'object',
  properties: {
    _id: uuid,
    prescrNo,
    medicineName,
    dose,
    takenAt: isoDateTime,
    updatedAt: isoDateTime,
    version: syncVersion,
    // Null on doses recorded before slots existed.
    slot: { anyOf: [mealSlot, { type: 'null' }] },
    extra: { type: 'boolean' },
  },
  required: ['_id', 'prescrNo', 'medicineName', 'dose', 'takenAt'],
  additionalProperties: false,
} as const;
export type MedicineIntake = FromSchema<typeof medicineIntakeSchema>;

/** Staff writing a prescription (admin area). */
export const prescriptionInputSchema = {
  type: 'object',
  properties: {
    prescrNo,
    name: medicineName,
    dose,
    startDate: { anyOf: [isoDate, { type: 'null' }] },
    endDate: { anyOf: [isoDate, { type: 'null' }] },
  },
  required: ['prescrNo', 'name', 'dose'],
} as const;
export type PrescriptionInput = FromSchema<typeof prescriptionInputSchema>;

export const prescriptionPatchSchema = {
  type: 'object',
  properties: {
    name: medicineName,
    dose,
    startDate: { anyOf: [isoDate, { type: 'null' }] },
    endDate: { anyOf: [isoDate, { type: 'null' }] },
  },
  minProperties: 1,
} as const;
export type PrescriptionPatch = FromSchema<typeof prescriptionPatchSchema>;

/**
 * "Remind Later" on a medicine notification: the same reminder once more at `remindAt` (default in
 * 15 minutes). `_id` is the device's id for this request, so a retried request schedules nothing new.
 */
export const remindLaterSchema = {
  type: 'object',
  properties: { _id: uuid, prescrNo, medicineName, dose, time: mealTime, remindAt: isoDateTime, mutationId },
  required: ['prescrNo', 'medicineName', 'dose', 'time'],
} as const;
export type RemindLater = FromSchema<typeof remindLaterSchema>;
