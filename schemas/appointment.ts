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

export const appointmentUpdateSchema = {
  type: 'object',
  properties: { appointmentId: uuid, doctor, date: isoDateTime, notes, baseVersion, madeAt, mutationId },
  required: ['appointmentId', 'doctor', 'date'],
} as const;
export type AppointmentUpdate = FromSchema<typeof appointmentUpdateSchema>;

export const appointmentDeleteSchema = {
  type: 'object',
  properties: { appointmentId: uuid, baseVersion, madeAt, mutationId },
  required: ['appointmentId'],
} as const;
export type AppointmentDelete = FromSchema<typeof appointmentDeleteSchema>;
