import type { FromSchema } from 'json-schema-to-ts';
import { isoDateTime, optionalText, text, uuid } from './common.ts';

const doctor = text(120);
const notes = optionalText(2000);

export const appointmentSchema = {
  $id: 'Appointment',
  type: 'object',
  properties: { _id: uuid, doctor, date: isoDateTime, notes, updatedAt: isoDateTime },
  required: ['_id', 'doctor', 'date', 'notes'],
  additionalProperties: false,
} as const;
export type Appointment = FromSchema<typeof appointmentSchema>;

export const appointmentAddSchema = {
  type: 'object',
  properties: { _id: uuid, doctor, date: isoDateTime, notes },
  required: ['doctor', 'date'],
} as const;
export type AppointmentAdd = FromSchema<typeof appointmentAddSchema>;

export const appointmentUpdateSchema = {
  type: 'object',
  properties: { appointmentId: uuid, doctor, date: isoDateTime, notes },
  required: ['appointmentId', 'doctor', 'date'],
} as const;
export type AppointmentUpdate = FromSchema<typeof appointmentUpdateSchema>;

export const appointmentDeleteSchema = {
  type: 'object',
  properties: { appointmentId: uuid },
  required: ['appointmentId'],
} as const;
