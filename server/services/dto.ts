// Rows → the JSON shapes of spec §3/§7 (`_id`, ISO strings, glucose `value` in mg/dL).
import type { AppointmentRow, GlucoseRow, LabTestRow, SymptomRow } from '../repositories/records.ts';
import type { IntakeRow, PrescriptionRow } from '../repositories/medicines.ts';

const iso = (d: Date) => d.toISOString();

export const glucoseDto = (r: GlucoseRow) => ({ _id: r.id, type: r.type, value: r.valueMgDl, recordedAt: iso(r.recordedAt), updatedAt: iso(r.updatedAt) });
export const symptomDto = (r: SymptomRow) => ({ _id: r.id, symptom: r.symptom, recordedAt: iso(r.recordedAt), updatedAt: iso(r.updatedAt) });
export const appointmentDto = (r: AppointmentRow) => ({ _id: r.id, doctor: r.doctor, date: iso(r.date), notes: r.notes, updatedAt: iso(r.updatedAt) });
export const labTestDto = (r: LabTestRow) => ({ _id: r.id, name: r.name, value: r.value, unit: r.unit, recordedAt: iso(r.recordedAt), updatedAt: iso(r.updatedAt) });
export const medicineDto = (r: PrescriptionRow) => ({
  _id: r.id,
  prescrNo: r.prescrNo,
  name: r.name,
  dose: r.dose,
  startDate: r.startDate,
  endDate: r.endDate,
  updatedAt: iso(r.updatedAt),
});
export const intakeDto = (r: IntakeRow) => ({ _id: r.id, prescrNo: r.prescrNo, medicineName: r.medicineName, dose: r.dose, takenAt: iso(r.takenAt), updatedAt: iso(r.updatedAt) });
