// Where glucose is synced: the REST shape of docs/requirements.md §7 (three lists by type; add, update, delete).
import type { GlucoseUnit } from '../schemas/glucose-units.ts';
import type { GlucoseReading } from '../schemas/glucose.ts';
import type { Answer, glucoseList } from '../schemas/api.ts';
import { mutation } from '../schemas/mutations.ts';
import { baseOf, madeOnOf, type RestMapping } from './replication.ts';

export const glucoseMapping: RestMapping<GlucoseReading, Answer<typeof glucoseList>> = {
  collection: 'glucose',
  listPath: '/glucose',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: [...(r.fasting ?? []), ...(r.postprandial ?? []), ...(r.random ?? [])], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    const base = { ...baseOf(previous), ...madeOnOf(previous, (p) => typeof p.value === 'number' && typeof p.type === 'string', editFields) };
    if (doc._deleted) return isNew ? undefined : mutation('glucose.delete', { glucoseId: doc._id, ...base });
    if (isNew) return mutation('glucose.add', { _id: doc._id, type: doc.type, value: doc.value, ...entered(doc), recordedAt: doc.recordedAt, ...offset(doc) });
    return mutation('glucose.update', { glucoseId: doc._id, ...editFields(doc), ...base });
  },
};

/** A reading in the fields of an edit. */
function editFields(doc: GlucoseReading) {
  return { gtype: doc.type, gvalue: doc.value, ...entered(doc), recordedAt: doc.recordedAt, ...offset(doc) };
}

/** The value as typed, when the reading carries it (readings from before it was kept carry none). */
function entered(doc: GlucoseReading): { unit?: GlucoseUnit; enteredValue?: number } {
  return doc.unit && typeof doc.enteredValue === 'number' ? { unit: doc.unit, enteredValue: doc.enteredValue } : {};
}

/** The device's UTC offset when the reading was taken, when it carries one (older readings do not). */
function offset(doc: GlucoseReading): { utcOffsetMinutes?: number } {
  return typeof doc.utcOffsetMinutes === 'number' ? { utcOffsetMinutes: doc.utcOffsetMinutes } : {};
}
