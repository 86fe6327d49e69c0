// The fuzz's arbitraries against the server's own validators (server/http/validator.ts): what
// `valid` draws from a route's schema passes it, so "valid" requests really reach the services, and
// the routes are all found with their schemas.
import fc from 'fast-check';
import type { FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { validatorCompiler } from '../../server/http/validator.ts';
import { hintsFor } from './requests.ts';
import { discoverRoutes, routeKey } from './routes.ts';
import { invalid, valid } from './schema-arbitrary.ts';

const UUID = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
/** References (`@@name@@`) become what the runner puts there: an id, a password. */
const resolved = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v)
      .replace(/@@password:[0-9]+@@/g, 'Demo-patient-1')
      .replace(/@@[A-Za-z:0-9]+@@/g, UUID),
  );

const routes = discoverRoutes();
const hints = hintsFor(Date.UTC(2026, 10, 1), [UUID]);
const compile = validatorCompiler();
const parts = ['body', 'querystring', 'params'] as const;

function validatorOf(route: (typeof routes)[number], part: (typeof parts)[number]) {
  return compile({ schema: route[part] as FastifySchema, httpPart: part, method: 'POST', url: route.path }) as (v: unknown) => boolean;
}

describe('fuzz arbitraries from the shared schemas', () => {
  it('finds every route with its schemas', () => {
    expect(routes.length).toBeGreaterThanOrEqual(60);
    expect(routes.map(routeKey)).toContain('POST /api/glucose/add');
    expect(routes.find((r) => routeKey(r) === 'POST /api/glucose/add')?.body).toBeDefined();
    expect(routes.find((r) => routeKey(r) === 'POST /api/c15t/consent/set')?.guarded).toBe(false);
    expect(routes.find((r) => routeKey(r) === 'GET /api/glucose')?.guarded).toBe(true);
  });

  it("draws valid values that pass the server's validators", () => {
    const refused: string[] = [];
    for (const route of routes) {
      for (const part of parts) {
        if (!route[part]) continue;
        const check = validatorOf(route, part);
        for (const v of fc.sample(valid(route[part], hints), { seed: 1, numRuns: 100 })) {
          if (!check(resolved(v))) refused.push(`${routeKey(route)} ${part}: ${JSON.stringify(v).slice(0, 200)}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it('draws invalid values that the validators mostly refuse', () => {
    for (const route of routes.filter((r) => r.body && (r.body['required'] as string[] | undefined)?.length)) {
      const check = validatorOf(route, 'body');
      const samples = fc.sample(invalid(route.body!, hints), { seed: 1, numRuns: 100 });
      const accepted = samples.filter((v) => check(resolved(v))).length;
      expect(accepted, routeKey(route)).toBeLessThan(50);
    }
  });
});
