// Rows → the JSON shapes of docs/requirements.md §3/§7 (`_id`, ISO strings, glucose `value` in mg/dL), each with
// the row's `version` (docs/sync-protocol.md). Keys in the order the routes' serializer writes them
// (the schema's required properties first), as json-view.ts does.
import type { AppointmentRow, GlucoseRow, IntakeRow, LabTestRow, SymptomRow } from '../repositories/records.ts';
import type { PrescriptionRow } from '../repositories/medicines.ts';
import type { HospitalRow } from '../repositories/staff.ts';
import { defaultIdentifierSystem } from '../../schemas/admin.ts';

const iso = (d: Date) => d.toISOString();

export const glucoseDto = (r: GlucoseRow) => ({
  _id: r.id,
  type: r.type,
  value: r.valueMgDl,
  recordedAt: iso(r.recordedAt),
  unit: r.enteredUnit,
  enteredValue: r.enteredValue,
  utcOffsetMinutes: r.utcOffsetMinutes,
  updatedAt: iso(r.updatedAt),
  version: r.version,
});
export const symptomDto = (r: SymptomRow) => ({
  _id: r.id,
  symptom: r.symptom,
  recordedAt: iso(r.recordedAt),
  updatedAt: iso(r.updatedAt),
  version: r.version,
});
export const appointmentDto = (r: AppointmentRow) => ({
  _id: r.id,
  doctor: r.doctor,
  date: iso(r.date),
  notes: r.notes,
  updatedAt: iso(r.updatedAt),
  version: r.version,
});
export const labTestDto = (r: LabTestRow) => ({
  _id: r.id,
  name: r.name,
  value: r.value,
  recordedAt: iso(r.recordedAt),
  unit: r.unit,
  updatedAt: iso(r.updatedAt),
  version: r.version,
});
export const medicineDto = (r: PrescriptionRow) => ({
  _id: r.id,
  prescrNo: r.prescrNo,
  name: r.name,
  dose: r.dose,
  startDate: r.startDate,
  endDate: r.endDate,
  updatedAt: iso(r.updatedAt),
  version: r.version,
});
export const intakeDto = (r: IntakeRow) => ({
  _id: r.id,
  prescrNo: r.prescrNo,
  medicineName: r.medicineName,
  dose: r.dose,
  takenAt: iso(r.takenAt),
  slot: r.slot,
  extra: r.extra,
  updatedAt: iso(r.updatedAt),
  version: r.version,
});

export const hospitalDto = (h: HospitalRow) => ({
  _id: h.id,
  name: h.name,
  timeZone: h.timeZone,
  severeLowMgDl: h.severeLowMgDl,
  identifierSystem: h.identifierSystem ?? defaultIdentifierSystem(h.id),
  urgentHighMgDl: h.urgentHighMgDl,
  careContact: h.careContact,
  requireStaffMfa: h.requireStaffMfa,
});
