// Where appointments are synced (docs/requirements.md §7: add, update, delete).
import type { Appointment } from '../schemas/appointment.ts';
import type { Answer, appointmentList } from '../schemas/api.ts';
import { mutation } from '../schemas/mutations.ts';
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
    if (doc._deleted) return isNew ? undefined : mutation('appointment.delete', { appointmentId: doc._id, ...base });
    const fields = editFields(doc);
    return isNew ? mutation('appointment.add', { _id: doc._id, ...fields }) : mutation('appointment.update', { appointmentId: doc._id, ...fields, ...base });
  },
};

/** An appointment in the fields of an edit. */
const editFields = (doc: Appointment) => ({ doctor: doc.doctor, date: doc.date, notes: doc.notes });
