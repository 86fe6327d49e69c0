// Reports on the server (docs/requirements.md §7 POST /users/report; staff: /admin/report and its FHIR export),
// made by the same buildReport + renderReportPdf + fhirBundle as on the device, from PostgreSQL.
import type { AppContext } from '../context.ts';
import { previousRange } from '../../report/build-report.ts';
import { defaultIdentifierSystem } from '../../schemas/admin.ts';
import { addDays, daysInclusive, isIsoDate } from '../../report/dates.ts';
import type { FhirBundle } from '../../report/fhir.ts';
import { MAX_REPORT_DAYS, type ReportRequest } from '../../schemas/report-request.ts';
import type { ReportInput, ReportModel } from '../../report/types.ts';
import { badRequest, unauthorized } from '../http/errors.ts';
import { patientRepo } from '../repositories/patients.ts';
import { referenceRepo } from '../repositories/reference.ts';
import { reportRepo } from '../repositories/report.ts';
import { alertDaysOf } from './profile-service.ts';
import { render } from '../reports/pool.ts';
import { resolveReportLocale } from './report-i18n.ts';

export const REPORT_MSG = {
  badDate: (field: string) => `${field} must be a real date (YYYY-MM-DD)`,
  order: 'from must be on or before to',
  tooLong: (days: number) => `A report covers at most ${MAX_REPORT_DAYS} days; ${days} were asked for`,
} as const;

/** The range as asked, checked: real dates, from ≤ to, at most MAX_REPORT_DAYS days. */
export function checkRange(body: Pick<ReportRequest, 'from' | 'to'>): ReportInput['range'] {
  if (!isIsoDate(body.from)) throw badRequest(REPORT_MSG.badDate('from'));
  if (!isIsoDate(body.to)) throw badRequest(REPORT_MSG.badDate('to'));
  if (body.from > body.to) throw badRequest(REPORT_MSG.order);
  const days = daysInclusive(body.from, body.to);
  if (days > MAX_REPORT_DAYS) throw badRequest(REPORT_MSG.tooLong(days));
  return { from: body.from, to: body.to };
}

const iso = (d: Date) => d.toISOString();

/**
 * Everything the report shows about one patient for `range` and the period before it. Instants are
 * fetched from a day before to a day after the local dates (time zones run from −12 to +14 hours),
 * and buildReport keeps the patient's local days exactly.
 */
export async function reportInput(ctx: Pick<AppContext, 'db'>, patientId: string, range: ReportInput['range'], now = new Date()): Promise<ReportInput> {
  const found = await patientRepo.withHospital(ctx.db, patientId);
  if (!found) throw unauthorized();
  const p = found.patient;
  const window = { from: new Date(`${addDays(previousRange(range).from, -1)}T00:00:00Z`), to: new Date(`${addDays(range.to, 2)}T00:00:00Z`) };
  const [readings, symptoms, intakes, medicines, labs, appointments, reference] = await Promise.all([
    reportRepo.glucose(ctx.db, p.id, window),
    reportRepo.symptoms(ctx.db, p.id, window),
    reportRepo.intakes(ctx.db, p.id, window),
    reportRepo.prescriptions(ctx.db, p.id),
    reportRepo.labTests(ctx.db, p.id, window.to),
    reportRepo.appointments(ctx.db, p.id, window),
    referenceRepo.labTests(ctx.db),
  ]);
  const loinc = new Map(reference.map((r) => [r.name.toLowerCase(), r.loinc]));
  return {
    patient: {
      name: p.name,
      hospNo: p.hospNo,
      hospital: found.hospitalName,
      identifierSystem: found.hospital.identifierSystem ?? defaultIdentifierSystem(found.hospital.id),
      gender: p.gender,
      age: p.age,
      timeZone: p.timeZone,
      notificationTimings: p.notificationTimings,
      glucometerAlerts: alertDaysOf({ glucometerAlerts: p.glucometerAlerts }),
    },
    range,
    readings: readings.map((r) => ({
      _id: r.id,
      type: r.type,
      value: r.value,
      unit: r.unit,
      enteredValue: r.enteredValue,
      recordedAt: iso(r.recordedAt),
      utcOffsetMinutes: r.utcOffsetMinutes,
    })),
    medicines: medicines.map((m) => ({ prescrNo: m.prescrNo, name: m.name, dose: m.dose, startDate: m.startDate, endDate: m.endDate })),
    intakes: intakes.map((i) => ({ prescrNo: i.prescrNo, medicineName: i.medicineName, dose: i.dose, takenAt: iso(i.takenAt) })),
    symptoms: symptoms.map((s) => ({ symptom: s.symptom, recordedAt: iso(s.recordedAt) })),
    labTests: labs.map((t) => ({
      _id: t.id,
      name: t.name,
      value: t.value,
      unit: t.unit,
      loinc: loinc.get(t.name.toLowerCase()) ?? null,
      recordedAt: iso(t.recordedAt),
    })),
    appointments: appointments.map((a) => ({ doctor: a.doctor, date: iso(a.date), notes: a.notes || null })),
    generatedAt: iso(now),
  };
}

export interface ReportFile<T> {
  fileName: string;
  body: T;
}

/** The report over the body's range in the body's unit (mg/dL when it names none), built in a worker thread. */
export async function reportModel(
  ctx: AppContext,
  patientId: string,
  body: Pick<ReportRequest, 'from' | 'to' | 'unit'>,
  now = new Date(),
): Promise<ReportModel> {
  return (await render({ kind: 'model', input: await reportInput(ctx, patientId, checkRange(body), now), unit: body.unit ?? 'mg/dL' })).model;
}

/** The PDF in the language asked for (else the one the request prefers, else English). */
export async function reportPdf(
  ctx: AppContext,
  patientId: string,
  body: ReportRequest,
  acceptLanguage?: string,
  now = new Date(),
): Promise<ReportFile<Uint8Array>> {
  const input = await reportInput(ctx, patientId, checkRange(body), now);
  const { catalog, intl } = resolveReportLocale(body.locale ?? preferredLanguage(acceptLanguage));
  const { fileName, body: bytes } = await render({ kind: 'pdf', input, unit: body.unit ?? 'mg/dL', catalog, intl });
  return { fileName, body: bytes };
}

export async function reportFhir(
  ctx: AppContext,
  patientId: string,
  body: Pick<ReportRequest, 'from' | 'to' | 'unit'>,
  now = new Date(),
): Promise<ReportFile<FhirBundle>> {
  const input = await reportInput(ctx, patientId, checkRange(body), now);
  const { fileName, body: bundle } = await render({ kind: 'fhir', input, unit: body.unit ?? 'mg/dL' });
  return { fileName, body: bundle };
}

/** The readings as CSV (report/csv.ts) in the language and unit asked for. */
export async function reportCsvFile(
  ctx: AppContext,
  patientId: string,
  body: ReportRequest,
  acceptLanguage?: string,
  now = new Date(),
): Promise<ReportFile<string>> {
  const input = await reportInput(ctx, patientId, checkRange(body), now);
  const { catalog } = resolveReportLocale(body.locale ?? preferredLanguage(acceptLanguage));
  const { fileName, body: text } = await render({ kind: 'csv', input, unit: body.unit ?? 'mg/dL', catalog });
  return { fileName, body: text };
}

/** The first language of an Accept-Language header ("es-MX,es;q=0.9" → es-MX). */
export function preferredLanguage(header: string | undefined): string | undefined {
  const first = header?.split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : undefined;
}
