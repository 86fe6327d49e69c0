// Where "Mark as taken" is synced: each dose taken is a record of its own, added on the device
// (also offline, from the dashboard or a reminder) and sent as POST /user/medicines/taken with the
// time it was taken. Doses are never changed or removed afterwards.
import type { MedicineIntake } from '../schemas/medicine.ts';
import type { RestMapping } from './replication.ts';

export const medicineIntakeMapping: RestMapping<MedicineIntake> = {
  collection: 'medicineIntakes',
  listPath: '/user/medicines/taken',
  fromList(json) {
    const r = json as { taken?: MedicineIntake[] };
    return { docs: r.taken ?? [], deleted: [] };
  },
  toOp(doc, isNew) {
    if (doc._deleted || !isNew) return undefined;
    return {
      kind: 'add',
      path: '/user/medicines/taken',
      body: { _id: doc._id, prescrNo: doc.prescrNo, medicineName: doc.medicineName, dose: doc.dose, takenAt: doc.takenAt },
    };
  },
};
