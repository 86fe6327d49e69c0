// Where lab tests are synced (docs/requirements.md §7: add, update, delete).
import type { LabTest } from '../schemas/lab-test.ts';
import type { Answer, labTestList } from '../schemas/api.ts';
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
    const base = { ...baseOf(previous), ...madeOnOf(previous, (p) => typeof p.name === 'string' && typeof p.value === 'number' && typeof p.recordedAt === 'string', editFields) };
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', name: 'labTest.delete', path: '/tests/delete', body: { testId: doc._id, ...base }, versioned: true };
    const fields = editFields(doc);
    return isNew
      ? { kind: 'add', name: 'labTest.add', path: '/tests/add', body: { _id: doc._id, ...fields } }
      : { kind: 'update', name: 'labTest.change', path: '/tests/update', body: { testId: doc._id, ...fields, ...base }, versioned: true };
  },
};

/** A test in the fields of an edit. */
const editFields = (doc: LabTest) => ({ name: doc.name, value: doc.value, recordedAt: doc.recordedAt, ...(doc.unit ? { unit: doc.unit } : {}) });
