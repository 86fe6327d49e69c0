// Glucose, symptoms, appointments and lab tests: spec §7 with the DESIGN.md §3 extensions (client
// `_id`, `recordedAt`, `?since=`) and docs/sync-protocol.md (versions, mutation ids, baseVersion).
// Reads are open to staff through X-Hosp-No; writes are the patient's own, each in one transaction.
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { sinceQuery } from '../../schemas/common.ts';
import { glucoseAddSchema, glucoseDeleteSchema, glucoseUpdateSchema } from '../../schemas/glucose.ts';
import { symptomAddSchema, symptomRemoveSchema } from '../../schemas/symptom.ts';
import { appointmentAddSchema, appointmentDeleteSchema, appointmentUpdateSchema } from '../../schemas/appointment.ts';
import { labTestAddSchema, labTestDeleteSchema, labTestUpdateSchema } from '../../schemas/lab-test.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import { sendJsonText } from '../http/json-text.ts';
import { answerWrite } from '../http/mutation-reply.ts';
import * as glucose from '../services/glucose-service.ts';
import * as symptoms from '../services/symptom-service.ts';
import * as appointments from '../services/appointment-service.ts';
import * as labs from '../services/lab-test-service.ts';
import { ok, okOrCreated } from '../services/mutations.ts';
import { parseSince } from '../services/record-helpers.ts';

export function recordRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }) };
  const write = { preHandler: patientAccess(ctx, { write: true }) };
  const listSchema = { schema: { querystring: sinceQuery } };

  api.get('/glucose', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await glucose.listGlucose(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  api.post('/glucose/add', { ...write, schema: { body: glucoseAddSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => okOrCreated(await glucose.addGlucose(tx, s.patientId, req.body))),
  );
  api.post('/glucose/update', { ...write, schema: { body: glucoseUpdateSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await glucose.updateGlucose(tx, s.patientId, req.body))),
  );
  api.post('/glucose/delete', { ...write, schema: { body: glucoseDeleteSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await glucose.deleteGlucose(tx, s.patientId, req.body))),
  );

  api.get('/symptoms', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await symptoms.listSymptoms(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  api.get('/symptoms/list', read, async () => symptoms.symptomReferenceList(ctx));
  api.post('/symptoms/add', { ...write, schema: { body: symptomAddSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => okOrCreated(await symptoms.addSymptom(tx, s, req.body))),
  );
  api.post('/symptoms/remove', { ...write, schema: { body: symptomRemoveSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await symptoms.removeSymptom(tx, s, req.body))),
  );

  api.get('/appointments', { ...read, ...listSchema }, async (req, reply) =>
    sendJsonText(reply, await appointments.listAppointments(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
  api.post('/appointments/add', { ...write, schema: { body: appointmentAddSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => okOrCreated(await appointments.addAppointment(tx, s.patientId, req.body))),
  );
  api.post('/appointments/update', { ...write, schema: { body: appointmentUpdateSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await appointments.updateAppointment(tx, s.patientId, req.body))),
  );
  api.post('/appointments/delete', { ...write, schema: { body: appointmentDeleteSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await appointments.deleteAppointment(tx, s.patientId, req.body))),
  );

  api.get('/tests', { ...read, ...listSchema }, async (req, reply) => sendJsonText(reply, await labs.listLabTests(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))));
  api.get('/tests/list', read, async () => labs.labTestReferenceList(ctx));
  api.post('/tests/add', { ...write, schema: { body: labTestAddSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => okOrCreated(await labs.addLabTest(tx, s.patientId, req.body))),
  );
  api.post('/tests/update', { ...write, schema: { body: labTestUpdateSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await labs.updateLabTest(tx, s.patientId, req.body))),
  );
  api.post('/tests/delete', { ...write, schema: { body: labTestDeleteSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await labs.deleteLabTest(tx, s.patientId, req.body))),
  );
}
