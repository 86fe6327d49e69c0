// Where medicines are synced: prescriptions come from the hospital, so this collection is only
// pulled. It holds every prescription, ended ones too (`include=ended`): the report over a past
// period lists the medicines of that period, as the server's report does. What counts as active
// today is decided on the device from the end date (src/features/medicines/active.ts), since an end
// date that passes at midnight changes nothing on the server. Marking a dose taken is its own call.
import type { Medicine } from '../schemas/medicine.ts';
import type { Answer, medicineList } from '../schemas/api.ts';
import type { RestMapping } from './replication.ts';

export const medicineMapping: RestMapping<Medicine, Answer<typeof medicineList>> = {
  collection: 'medicines',
  listPath: '/users/medicines',
  // A device that pulled only the active ones (an earlier app) pulls everything once (Checkpoint.query).
  listQuery: 'include=ended',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.medicines ?? [], deleted: r.deleted ?? [] };
  },
  toOp: () => undefined,
};
