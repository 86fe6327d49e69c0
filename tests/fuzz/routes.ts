// Every route of the API with the JSON schemas it declares (body, querystring, params, response), found by
// running the server's own route registration (server/routes/index.ts) against a recorder instead of
// Fastify: a new route, or a changed schema, is fuzzed without a line of code here. No handler runs.
import type { TypedApp } from '../../server/app.ts';
import type { AppContext } from '../../server/context.ts';
import { registerRoutes } from '../../server/routes/index.ts';
import type { JsonSchema } from './schema-arbitrary.ts';

export interface Route {
  method: string;
  /** With the /api prefix and `:params`, as Fastify knows it. */
  path: string;
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  /** Its answers' JSON Schemas by status (`200`, `4xx`, …: schemas/api.ts). */
  response?: Record<string, unknown>;
  /** Where the route says it is rate-limited (config.rateLimit). */
  rateLimited: boolean;
  /** Whether it checks a token first (declares a preHandler: patientAccess, staffAccess, …). */
  guarded: boolean;
  /** Left out of the API's document (schema.hide): a browser's navigation, not an API call. */
  hidden: boolean;
}

interface RouteOptions {
  schema?: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema; response?: Record<string, unknown>; hide?: boolean };
  config?: { rateLimit?: unknown };
  preHandler?: unknown;
}

function recorder(prefix: string, out: Route[]): unknown {
  const add = (method: string) => (path: string, optsOrHandler: unknown) => {
    const opts = typeof optsOrHandler === 'object' && optsOrHandler !== null ? (optsOrHandler as RouteOptions) : {};
    const s = opts.schema ?? {};
    out.push({
      method,
      path: `${prefix}${path}`,
      ...(s.body ? { body: s.body } : {}),
      ...(s.querystring ? { querystring: s.querystring } : {}),
      ...(s.params ? { params: s.params } : {}),
      ...(s.response ? { response: s.response } : {}),
      rateLimited: opts.config?.rateLimit !== undefined,
      guarded: opts.preHandler !== undefined,
      hidden: s.hide === true,
    });
  };
  const self: Record<string, unknown> = {
    get: add('GET'),
    post: add('POST'),
    put: add('PUT'),
    patch: add('PATCH'),
    delete: add('DELETE'),
    addHook: () => self,
    withTypeProvider: () => self,
    register: (plugin: (scope: unknown) => unknown, opts?: { prefix?: string }) => {
      void plugin(recorder(`${prefix}${opts?.prefix ?? ''}`, out));
      return self;
    },
  };
  return self;
}

export function discoverRoutes(): Route[] {
  const out: Route[] = [];
  const ctx = { config: { authRateLimit: 1, consentRateLimit: 1, reportRateLimit: 1 } } as unknown as AppContext;
  registerRoutes(recorder('/api', out) as TypedApp, ctx);
  if (out.length < 50) throw new Error(`only ${out.length} routes found: has server/routes/index.ts changed its shape?`);
  return out;
}

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
