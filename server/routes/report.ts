// Reports (issue 7): docs/requirements.md §7 POST /users/report for the patient, and for staff POST /admin/report
// (the same PDF for any patient of their hospitals, X-Hosp-No) and /admin/report/fhir (FHIR R4 for
// the hospital record); `…/csv` of each gives the readings as CSV. Making a PDF costs real CPU, so these are rate-limited per client address.
import type { FastifyReply } from 'fastify';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { fileAnswers } from '../../schemas/api.ts';
import { reportRequestSchema } from '../../schemas/report-request.ts';
import { patientAccess, requireSubject, staffPatientAccess } from '../http/guards.ts';
import * as report from '../services/report-service.ts';

function sendFile(reply: FastifyReply, file: { fileName: string }, contentType: string, body: Buffer | string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const pdf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function reportRoutes(api: TypedApp, ctx: AppContext): void {
  const config = { rateLimit: { max: ctx.config.reportRateLimit, timeWindow: 60_000 } };
  const pdfDoc = { body: reportRequestSchema, response: fileAnswers('application/pdf', 'The report as a PDF (attachment)') };

  api.post(
    '/users/report',
    { preHandler: patientAccess(ctx, { write: false }), schema: { summary: 'The report over a date range, as a PDF', ...pdfDoc }, config },
    async (req, reply) => {
      const file = await report.reportPdf(ctx, requireSubject(req).patientId, req.body, req.headers['accept-language']);
      return sendFile(reply, file, 'application/pdf', pdf(file.body));
    },
  );

  api.post(
    '/admin/report',
    { preHandler: staffPatientAccess(ctx), schema: { summary: "A patient's report over a date range, as a PDF", ...pdfDoc }, config },
    async (req, reply) => {
      const file = await report.reportPdf(ctx, requireSubject(req).patientId, req.body, req.headers['accept-language']);
      return sendFile(reply, file, 'application/pdf', pdf(file.body));
    },
  );

  const csvDoc = { body: reportRequestSchema, response: fileAnswers('text/csv', 'The readings as CSV (attachment), with whose they are above the table') };
  api.post(
    '/users/report/csv',
    { preHandler: patientAccess(ctx, { write: false }), schema: { summary: 'The readings over a date range, as CSV', ...csvDoc }, config },
    async (req, reply) => {
      const file = await report.reportCsvFile(ctx, requireSubject(req).patientId, req.body, req.headers['accept-language']);
      return sendFile(reply, file, 'text/csv; charset=utf-8', file.body);
    },
  );

  api.post(
    '/admin/report/csv',
    { preHandler: staffPatientAccess(ctx), schema: { summary: "A patient's readings over a date range, as CSV", ...csvDoc }, config },
    async (req, reply) => {
      const file = await report.reportCsvFile(ctx, requireSubject(req).patientId, req.body, req.headers['accept-language']);
      return sendFile(reply, file, 'text/csv; charset=utf-8', file.body);
    },
  );

  api.post(
    '/admin/report/fhir',
    {
      preHandler: staffPatientAccess(ctx),
      schema: {
        summary: "A patient's report over a date range as a FHIR R4 Bundle, for the hospital record",
        body: reportRequestSchema,
        response: fileAnswers('application/fhir+json', 'A FHIR R4 Bundle (attachment)'),
      },
      config,
    },
    async (req, reply) => {
      const file = await report.reportFhir(ctx, requireSubject(req).patientId, req.body);
      return sendFile(reply, file, 'application/fhir+json; charset=utf-8', JSON.stringify(file.body));
    },
  );
}
