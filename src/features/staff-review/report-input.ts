// The staff member's cached review bundle → ReportInput (report/types.ts), so /admin/report
// makes the same report as the patient's device and the server, from what is on the ward PC (it
// works offline). The bundle holds the whole record; buildReport keeps what the range needs.
import type { ReportInput } from '../../../report/types.ts';
import type { ReviewBundle } from './types.ts';

/** The patient's time zone, or the device's when the bundle's profile does not name one. */
export function reviewTimeZone(bundle: ReviewBundle): string {
  return bundle.profile.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function reportInputFromReview(bundle: ReviewBundle, range: { from: string; to: string }, generatedAt: string): ReportInput {
  const p = bundle.profile;
  const readings = [...bundle.glucose.fasting, ...bundle.glucose.postprandial, ...bundle.glucose.random];
  // A dose's name and strength come from its prescription when the intake did not carry them.
  const prescriptions = new Map(bundle.prescriptions.map((m) => [m.prescrNo, m]));
  return {
    patient: {
      name: p.name,
      hospNo: p.hospNum || bundle.hospNo,
      hospital: p.hospital ?? null,
      // Without it the FHIR export is refused: an offline copy saved before the profile carried it
      // gets it when the patient is next opened online.
      identifierSystem: p.hospitalSettings?.identifierSystem ?? null,
      gender: p.gender ?? null,
      age: p.age ?? null,
      timeZone: reviewTimeZone(bundle),
      notificationTimings: p.notificationTimings ?? null,
      glucometerAlerts: p.glucometerAlerts ?? null,
    },
    range: { from: range.from, to: range.to },
    readings: readings.map((r) => ({
      _id: r._id,
      type: r.type,
      value: r.value,
      unit: r.unit ?? null,
      enteredValue: r.enteredValue ?? null,
      recordedAt: r.recordedAt,
      utcOffsetMinutes: r.utcOffsetMinutes ?? null,
    })),
    medicines: bundle.prescriptions.map((m) => ({
      prescrNo: m.prescrNo,
      name: m.name,
      dose: m.dose,
      startDate: m.startDate ?? null,
      endDate: m.endDate ?? null,
    })),
    intakes: bundle.doses.map((d) => {
      const prescription = prescriptions.get(d.prescrNo);
      const name = d.medicineName ?? prescription?.name;
      return {
        prescrNo: d.prescrNo,
        ...(name !== undefined ? { medicineName: name } : {}),
        ...(prescription ? { dose: prescription.dose } : {}),
        takenAt: d.takenAt,
      };
    }),
    symptoms: bundle.symptoms.map((s) => ({ symptom: s.symptom, recordedAt: s.recordedAt })),
    labTests: bundle.tests.map((t) => ({ _id: t._id, name: t.name, value: t.value, unit: t.unit || null, recordedAt: t.recordedAt })),
    appointments: bundle.appointments.map((a) => ({ doctor: a.doctor, date: a.date, notes: a.notes ?? null })),
    generatedAt,
  };
}
