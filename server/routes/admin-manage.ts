// /api/admin/* management endpoints (docs/requirements.md §10 extensions). Doctors may read; admins may write.
import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import {
  accessKeyInputSchema,
  auditQuerySchema,
  doctorTokenInputSchema,
  hospitalInputSchema,
  hospNoParams,
  idParams,
  patientCreateSchema,
  patientPatchSchema,
  reviewQuerySchema,
  worklistQuerySchema,
} from '../../schemas/admin.ts';
import {
  accessKeyIssued,
  answers,
  auditEntries,
  doctorTokenCreated,
  doctorTokens,
  hospitals,
  hospitalWritten,
  message,
  patientRead,
  patientReview as patientReviewAnswer,
  patientWritten,
  prescriptions,
  prescriptionWritten,
  temporaryPassword,
  worklistPage,
} from '../../schemas/api.ts';
import { isoDate, hospNo, uuid } from '../../schemas/common.ts';
import { prescriptionInputSchema, prescriptionPatchSchema } from '../../schemas/medicine.ts';
import { audit, originOf, requireStaff, staffAccess } from '../http/guards.ts';
import { sendJsonText } from '../http/json-text.ts';
import * as auditLog from '../services/admin/audit.ts';
import * as doctorTokenAdmin from '../services/admin/doctor-tokens.ts';
import * as hospitalAdmin from '../services/admin/hospitals.ts';
import * as patientAdmin from '../services/admin/patients.ts';
import * as prescriptionAdmin from '../services/admin/prescriptions.ts';
import { patientReview } from '../services/admin/review.ts';
import { patientForStaff } from '../services/admin/scope.ts';
import { worklist } from '../services/worklist-service.ts';

const prescriptionParams = { type: 'object', properties: { hospNo, id: uuid }, required: ['hospNo', 'id'] } as const;
const endBody = { anyOf: [{ type: 'object', properties: { endDate: isoDate } }, { type: 'null' }] } as const;

