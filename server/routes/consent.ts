// The cookie-consent endpoints of remote mode (docs/requirements.md §7), under the c15t client's default base path
// /api/c15t: GET /init and POST /subjects, which the app's c15t 2.x client calls; GET
// /show-consent-banner and POST /consent/set, which c15t 1.x called and an installed app still
// running a 1.x build calls until its service worker updates it; and POST /consent/verify. Public on
// purpose: consent is asked before login. Rate-limited per address like the other public routes, and
// every answer carries the request's X-Request-ID (the client sends a new one on each attempt, so a
// retried save can be told apart in the log and the records).
import { randomUUID } from 'node:crypto';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, row } from '../../schemas/api.ts';
import {
  consentInitSchema,
  consentSetResponseSchema,
  consentSetSchema,
  consentVerifyResponseSchema,
  consentVerifySchema,
  showConsentBannerSchema,
  subjectConsentResponseSchema,
  subjectConsentSchema,
} from '../../schemas/consent.ts';
import { bannerInfo, consentInit, recordConsent, recordSubjectConsent, verifyConsent } from '../services/consent-service.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-ID when it is a sane token, else one of ours. */
export function requestIdOf(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers['x-request-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

export function consentRoutes(api: TypedApp, ctx: AppContext): void {
  const limited = { rateLimit: { max: ctx.config.consentRateLimit, timeWindow: 60_000 } };

  api.register(
    async (scope) => {
      const c15t = scope.withTypeProvider<JsonSchemaToTsProvider>();
      c15t.addHook('onRequest', async (req, reply) => {
        void reply.headers({ 'x-request-id': requestIdOf(req.headers), 'cache-control': 'no-store' });
      });

      c15t.get(
        '/init',
        {
          schema: { summary: 'c15t 2.x: the consent policy here (always opt-in: the banner is shown)', response: answers(row(consentInitSchema)) },
          config: limited,
        },
        async (req) => consentInit(req.headers),
      );

      c15t.post(
        '/subjects',
        {
          schema: {
            summary: "c15t 2.x: record a device's consent choice as proof",
            body: subjectConsentSchema,
            response: answers(row(subjectConsentResponseSchema)),
          },
          config: limited,
        },
        async (req, reply) => recordSubjectConsent(ctx, req.body, { address: req.ip, requestId: String(reply.getHeader('x-request-id')) }),
      );

      // c15t 1.x, for installed apps not yet updated.
      c15t.get(
        '/show-consent-banner',
        { schema: { summary: 'c15t 1.x: whether to show the cookie banner here', response: answers(row(showConsentBannerSchema)) }, config: limited },
        async (req) => bannerInfo(req.headers),
      );

      c15t.post(
        '/consent/set',
        { schema: { summary: 'Record a consent choice as proof', body: consentSetSchema, response: answers(row(consentSetResponseSchema)) }, config: limited },
        async (req, reply) =>
          // The id the onRequest hook settled on (the client's, or ours when it sent none).
          recordConsent(ctx, req.body, { address: req.ip, requestId: String(reply.getHeader('x-request-id')) }),
      );

      c15t.post(
        '/consent/verify',
        { schema: { summary: 'Check a recorded consent', body: consentVerifySchema, response: answers(row(consentVerifyResponseSchema)) }, config: limited },
        async (req) => verifyConsent(ctx, req.body, req.ip),
      );
    },
    { prefix: '/c15t' },
  );
}
