// Where appointments are synced (spec §7: add, update, delete).
import type { Appointment } from '../schemas/appointment.ts';
import type { RestMapping } from './replication.ts';

export const appointmentMapping: RestMapping<Appointment> = {
  collection: 'appointments',
  listPath: '/appointments',
  fromList(json) {
    const r = json as { appointments?: Appointment[]; deleted?: string[] };
    return { docs: r.appointments ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew) {
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', path: '/appointments/delete', body: { appointmentId: doc._id } };
    const fields = { doctor: doc.doctor, date: doc.date, notes: doc.notes };
    return isNew ? { kind: 'add', path: '/appointments/add', body: { _id: doc._id, ...fields } } : { kind: 'update', path: '/appointments/update', body: { appointmentId: doc._id, ...fields } };
  },
};
