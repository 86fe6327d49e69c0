// Where glucose is synced: the REST shape of spec §7 (three lists by type; add, update, delete).
import type { GlucoseReading } from '../schemas/glucose.ts';
import type { RestMapping } from './replication.ts';

type ListResponse = { fasting?: GlucoseReading[]; postprandial?: GlucoseReading[]; random?: GlucoseReading[]; deleted?: string[] };

export const glucoseMapping: RestMapping<GlucoseReading> = {
  collection: 'glucose',
  listPath: '/glucose',
  fromList(json) {
    const r = json as ListResponse;
    return { docs: [...(r.fasting ?? []), ...(r.postprandial ?? []), ...(r.random ?? [])], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew) {
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', path: '/glucose/delete', body: { glucoseId: doc._id } };
    if (isNew) return { kind: 'add', path: '/glucose/add', body: { _id: doc._id, type: doc.type, value: doc.value, recordedAt: doc.recordedAt } };
    return { kind: 'update', path: '/glucose/update', body: { glucoseId: doc._id, gtype: doc.type, gvalue: doc.value, recordedAt: doc.recordedAt } };
  },
};
