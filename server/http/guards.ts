// Route guards. The rule that matters most lives here: a patient token only ever reaches its own
// patient (X-Hosp-No is ignored for patients), and staff reach a patient only through X-Hosp-No,
// only in their hospitals, read-only, and every such read is written to the audit log first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { hospNo as hospNoSchema } from '../../schemas/common.ts';
import { recordReads, type ReadOrigin } from '../services/admin/audit.ts';
import { patientForStaff } from '../services/admin/scope.ts';
import { bearerToken, resolvePrincipal, notePatientSeen, type Principal, type StaffPrincipal } from '../services/principal.ts';
import { badRequest, forbidden, HttpError, unauthorized } from './errors.ts';
import { PASSWORD_CHANGE_REQUIRED_CODE } from '../../schemas/auth.ts';
import { withAccess } from './openapi.ts';

/** A session opened with a temporary password asks for a patient's records (403, PASSWORD_CHANGE_REQUIRED_CODE). */
export const MSG_PASSWORD_CHANGE_REQUIRED =
  'You logged in with a temporary password. Choose your own password first: until then this session can only change it.';

export interface Subject {
  patientId: string;
  hospNo: string;
  hospitalId: string;
  timeZone: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    subject: Subject | null;
  }
}

const HOSP_NO_RE = new RegExp(hospNoSchema.pattern);

export function deviceIdOf(req: FastifyRequest): string | undefined {
  const v = req.headers['x-device-id'];
  return typeof v === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(v) ? v : undefined;
}

export const tokenOf = (req: FastifyRequest) => bearerToken(req.headers.authorization);

async function principalOf(ctx: AppContext, req: FastifyRequest): Promise<Principal> {
  const principal = await resolvePrincipal(ctx.db, tokenOf(req));
  if (!principal) throw unauthorized();
  req.principal = principal;
  return principal;
}

/** Patient endpoints: resolves whose records this request is about into `request.subject`. */
export function patientAccess(ctx: AppContext, opts: { write: boolean }) {
  return withAccess(
    async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const principal = await principalOf(ctx, req);
      void reply.header('cache-control', 'no-store');
      if (principal.kind === 'patient') {
        // Opened with a temporary password: nothing of the record until the patient has chosen their own.
        if (principal.passwordChangeRequired) throw new HttpError(403, MSG_PASSWORD_CHANGE_REQUIRED, { code: PASSWORD_CHANGE_REQUIRED_CODE });
        const { hospNo, hospitalId, timeZone } = principal.patient;
        req.subject = { patientId: principal.patientId, hospNo, hospitalId, timeZone };
        await notePatientSeen(ctx.db, principal, deviceIdOf(req));
        return;
      }
      if (opts.write) throw forbidden('Staff accounts can only read patient records here. Use the admin area to make changes.');
      req.subject = await staffSubject(ctx, req, principal);
    },
    opts.write ? 'patient-write' : 'patient-read',
  );
}

/**
 * Staff endpoints about one patient (X-Hosp-No): staff only, the patient in one of their hospitals,
 * and the read audited exactly like a staff read through the patient endpoints.
 */
export function staffPatientAccess(ctx: AppContext) {
  return withAccess(async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = await principalOf(ctx, req);
    void reply.header('cache-control', 'no-store');
    if (principal.kind === 'patient') throw forbidden('This is for hospital staff only.');
    req.subject = await staffSubject(ctx, req, principal);
  }, 'staff-patient');
}

async function staffSubject(ctx: AppContext, req: FastifyRequest, principal: StaffPrincipal): Promise<Subject> {
  const raw = req.headers['x-hosp-no'];
  const hospNo = typeof raw === 'string' ? raw.trim() : undefined;
  if (!hospNo) throw badRequest("X-Hosp-No header is required to view a patient's records");
  if (hospNo.length > hospNoSchema.maxLength || !HOSP_NO_RE.test(hospNo)) throw badRequest(`X-Hosp-No must be ${hospNoSchema.description}`);
  const patient = await patientForStaff(ctx, principal, hospNo);
  await audit(ctx, req, principal, { patientId: patient.id, hospNo: patient.hospNo }, `${req.method} ${req.routeOptions.url ?? req.url}`);
  return { patientId: patient.id, hospNo: patient.hospNo, hospitalId: patient.hospitalId, timeZone: patient.timeZone };
}

/** Where a request came from, as the audit log keeps it. */
export const originOf = (req: FastifyRequest): ReadOrigin => ({
  ip: req.ip,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 300) : null,
});

/** Records a staff read of one patient made by this request (services/admin/audit.ts). */
export async function audit(
  ctx: AppContext,
  req: FastifyRequest,
  principal: StaffPrincipal,
  patient: { patientId: string; hospNo: string },
  action: string,
): Promise<void> {
  await recordReads(ctx, principal, [patient], action, originOf(req));
}

/** Any session, patient or staff: the route decides what each may reach (routes/changes.ts). */
export function signedIn(ctx: AppContext) {
  return withAccess(async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = await principalOf(ctx, req);
    if (principal.kind === 'patient' && principal.passwordChangeRequired)
      throw new HttpError(403, MSG_PASSWORD_CHANGE_REQUIRED, { code: PASSWORD_CHANGE_REQUIRED_CODE });
    void reply.header('cache-control', 'no-store');
  }, 'signed-in');
}

/** Staff endpoints. Doctors may read; only admins may change anything. */
export function staffAccess(ctx: AppContext, opts: { adminOnly: boolean }) {
  return withAccess(
    async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const principal = await principalOf(ctx, req);
      void reply.header('cache-control', 'no-store');
      if (principal.kind === 'patient') throw forbidden('This is for hospital staff only.');
      if (opts.adminOnly && principal.kind !== 'admin') throw forbidden('Doctors have read-only access.');
    },
    opts.adminOnly ? 'admin' : 'staff',
  );
}

export function requireSubject(req: FastifyRequest): Subject {
  if (!req.subject) throw new Error('route is missing the patientAccess guard');
  return req.subject;
}

export function requirePrincipal(req: FastifyRequest): Principal {
  const p = req.principal;
  if (!p) throw new Error('route is missing an access guard');
  return p;
}

export function requireStaff(req: FastifyRequest): StaffPrincipal {
  const p = req.principal;
  if (!p || p.kind === 'patient') throw new Error('route is missing the staffAccess guard');
  return p;
}
