import type { FromSchema } from 'json-schema-to-ts';
import { isoDate, isoDateTime, text, uuid } from './common.ts';
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
  },
  required: ['_id', 'prescrNo', 'name', 'dose'],
  additionalProperties: false,
} as const;
export type Medicine = FromSchema<typeof medicineSchema>;

export const medicineTakenSchema = {
  type: 'object',
  properties: { _id: uuid, prescrNo, medicineName, dose, takenAt: isoDateTime },
  required: ['prescrNo', 'medicineName', 'dose'],
} as const;
export type MedicineTaken = FromSchema<typeof medicineTakenSchema>;

export const medicineIntakeSchema = {
  $id: 'MedicineIntake',
  type: 'object',
  properties: { _id: uuid, prescrNo, medicineName, dose, takenAt: isoDateTime, updatedAt: isoDateTime },
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
  properties: { _id: uuid, prescrNo, medicineName, dose, time: mealTime, remindAt: isoDateTime },
  required: ['prescrNo', 'medicineName', 'dose', 'time'],
} as const;
export type RemindLater = FromSchema<typeof remindLaterSchema>;
