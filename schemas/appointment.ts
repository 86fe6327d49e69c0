import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, isoDateTime, mutationId, optionalText, syncVersion, text, uuid } from './common.ts';

const doctor = text(120);
const notes = optionalText(2000);

export const appointmentSchema = {
  $id: 'Appointment',
  type: 'object',
  properties: { _id: uuid, doctor, date: isoDateTime, notes, updatedAt: isoDateTime, version: syncVersion },
  required: ['_id', 'doctor', 'date', 'notes'],
  additionalProperties: false,
} as const;
export type Appointment = FromSchema<typeof appointmentSchema>;

export const appointmentAddSchema = {
  type: 'object',
  properties: { _id: uuid, doctor, date: isoDateTime, notes, mutationId },
  required: ['doctor', 'date'],
} as const;
export type AppointmentAdd = FromSchema<typeof appointmentAddSchema>;

/** What an edit or removal was made on (as glucoseMadeOnSchema): the appointment as the device held it. */
export const appointmentMadeOnSchema = {
  type: 'object',
  properties: { doctor, date: isoDateTime, notes },
  required: ['doctor', 'date'],
  additionalProperties: false,
} as const;
export type AppointmentMadeOn = FromSchema<typeof appointmentMadeOnSchema>;

export const appointmentUpdateSchema = {
  type: 'object',
  properties: { appointmentId: uuid, doctor, date: isoDateTime, notes, baseVersion, madeAt, madeOn: appointmentMadeOnSchema, mutationId },
  required: ['appointmentId', 'doctor', 'date'],
} as const;
export type AppointmentUpdate = FromSchema<typeof appointmentUpdateSchema>;

export const appointmentDeleteSchema = {
  type: 'object',
  properties: { appointmentId: uuid, baseVersion, madeAt, madeOn: appointmentMadeOnSchema, mutationId },
  required: ['appointmentId'],
} as const;
export type AppointmentDelete = FromSchema<typeof appointmentDeleteSchema>;
