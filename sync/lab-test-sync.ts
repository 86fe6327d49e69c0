// Where lab tests are synced (spec §7: add, update, delete).
import type { LabTest } from '../schemas/lab-test.ts';
import type { RestMapping } from './replication.ts';

export const labTestMapping: RestMapping<LabTest> = {
  collection: 'labTests',
  listPath: '/tests',
  fromList(json) {
    const r = json as { tests?: LabTest[]; deleted?: string[] };
    return { docs: r.tests ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew) {
    if (doc._deleted) return isNew ? undefined : { kind: 'delete', path: '/tests/delete', body: { testId: doc._id } };
    const fields = { name: doc.name, value: doc.value, recordedAt: doc.recordedAt, ...(doc.unit ? { unit: doc.unit } : {}) };
    return isNew ? { kind: 'add', path: '/tests/add', body: { _id: doc._id, ...fields } } : { kind: 'update', path: '/tests/update', body: { testId: doc._id, ...fields } };
  },
};
