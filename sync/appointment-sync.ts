// Where appointments are synced (docs/requirements.md §7: add, update, delete).
import type { Appointment } from '../schemas/appointment.ts';
import type { Answer, appointmentList } from '../schemas/api.ts';
import { baseOf, madeOnOf, type RestMapping } from './replication.ts';

export const appointmentMapping: RestMapping<Appointment, Answer<typeof appointmentList>> = {
  collection: 'appointments',
  listPath: '/appointments',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.appointments ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    const base = { ...baseOf(previous), ...madeOnOf(previous, (p) => typeof p.doctor === 'string' && typeof p.date === 'string', editFields) };
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', name: 'appointment.delete', path: '/appointments/delete', body: { appointmentId: doc._id, ...base }, versioned: true };
    const fields = editFields(doc);
    return isNew
      ? { kind: 'add', name: 'appointment.add', path: '/appointments/add', body: { _id: doc._id, ...fields } }
      : { kind: 'update', name: 'appointment.change', path: '/appointments/update', body: { appointmentId: doc._id, ...fields, ...base }, versioned: true };
  },
};

/** An appointment in the fields of an edit. */
const editFields = (doc: Appointment) => ({ doctor: doc.doctor, date: doc.date, notes: doc.notes });
