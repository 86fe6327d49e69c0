// Staff sign-in through the hospital's identity provider (issue 48; server/services/staff-oidc.ts).
// The start and the callback are the browser's navigations, answered with redirects; the page then
// redeems its handoff code with a JSON call, as any other login.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { apiError, answers, oidcProviders, oidcSignIn } from '../../schemas/api.ts';
import { OIDC_PROVIDER_ID_PATTERN } from '../oidc-providers.ts';
import { oidcRedeemSchema } from '../../schemas/auth.ts';
import { HttpError } from '../http/errors.ts';
import {
  callbackUrl,
  finishSignIn,
  listProviders,
  OIDC_BROWSER_COOKIE,
  OIDC_COOKIE_PATH,
  OIDC_LOGIN_TTL_MS,
  redeemSignIn,
  startSignIn,
} from '../services/staff-oidc.ts';

/** The staff login page, where the browser lands after the provider: what happened is in the fragment, never sent to a server. */
const STAFF_LOGIN_PAGE = '/admin';

/**
 * The start and the callback are a browser's navigations in the OpenID Connect flow, answered with
 * redirects, not calls an API client makes: left out of the API's document (its linter asks every
 * operation for a 2xx answer), described in the README and checked by their tests.
 */
const redirectAnswer = (description: string) =>
  ({ 302: { description, headers: { Location: { type: 'string', format: 'uri-reference' } } }, '4xx': apiError, '5xx': apiError }) as const;

function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

function cookieOptions(req: FastifyRequest, ctx: AppContext) {
  const secure = new URL(ctx.config.publicUrl ?? originOf(req)).protocol === 'https:';
  return { path: OIDC_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure } as const;
}

function toLoginPage(reply: FastifyReply, fragment: string) {
  void reply.header('cache-control', 'no-store');
  return reply.redirect(`${STAFF_LOGIN_PAGE}#${fragment}`, 302);
}

export function adminOidcRoutes(api: TypedApp, ctx: AppContext): void {
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: 60_000 } };

  api.get(
    '/admin/oidc/providers',
    { schema: { summary: 'The hospital identity providers staff may sign in with (none where OIDC_PROVIDERS is not set)', response: answers(oidcProviders) } },
    async () => listProviders(ctx),
  );

  api.get(
    '/admin/oidc/:provider/start',
    {
      schema: {
        summary: "Start a staff sign-in through a hospital identity provider: a redirect to the provider's authorization page",
        description: `OpenID Connect authorization code with PKCE. Sets the HttpOnly cookie \`${OIDC_BROWSER_COOKIE}\` that binds the sign-in to this browser. Where the provider cannot be reached the browser goes back to the staff login page with \`#oidc-failure=unreachable\`.`,
        params: { type: 'object', properties: { provider: { type: 'string', pattern: OIDC_PROVIDER_ID_PATTERN } }, required: ['provider'] },
        response: redirectAnswer("To the provider's authorization page"),
        hide: true,
      },
      config: limited,
    },
    async (req, reply) => {
      let started;
      try {
        started = await startSignIn(ctx, req.params.provider, originOf(req));
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 502) return toLoginPage(reply, 'oidc-failure=unreachable');
        throw err;
      }
      void reply.setCookie(OIDC_BROWSER_COOKIE, started.browserSecret, { ...cookieOptions(req, ctx), maxAge: OIDC_LOGIN_TTL_MS / 1000 });
      void reply.header('cache-control', 'no-store');
      return reply.redirect(started.url, 302);
    },
  );

  api.get(
    '/admin/oidc/callback',
    {
      schema: {
        summary: 'Where the identity provider sends the browser back: to the staff login page with a one-time handoff code, or why nobody was signed in',
        description:
          'The browser goes on to `/admin#oidc=<handoff code>` (redeemed with POST /api/admin/oidc/redeem within 2 minutes) or `/admin#oidc-failure=<reason>`: expired, other-browser, denied, failed, no-role, no-hospital, no-email, email-taken.',
        querystring: {
          type: 'object',
          properties: {
            code: { type: 'string' },
            state: { type: 'string' },
            error: { type: 'string' },
            error_description: { type: 'string' },
            iss: { type: 'string' },
          },
        },
        response: redirectAnswer('To the staff login page'),
        hide: true,
      },
      config: limited,
    },
    async (req, reply) => {
      const current = new URL(req.url, callbackUrl(ctx, originOf(req)));
      const result = await finishSignIn(ctx, current, req.cookies[OIDC_BROWSER_COOKIE]);
      void reply.clearCookie(OIDC_BROWSER_COOKIE, cookieOptions(req, ctx));
      return toLoginPage(reply, 'handoff' in result ? `oidc=${result.handoff}` : `oidc-failure=${result.failure}`);
    },
  );

  api.post(
    '/admin/oidc/redeem',
    {
      schema: {
        summary: "The staff login page's handoff code for a staff session (an admin's or a doctor's), once",
        description:
          'A code used already or older than 2 minutes is 401 `{code: "oidc-handoff-invalid"}`. A doctor\'s session from a provider ends at POST /api/admin/logout.',
        body: oidcRedeemSchema,
        response: answers(oidcSignIn),
      },
      config: limited,
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      return redeemSignIn(ctx, req.body.code);
    },
  );
}
