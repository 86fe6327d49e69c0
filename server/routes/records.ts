// Glucose, symptoms, appointments and lab tests: spec §7 with the DESIGN.md §3 extensions (client
// `_id`, `recordedAt`, `?since=`) and docs/sync-protocol.md (versions, mutation ids, baseVersion).
// Reads are open to staff through X-Hosp-No; writes are the patient's own, each in one transaction
// (patient-writes.ts, shared with the batch route).
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
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
  const listSchema = { schema: { querystring: sinceQuery } };

  api.get('/glucose', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await glucose.listGlucose(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  postPatientWrite(api, ctx, '/glucose/add');
  postPatientWrite(api, ctx, '/glucose/update');
  postPatientWrite(api, ctx, '/glucose/delete');

  api.get('/symptoms', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await symptoms.listSymptoms(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  api.get('/symptoms/list', read, async () => symptoms.symptomReferenceList(ctx));
  postPatientWrite(api, ctx, '/symptoms/add');
  postPatientWrite(api, ctx, '/symptoms/remove');

  api.get('/appointments', { ...read, ...listSchema }, async (req, reply) =>
    sendJsonText(reply, await appointments.listAppointments(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  postPatientWrite(api, ctx, '/appointments/add');
  postPatientWrite(api, ctx, '/appointments/update');
  postPatientWrite(api, ctx, '/appointments/delete');

  api.get('/tests', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await labs.listLabTests(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  api.get('/tests/list', read, async () => labs.labTestReferenceList(ctx));
  postPatientWrite(api, ctx, '/tests/add');
  postPatientWrite(api, ctx, '/tests/update');
  postPatientWrite(api, ctx, '/tests/delete');
}
