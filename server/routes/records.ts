// Glucose, symptoms, appointments and lab tests: docs/requirements.md §7 with the docs/requirements.md §10 extensions (client
// `_id`, `recordedAt`, `?since=`) and docs/sync-protocol.md (versions, mutation ids, baseVersion).
// Reads are open to staff through X-Hosp-No; writes are the patient's own, each in one transaction
// (patient-writes.ts, shared with the batch route).
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, appointmentList, glucoseList, labTestList, labTestNames, symptomList, symptomNames } from '../../schemas/api.ts';
import { sinceQuery } from '../../schemas/common.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import { sendJsonText } from '../http/json-text.ts';
import * as glucose from '../services/glucose-service.ts';
import * as symptoms from '../services/symptom-service.ts';
import * as appointments from '../services/appointment-service.ts';
import * as labs from '../services/lab-test-service.ts';
import { parseSince } from '../services/record-helpers.ts';
import { postPatientWrite } from './patient-writes.ts';

export function recordRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }) };
  const list = (summary: string, response: Readonly<Record<string, unknown>>) => ({
    ...read,
    schema: { summary, querystring: sinceQuery, response: answers(response) },
  });

  api.get('/glucose', list('Glucose readings, by type; incremental with ?since=', glucoseList), async (req, reply) =>
    sendJsonText(reply, await glucose.listGlucose(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  postPatientWrite(api, ctx, 'glucose.add');
  postPatientWrite(api, ctx, 'glucose.update');
  postPatientWrite(api, ctx, 'glucose.delete');

  api.get('/symptoms', list('Symptoms; incremental with ?since=', symptomList), async (req, reply) =>
    sendJsonText(reply, await symptoms.listSymptoms(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  api.get('/symptoms/list', { ...read, schema: { summary: 'The symptoms a patient can pick from', response: answers(symptomNames) } }, async () =>
    symptoms.symptomReferenceList(ctx),
  );
  postPatientWrite(api, ctx, 'symptom.add');
  postPatientWrite(api, ctx, 'symptom.remove');

  api.get('/appointments', list('Appointments; incremental with ?since=', appointmentList), async (req, reply) =>
    sendJsonText(reply, await appointments.listAppointments(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  postPatientWrite(api, ctx, 'appointment.add');
  postPatientWrite(api, ctx, 'appointment.update');
  postPatientWrite(api, ctx, 'appointment.delete');

  api.get('/tests', list('Lab test results; incremental with ?since=', labTestList), async (req, reply) =>
    sendJsonText(reply, await labs.listLabTests(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  api.get(
    '/tests/list',
    { ...read, schema: { summary: 'The lab tests a patient can record, with units and ranges', response: answers(labTestNames) } },
    async () => labs.labTestReferenceList(ctx),
  );
  postPatientWrite(api, ctx, 'labTest.add');
  postPatientWrite(api, ctx, 'labTest.update');
  postPatientWrite(api, ctx, 'labTest.delete');
}
