// Where "Mark as taken" is synced: each dose taken is a record of its own, added on the device
// (also offline, from the dashboard or a reminder) and sent as POST /user/medicines/taken with the
// time it was taken and its meal slot. One dose per prescription, day and meal slot unless the
// patient says it was an extra one (docs/sync-protocol.md); undo removes it.
import type { MedicineIntake } from '../schemas/medicine.ts';
import type { Answer, intakeList } from '../schemas/api.ts';
import { mutation } from '../schemas/mutations.ts';
import { baseOf, type RestMapping } from './replication.ts';

export const medicineIntakeMapping: RestMapping<MedicineIntake, Answer<typeof intakeList>> = {
  collection: 'medicineIntakes',
  listPath: '/user/medicines/taken',
  versioned: true,
  fromList(json) {
    const r = json;
    return { docs: r.taken ?? [], deleted: r.deleted ?? [] };
  },
  toOp(doc, isNew, previous) {
    if (doc._deleted) {
      if (isNew) return undefined;
      return mutation('dose.undo', { intakeId: doc._id, ...baseOf(previous) });
    }
    if (!isNew) return undefined;
    return mutation('dose.markTaken', {
      _id: doc._id,
      prescrNo: doc.prescrNo,
      medicineName: doc.medicineName,
      dose: doc.dose,
      takenAt: doc.takenAt,
      ...(doc.slot ? { slot: doc.slot } : {}),
      ...(doc.extra ? { extra: true } : {}),
    });
  },
};
