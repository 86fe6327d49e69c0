// Glucose, symptoms, appointments and lab tests: spec §7 with the DESIGN.md §3 extensions
// (client `_id`, `recordedAt`, `?since=`). Reads are open to staff through X-Hosp-No; writes are
// the patient's own.
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { sinceQuery } from '../../schemas/common.ts';
import { glucoseAddSchema, glucoseDeleteSchema, glucoseUpdateSchema } from '../../schemas/glucose.ts';
import { symptomAddSchema, symptomRemoveSchema } from '../../schemas/symptom.ts';
import { appointmentAddSchema, appointmentDeleteSchema, appointmentUpdateSchema } from '../../schemas/appointment.ts';
import { labTestAddSchema, labTestDeleteSchema, labTestUpdateSchema } from '../../schemas/lab-test.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import * as glucose from '../services/glucose-service.ts';
import * as symptoms from '../services/symptom-service.ts';
import * as appointments from '../services/appointment-service.ts';
import * as labs from '../services/lab-test-service.ts';
import { parseSince } from '../services/record-helpers.ts';

export function recordRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }) };
  const write = { preHandler: patientAccess(ctx, { write: true }) };
  const listSchema = { schema: { querystring: sinceQuery } };

  api.get('/glucose', { ...read, ...listSchema }, async (req) => glucose.listGlucose(ctx, requireSubject(req).patientId, parseSince(req.query.since)));
  api.post('/glucose/add', { ...write, schema: { body: glucoseAddSchema } }, async (req, reply) => {
    const { created, body } = await glucose.addGlucose(ctx, requireSubject(req).patientId, req.body);
    return reply.status(created ? 201 : 200).send(body);
  });
  api.post('/glucose/update', { ...write, schema: { body: glucoseUpdateSchema } }, async (req) => glucose.updateGlucose(ctx, requireSubject(req).patientId, req.body));
  api.post('/glucose/delete', { ...write, schema: { body: glucoseDeleteSchema } }, async (req) => glucose.deleteGlucose(ctx, requireSubject(req).patientId, req.body.glucoseId));

  api.get('/symptoms', { ...read, ...listSchema }, async (req) => symptoms.listSymptoms(ctx, requireSubject(req).patientId, parseSince(req.query.since)));
  api.get('/symptoms/list', read, async () => symptoms.symptomReferenceList(ctx));
  api.post('/symptoms/add', { ...write, schema: { body: symptomAddSchema } }, async (req, reply) => {
    const { created, body } = await symptoms.addSymptom(ctx, requireSubject(req), req.body);
    return reply.status(created ? 201 : 200).send(body);
  });
  api.post('/symptoms/remove', { ...write, schema: { body: symptomRemoveSchema } }, async (req) => symptoms.removeSymptom(ctx, requireSubject(req), req.body));

  api.get('/appointments', { ...read, ...listSchema }, async (req) => appointments.listAppointments(ctx, requireSubject(req).patientId, parseSince(req.query.since)));
  api.post('/appointments/add', { ...write, schema: { body: appointmentAddSchema } }, async (req, reply) => {
    const { created, body } = await appointments.addAppointment(ctx, requireSubject(req).patientId, req.body);
    return reply.status(created ? 201 : 200).send(body);
  });
  api.post('/appointments/update', { ...write, schema: { body: appointmentUpdateSchema } }, async (req) => appointments.updateAppointment(ctx, requireSubject(req).patientId, req.body));
  api.post('/appointments/delete', { ...write, schema: { body: appointmentDeleteSchema } }, async (req) => appointments.deleteAppointment(ctx, requireSubject(req).patientId, req.body.appointmentId));

  api.get('/tests', { ...read, ...listSchema }, async (req) => labs.listLabTests(ctx, requireSubject(req).patientId, parseSince(req.query.since)));
  api.get('/tests/list', read, async () => labs.labTestReferenceList(ctx));
  api.post('/tests/add', { ...write, schema: { body: labTestAddSchema } }, async (req, reply) => {
    const { created, body } = await labs.addLabTest(ctx, requireSubject(req).patientId, req.body);
    return reply.status(created ? 201 : 200).send(body);
  });
  api.post('/tests/update', { ...write, schema: { body: labTestUpdateSchema } }, async (req) => labs.updateLabTest(ctx, requireSubject(req).patientId, req.body));
  api.post('/tests/delete', { ...write, schema: { body: labTestDeleteSchema } }, async (req) => labs.deleteLabTest(ctx, requireSubject(req).patientId, req.body.testId));
}