export function adminManageRoutes(api: TypedApp, ctx: AppContext): void {
  const staff = { preHandler: staffAccess(ctx, { adminOnly: false }) };
  const adminOnly = { preHandler: staffAccess(ctx, { adminOnly: true }) };
  const asAdmin = (req: FastifyRequest) => {
    const p = requireStaff(req);
    if (p.kind !== 'admin') throw new Error('route is missing the adminOnly guard');
    return p;
  };
  /** Staff reads of one patient through these endpoints are audited like the patient endpoints. */
  const audited = async (req: FastifyRequest, hospNoValue: string, action: string) => {
    const principal = requireStaff(req);
    const p = await patientForStaff(ctx, principal, hospNoValue);
    await audit(ctx, req, principal, { patientId: p.id, hospNo: p.hospNo }, action);
  };

  api.get('/admin/hospitals', { ...staff, schema: { summary: 'The hospitals the staff member may see', response: answers(hospitals) } }, async (req) =>
    hospitalAdmin.listHospitals(ctx, requireStaff(req)),
  );
  api.post(
    '/admin/hospitals',
    { ...adminOnly, schema: { summary: 'Add a hospital', body: hospitalInputSchema, response: answers(hospitalWritten, 201) } },
    async (req, reply) => reply.status(201).send(await hospitalAdmin.createHospital(ctx, asAdmin(req), req.body)),
  );
  api.patch(
    '/admin/hospitals/:id',
    {
      ...adminOnly,
      schema: {
        summary: "Change a hospital's name, time zone or severe-low alert level",
        params: idParams,
        body: { ...hospitalInputSchema, required: [], minProperties: 1 },
        response: answers(hospitalWritten),
      },
    },
    async (req) => hospitalAdmin.updateHospital(ctx, asAdmin(req), req.params.id, req.body),
  );

  api.get(
    '/admin/worklist',
    {
      ...staff,
      schema: {
        summary: "A hospital's patients, most in need first, with the reasons (paged; audited per patient listed)",
        querystring: worklistQuerySchema,
        response: answers(worklistPage),
      },
    },
    async (req) => worklist(ctx, originOf(req), requireStaff(req), req.query),
  );

  api.post(
    '/admin/patients',
    { ...adminOnly, schema: { summary: 'Register a patient', body: patientCreateSchema, response: answers(patientWritten, 201) } },
    async (req, reply) => reply.status(201).send(await patientAdmin.createPatient(ctx, asAdmin(req), req.body)),
  );
  api.get(
    '/admin/patients/:hospNo',
    { ...staff, schema: { summary: 'A patient, by hospital number (audited)', params: hospNoParams, response: answers(patientRead) } },
    async (req) => {
      await audited(req, req.params.hospNo, 'GET /api/admin/patients/:hospNo');
      return patientAdmin.getPatient(ctx, requireStaff(req), req.params.hospNo);
    },
  );
  api.patch(
    '/admin/patients/:hospNo',
    { ...adminOnly, schema: { summary: "Change a patient's details", params: hospNoParams, body: patientPatchSchema, response: answers(patientWritten) } },
    async (req) => patientAdmin.updatePatient(ctx, asAdmin(req), req.params.hospNo, req.body),
  );
  api.post(
    '/admin/patients/:hospNo/access-key',
    {
      ...adminOnly,
      schema: {
        summary: 'Issue a new access key (the old one stops working)',
        params: hospNoParams,
        body: { anyOf: [accessKeyInputSchema, { type: 'null' }] },
        response: answers(accessKeyIssued),
      },
    },
    async (req) => patientAdmin.issueAccessKey(ctx, asAdmin(req), req.params.hospNo, req.body?.expiresInDays ?? 30),
  );
  api.post(
    '/admin/patients/:hospNo/temporary-password',
    { ...adminOnly, schema: { summary: 'Set a temporary password the patient must change', params: hospNoParams, response: answers(temporaryPassword) } },
    async (req) => patientAdmin.setTemporaryPassword(ctx, asAdmin(req), req.params.hospNo),
  );

  api.get(
    '/admin/patients/:hospNo/prescriptions',
    { ...staff, schema: { summary: "A patient's prescriptions and doses taken (audited)", params: hospNoParams, response: answers(prescriptions) } },
    async (req) => {
      await audited(req, req.params.hospNo, 'GET /api/admin/patients/:hospNo/prescriptions');
      return prescriptionAdmin.listPrescriptions(ctx, requireStaff(req), req.params.hospNo);
    },
  );
  api.get(
    '/admin/patients/:hospNo/review',
    {
      ...staff,
      schema: {
        summary: "A patient's whole review in one snapshot (audited once); with ?since= only what changed after that version",
        params: hospNoParams,
        querystring: reviewQuerySchema,
        response: answers(patientReviewAnswer),
      },
    },
    async (req, reply) => {
      const principal = requireStaff(req);
      const since = req.query.since === undefined ? undefined : Number(req.query.since);
      // The snapshot finds the patient in the staff member's hospitals (or refuses as for none); the
      // read is audited once it is made (a read-only transaction writes nothing).
      const review = await patientReview(ctx, principal, req.params.hospNo, since);
      await audit(ctx, req, principal, review.patient, 'GET /api/admin/patients/:hospNo/review');
      return sendJsonText(reply, review.body);
    },
  );
  api.post(
    '/admin/patients/:hospNo/prescriptions',
    {
      ...adminOnly,
      schema: { summary: 'Prescribe a medicine', params: hospNoParams, body: prescriptionInputSchema, response: answers(prescriptionWritten, 201) },
    },
    async (req, reply) => reply.status(201).send(await prescriptionAdmin.addPrescription(ctx, asAdmin(req), req.params.hospNo, req.body)),
  );
  api.patch(
    '/admin/patients/:hospNo/prescriptions/:id',
    {
      ...adminOnly,
      schema: { summary: 'Change a prescription', params: prescriptionParams, body: prescriptionPatchSchema, response: answers(prescriptionWritten) },
    },
    async (req) => prescriptionAdmin.updatePrescription(ctx, asAdmin(req), req.params.hospNo, req.params.id, req.body),
  );
  api.post(
    '/admin/patients/:hospNo/prescriptions/:id/end',
    {
      ...adminOnly,
      schema: { summary: 'End a prescription (today, or on a given date)', params: prescriptionParams, body: endBody, response: answers(prescriptionWritten) },
    },
    async (req) => prescriptionAdmin.endPrescription(ctx, asAdmin(req), req.params.hospNo, req.params.id, req.body?.endDate),
  );

  api.get('/admin/doctor-tokens', { ...adminOnly, schema: { summary: 'The doctor tokens', response: answers(doctorTokens) } }, async (req) =>
    doctorTokenAdmin.listDoctorTokens(ctx, asAdmin(req)),
  );
  api.post(
    '/admin/doctor-tokens',
    { ...adminOnly, schema: { summary: 'Create a doctor token (shown once)', body: doctorTokenInputSchema, response: answers(doctorTokenCreated, 201) } },
    async (req, reply) => reply.status(201).send(await doctorTokenAdmin.createDoctorToken(ctx, asAdmin(req), req.body)),
  );
  api.post(
    '/admin/doctor-tokens/:id/revoke',
    { ...adminOnly, schema: { summary: 'Revoke a doctor token', params: idParams, response: answers(message) } },
    async (req) => doctorTokenAdmin.revokeDoctorToken(ctx, asAdmin(req), req.params.id),
  );

  api.get(
    '/admin/audit',
    { ...adminOnly, schema: { summary: 'The audit log of staff reads', querystring: auditQuerySchema, response: answers(auditEntries) } },
    async (req) => auditLog.auditEntries(ctx, asAdmin(req), req.query),
  );
}
