import type { AppContext } from '../context.ts';
import type { AppointmentAdd, AppointmentDelete, AppointmentMadeOn, AppointmentUpdate } from '../../schemas/appointment.ts';
import { appointmentRepo } from '../repositories/records.ts';
import { appointmentDto } from './dto.ts';
import { guardedDelete, guardedUpdate, type ConflictWords } from './record-conflicts.ts';
import { calendarTime, listSynced, ownAdd, recordId, type ListKeys, type Since } from './record-helpers.ts';

export const APPOINTMENT_MSG = {
  added: 'Appointment added successfully',
  updated: 'Appointment updated successfully',
  removed: 'Appointment removed successfully',
  notFound: 'Appointment not found',
} as const;

export const APPOINTMENT_CONFLICT: ConflictWords = {
  notFound: APPOINTMENT_MSG.notFound,
  changed: 'This appointment was changed on another device or by your care team since you edited it.',
  deleted: 'This appointment was deleted on another device.',
  changedNotDeleted: 'This appointment was changed on another device or by your care team, so it was not removed.',
};

const shape: ListKeys = [['appointments', null]];

export async function listAppointments(ctx: AppContext, patientId: string, since?: Since) {
  return listSynced(ctx, appointmentRepo, patientId, since, shape);
}

const addRow = (patientId: string, input: AppointmentAdd) => ({
  id: recordId(input._id),
  patientId,
  doctor: input.doctor.trim(),
  date: calendarTime('date', input.date),
  notes: input.notes ?? '',
});

export async function addAppointment(ctx: AppContext, patientId: string, input: AppointmentAdd) {
  const { row, created } = ownAdd(await appointmentRepo.insertIdempotent(ctx.db, addRow(patientId, input)));
  return { created, body: { message: APPOINTMENT_MSG.added, data: appointmentDto(row) } };
}

/** addAppointment of a new appointment with a mutation id, in one statement (see insertAnswered). */
export async function addAppointmentAnswered(ctx: AppContext, patientId: string, input: AppointmentAdd, mutationId: string) {
  return appointmentRepo.insertAnswered(ctx.db, addRow(patientId, input), { message: APPOINTMENT_MSG.added, mutationId });
}

/** What an edit or removal was made on, as the row would hold it (see glucose-service.ts). */
const madeOnValues = (on: AppointmentMadeOn | undefined) => on && { doctor: on.doctor.trim(), date: new Date(on.date), notes: on.notes ?? '' };

export async function updateAppointment(ctx: AppContext, patientId: string, input: AppointmentUpdate) {
  const row = await guardedUpdate(
    ctx.db,
    appointmentRepo,
    { patientId, id: input.appointmentId, baseVersion: input.baseVersion, madeOn: madeOnValues(input.madeOn) },
    {
      doctor: input.doctor.trim(),
      date: calendarTime('date', input.date),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
    },
    appointmentDto,
    APPOINTMENT_CONFLICT,
  );
  return { message: APPOINTMENT_MSG.updated, data: appointmentDto(row) };
}

export async function deleteAppointment(ctx: AppContext, patientId: string, input: AppointmentDelete) {
  await guardedDelete(
    ctx.db,
    appointmentRepo,
    { patientId, id: input.appointmentId, baseVersion: input.baseVersion, madeOn: madeOnValues(input.madeOn) },
    appointmentDto,
    APPOINTMENT_CONFLICT,
  );
  return { message: APPOINTMENT_MSG.removed };
}
