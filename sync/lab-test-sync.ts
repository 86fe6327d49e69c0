// Where lab tests are synced (docs/requirements.md §7: add, update, delete).
import type { LabTest } from '../schemas/lab-test.ts';
import type { Answer, labTestList } from '../schemas/api.ts';
import { baseOf, type RestMapping } from './replication.ts';

export const labTestMapping: RestMapping<LabTest, Answer<typeof labTestList>> = {
  collection: 'labTests',
  listPath: '/tests',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.tests ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    const base = baseOf(previous);
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', name: 'labTest.delete', path: '/tests/delete', body: { testId: doc._id, ...base }, versioned: true };
    const fields = { name: doc.name, value: doc.value, recordedAt: doc.recordedAt, ...(doc.unit ? { unit: doc.unit } : {}) };
    return isNew
      ? { kind: 'add', name: 'labTest.add', path: '/tests/add', body: { _id: doc._id, ...fields } }
      : { kind: 'update', name: 'labTest.change', path: '/tests/update', body: { testId: doc._id, ...fields, ...base }, versioned: true };
  },
};
