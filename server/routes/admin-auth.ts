// Staff authentication and the users list, docs/requirements.md §7 admin table.
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { adminLoginSchema, adminMfaSetupSchema } from '../../schemas/auth.ts';
import { usersQuerySchema } from '../../schemas/admin.ts';
import { adminLogin, adminMfaSetup, answers, doctorVerified, message, usersPage } from '../../schemas/api.ts';
import { requireStaff, staffAccess, tokenOf } from '../http/guards.ts';
import * as auth from '../services/auth-service.ts';
import { listUsers } from '../services/admin/patients.ts';

export function adminAuthRoutes(api: TypedApp, ctx: AppContext): void {
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: 60_000 } };

  api.post(
    '/admin/login',
    {
      schema: {
        summary: 'Admin login with email and password, and the second factor where there is one',
        description:
          'Where the admin has set up an authenticator app, or a hospital of theirs asks for one, a login with the right password but no `code` is answered 401 `{code: "mfa-required"}` (send the login again with `code` or `recoveryCode`) or `{code: "mfa-setup-required"}` (POST /api/admin/mfa/setup, then the login with the app\'s first `code`: the answer then carries the `recoveryCodes`, shown once). A wrong code is 401 `{code: "mfa-invalid"}`.',
        body: adminLoginSchema,
        response: answers(adminLogin),
      },
      config: limited,
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return auth.adminLogin(ctx, req.body);
    },
  );

  api.post(
    '/admin/mfa/setup',
    {
      schema: {
        summary: "Start setting up an admin's authenticator app: a new secret, its otpauth:// URI and QR code",
        description:
          'Needs the password, as a login does. The secret signs nobody in until a login confirms it with its first code. 409 when an authenticator is set up already.',
        body: adminMfaSetupSchema,
        response: answers(adminMfaSetup),
      },
      config: limited,
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return auth.adminMfaSetup(ctx, req.body.email, req.body.password);
    },
  );

  api.post(
    '/admin/logout',
    { schema: { summary: 'End the admin session of the bearer token', security: [{ bearer: [] }], response: answers(message) }, config: limited },
    async (req) => auth.logout(ctx, tokenOf(req), 'staff'),
  );

  api.post(
    '/admin/verifyToken',
    {
      schema: { summary: 'Check a doctor token: who, until when, which hospitals', security: [{ bearer: [] }], response: answers(doctorVerified) },
      config: limited,
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return auth.verifyDoctorToken(ctx, tokenOf(req));
    },
  );

  api.get(
    '/admin/users',
    {
      schema: { summary: 'Find patients of the hospitals the staff member may see (paged)', querystring: usersQuerySchema, response: answers(usersPage) },
      preHandler: staffAccess(ctx, { adminOnly: false }),
    },
    async (req) => listUsers(ctx, requireStaff(req), req.query),
  );
}
