// Where symptoms are synced. The API has no update for a symptom report: it is added or removed.
import type { Symptom } from '../schemas/symptom.ts';
import type { RestMapping } from './replication.ts';

export const symptomMapping: RestMapping<Symptom> = {
  collection: 'symptoms',
  listPath: '/symptoms',
  fromList(json) {
    const r = json as { symptoms?: Symptom[]; deleted?: string[] };
    return { docs: r.symptoms ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew) {
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', path: '/symptoms/remove', body: { _id: doc._id, symptom: doc.symptom, recordedAt: doc.recordedAt } };
    return isNew ? { kind: 'add', path: '/symptoms/add', body: { _id: doc._id, symptom: doc.symptom, recordedAt: doc.recordedAt } } : undefined;
  },
};
