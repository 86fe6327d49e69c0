// Patient authentication, docs/requirements.md §7 /auth/*. All routes are rate-limited per client address.
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { loginSchema, passwordLoginSchema, sendOtpSchema, updatePasswordSchema } from '../../schemas/auth.ts';
import { answers, message, passwordLogin, patientLogin, validation } from '../../schemas/api.ts';
import { deviceIdOf, tokenOf } from '../http/guards.ts';
import * as auth from '../services/auth-service.ts';

export function authRoutes(api: TypedApp, ctx: AppContext): void {
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: 60_000 } };
  const noStore = { 'cache-control': 'no-store' };

  api.post(
    '/auth/login',
    { schema: { summary: 'Log in with a one-time code or an access key', body: loginSchema, response: answers(patientLogin) }, config: limited },
    async (req, reply) => {
      void reply.headers(noStore);
      const { hospNo, otp, accessKey } = req.body;
      if (accessKey !== undefined) return auth.loginWithAccessKey(ctx, hospNo, accessKey, deviceIdOf(req));
      return auth.loginWithOtp(ctx, hospNo, otp ?? '', deviceIdOf(req));
    },
  );

  api.post(
    '/auth/loginWithPassword',
    { schema: { summary: 'Log in with the hospital number and password', body: passwordLoginSchema, response: answers(passwordLogin) }, config: limited },
    async (req, reply) => {
      void reply.headers(noStore);
      return auth.loginWithPassword(ctx, req.body.hospNo, req.body.password, deviceIdOf(req));
    },
  );

  api.post(
    '/auth/sendOtp',
    { schema: { summary: "Mail a one-time code to the patient's hospital care team", body: sendOtpSchema, response: answers(message) }, config: limited },
    async (req) => auth.sendOtp(ctx, req.body.hospNo),
  );

  api.post(
    '/auth/updatePassword',
    { schema: { summary: 'Set or change the password', body: updatePasswordSchema, response: answers(message) }, config: limited },
    async (req) => auth.updatePassword(ctx, req.body, tokenOf(req)),
  );

  api.post(
    '/auth/validate',
    {
      schema: { summary: 'Whether the bearer token is a live session, and until when', security: [{ bearer: [] }], response: answers(validation) },
      config: limited,
    },
    async (req, reply) => {
      void reply.headers(noStore);
      return auth.validate(ctx, tokenOf(req));
    },
  );

  api.post(
    '/auth/logout',
    { schema: { summary: 'End the session of the bearer token', security: [{ bearer: [] }], response: answers(message) }, config: limited },
    async (req) => auth.logout(ctx, tokenOf(req), 'patient'),
  );
}
