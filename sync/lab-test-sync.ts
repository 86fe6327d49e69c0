// Where lab tests are synced (docs/requirements.md §7: add, update, delete).
import type { LabTest } from '../schemas/lab-test.ts';
import type { Answer, labTestList } from '../schemas/api.ts';
import { mutation } from '../schemas/mutations.ts';
import { baseOf, madeOnOf, type RestMapping } from './replication.ts';

export const labTestMapping: RestMapping<LabTest, Answer<typeof labTestList>> = {
  collection: 'labTests',
  listPath: '/tests',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.tests ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    const base = {
      ...baseOf(previous),
      ...madeOnOf(previous, (p) => typeof p.name === 'string' && typeof p.value === 'number' && typeof p.recordedAt === 'string', editFields),
    };
    if (doc._deleted) return isNew ? undefined : mutation('labTest.delete', { testId: doc._id, ...base });
    const fields = editFields(doc);
    return isNew ? mutation('labTest.add', { _id: doc._id, ...fields }) : mutation('labTest.update', { testId: doc._id, ...fields, ...base });
  },
};

/** A test in the fields of an edit. */
const editFields = (doc: LabTest) => ({ name: doc.name, value: doc.value, recordedAt: doc.recordedAt, ...(doc.unit ? { unit: doc.unit } : {}) });
