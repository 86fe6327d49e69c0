// Where symptoms are synced. The API has no update for a symptom report: it is added or removed.
import type { Symptom } from '../schemas/symptom.ts';
import type { Answer, symptomList } from '../schemas/api.ts';
import { mutation } from '../schemas/mutations.ts';
import { baseOf, type RestMapping } from './replication.ts';

export const symptomMapping: RestMapping<Symptom, Answer<typeof symptomList>> = {
  collection: 'symptoms',
  listPath: '/symptoms',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.symptoms ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    if (doc._deleted) {
      if (isNew) return undefined;
      return mutation('symptom.remove', { _id: doc._id, symptom: doc.symptom, recordedAt: doc.recordedAt, ...baseOf(previous) });
    }
    return isNew ? mutation('symptom.add', { _id: doc._id, symptom: doc.symptom, recordedAt: doc.recordedAt }) : undefined;
  },
};
