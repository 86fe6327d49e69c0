// Where medicines are synced: prescriptions come from the hospital, so this collection is only
// pulled (active ones; those that ended arrive as deletions). Marking a dose taken is its own call.
import type { Medicine } from '../schemas/medicine.ts';
import type { RestMapping } from './replication.ts';

export const medicineMapping: RestMapping<Medicine> = {
  collection: 'medicines',
  listPath: '/users/medicines',
  versioned: true,
  fromList(json) {
    const r = json as { medicines?: Medicine[]; deleted?: string[] };
    return { docs: r.medicines ?? [], deleted: r.deleted ?? [] };
  },
  toOp: () => undefined,
};
