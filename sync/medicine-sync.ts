// Where medicines are synced: prescriptions come from the hospital, so this collection is only
// pulled (active ones; those that ended arrive as deletions). Marking a dose taken is its own call.
import type { Medicine } from '../schemas/medicine.ts';
import type { Answer, medicineList } from '../schemas/api.ts';
import type { RestMapping } from './replication.ts';

export const medicineMapping: RestMapping<Medicine, Answer<typeof medicineList>> = {
  collection: 'medicines',
  listPath: '/users/medicines',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.medicines ?? [], deleted: r.deleted ?? [] };
  },
  toOp: () => undefined,
};
