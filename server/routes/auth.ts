// Patient authentication, spec §7 /auth/*. All routes are rate-limited per client address.
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { loginSchema, passwordLoginSchema, sendOtpSchema, updatePasswordSchema } from '../../schemas/auth.ts';
import { deviceIdOf, tokenOf } from '../http/guards.ts';
import * as auth from '../services/auth-service.ts';

export function authRoutes(api: TypedApp, ctx: AppContext): void {
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: 60_000 } };
  const noStore = { 'cache-control': 'no-store' };

  api.post('/auth/login', { schema: { body: loginSchema }, config: limited }, async (req, reply) => {
    void reply.headers(noStore);
    const { hospNo, otp, accessKey } = req.body;
    if (accessKey !== undefined) return auth.loginWithAccessKey(ctx, hospNo, accessKey, deviceIdOf(req));
    return auth.loginWithOtp(ctx, hospNo, otp ?? '', deviceIdOf(req));
  });

  api.post('/auth/loginWithPassword', { schema: { body: passwordLoginSchema }, config: limited }, async (req, reply) => {
    void reply.headers(noStore);
    return auth.loginWithPassword(ctx, req.body.hospNo, req.body.password, deviceIdOf(req));
  });

  api.post('/auth/sendOtp', { schema: { body: sendOtpSchema }, config: limited }, async (req) => auth.sendOtp(ctx, req.body.hospNo));

  api.post('/auth/updatePassword', { schema: { body: updatePasswordSchema }, config: limited }, async (req) =>
    auth.updatePassword(ctx, req.body, tokenOf(req)),
  );

  api.post('/auth/validate', { config: limited }, async (req, reply) => {
    void reply.headers(noStore);
    return auth.validate(ctx, tokenOf(req));
  });

  api.post('/auth/logout', { config: limited }, async (req) => auth.logout(ctx, tokenOf(req)));
}
