import type { AppContext } from '../context.ts';
import type { AppointmentAdd, AppointmentUpdate } from '../../schemas/appointment.ts';
import { notFound } from '../http/errors.ts';
import { appointmentRepo } from '../repositories/records.ts';
import { appointmentDto } from './dto.ts';
import { calendarTime, ownAdd, recordId } from './record-helpers.ts';

export const APPOINTMENT_MSG = {
  added: 'Appointment added successfully',
  updated: 'Appointment updated successfully',
  removed: 'Appointment removed successfully',
  notFound: 'Appointment not found',
} as const;

export async function listAppointments(ctx: AppContext, patientId: string, since?: Date) {
  const { rows, deleted } = await appointmentRepo.listChanges(ctx.db, patientId, since);
  return { appointments: rows.map(appointmentDto), ...(since ? { deleted } : {}) };
}

export async function addAppointment(ctx: AppContext, patientId: string, input: AppointmentAdd) {
  const { row, created } = ownAdd(
    await appointmentRepo.insertIdempotent(ctx.db, {
      id: recordId(input._id),
      patientId,
      doctor: input.doctor.trim(),
      date: calendarTime('date', input.date),
      notes: input.notes ?? '',
    }),
  );
  return { created, body: { message: APPOINTMENT_MSG.added, data: appointmentDto(row) } };
}

export async function updateAppointment(ctx: AppContext, patientId: string, input: AppointmentUpdate) {
  const row = await appointmentRepo.updateOwn(ctx.db, patientId, input.appointmentId, {
    doctor: input.doctor.trim(),
    date: calendarTime('date', input.date),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  });
  if (!row) throw notFound(APPOINTMENT_MSG.notFound);
  return { message: APPOINTMENT_MSG.updated, data: appointmentDto(row) };
}

export async function deleteAppointment(ctx: AppContext, patientId: string, appointmentId: string) {
  if (!(await appointmentRepo.softDeleteOwn(ctx.db, patientId, appointmentId))) throw notFound(APPOINTMENT_MSG.notFound);
  return { message: APPOINTMENT_MSG.removed };
}
