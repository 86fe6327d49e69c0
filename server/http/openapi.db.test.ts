// The API's OpenAPI document (issue 17): valid OpenAPI 3.1, every route in it with its request, its
// success answer and its refusals, who may call it, and the documentation page served from the
// server itself under the app's Content-Security-Policy.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes, type Route } from '../../tests/fuzz/routes.ts';
import { call, createHarness, loginAdmin, seedFixture, type Harness } from '../testing/harness.ts';
import { operationIdOf, PATH_ALIASES, withStandardKeywords } from './openapi.ts';

interface Operation {
  summary?: string;
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  parameters?: { in: string; name: string; schema?: { pattern?: string } }[];
  requestBody?: unknown;
}
type Document = { openapi: string; servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> };

/** The problems Redocly's strictest built-in ruleset finds in `doc`, one line each. */
async function lintProblems(doc: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended-strict'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
}

/** `:id` → `{id}`, as OpenAPI writes a path parameter. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What the document lacks about `routes`, in words; empty when each is fully described. */
export function undocumented(doc: Document, routes: Route[]): string[] {
  const problems: string[] = [];
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    const op = doc.paths[openApiPath(PATH_ALIASES[r.path] ?? r.path)]?.[r.method.toLowerCase()];
    if (!op) {
      problems.push(`${key}: not in the document`);
      continue;
    }
    if (!op.summary) problems.push(`${key}: no summary`);
    if (!op.operationId) problems.push(`${key}: no operationId`);
    const codes = Object.keys(op.responses ?? {});
    const success = codes.filter((c) => /^2\d\d$/.test(c));
    if (success.length === 0) problems.push(`${key}: no success answer`);
    for (const c of success) if (!op.responses?.[c]?.content) problems.push(`${key}: answer ${c} without a body shape`);
    if (!codes.includes('4XX')) problems.push(`${key}: no refusal shape (4XX)`);
    if (!codes.includes('5XX')) problems.push(`${key}: no failure shape (5XX)`);
    if (r.body && !op.requestBody) problems.push(`${key}: its body is not described`);
    if (r.guarded && JSON.stringify(op.security) !== JSON.stringify([{ bearer: [] }]))
      problems.push(`${key}: guarded, but the document does not say it needs a token`);
    if (
      !r.guarded &&
      !['/api/auth/validate', '/api/auth/logout', '/api/admin/logout', '/api/admin/verifyToken'].includes(r.path) &&
      JSON.stringify(op.security) !== '[]'
    )
      problems.push(`${key}: public, but the document says it needs a token`);
  }
  return problems;
}

/** Every JSON Schema in the document's answers and bodies. */
function schemasIn(doc: Document): { where: string; schema: object }[] {
  const out: { where: string; schema: object }[] = [];
  for (const [p, ops] of Object.entries(doc.paths))
    for (const [m, op] of Object.entries(ops))
      for (const [code, answer] of Object.entries(op.responses ?? {}))
        for (const [type, media] of Object.entries(answer.content ?? {}))
          if (media.schema) out.push({ where: `${m} ${p} ${code} ${type}`, schema: media.schema });
  return out;
}

describe('the OpenAPI document', () => {
  let h: Harness;
  let doc: Document;
  // The sign-in's browser navigations (routes/admin-oidc.ts) are no API calls: not in the document.
  const routes = discoverRoutes().filter((r) => !r.hidden);
  beforeAll(async () => {
    h = await createHarness();
    const res = await h.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });
  afterAll(() => h.close());

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route: summary, body, success answer, refusals and who may call it', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(undocumented(doc, routes)).toEqual([]);
  });

  it('holds only the API: no page, metrics or documentation route of its own', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/api/docs') || p === '/api/openapi.json')).toEqual([]);
    expect(paths.length).toBe(new Set(routes.map((r) => openApiPath(PATH_ALIASES[r.path] ?? r.path))).size);
    expect(paths.filter((p) => p.endsWith('/'))).toEqual([]);
  });

  it('passes a standard OpenAPI linter (Redocly, recommended-strict) with no problem at all', async () => {
    expect(await lintProblems(doc)).toEqual([]);
  });

  it('the linter finds what issue 48 found: no servers, no operationIds, a non-standard keyword, a trailing slash', async () => {
    const bad = structuredClone(doc) as Document & { servers?: unknown };
    delete bad.servers;
    const op = bad.paths['/api/glucose']?.['get'];
    if (op) delete op.operationId;
    bad.paths['/api/users/'] = structuredClone(bad.paths['/api/users'] ?? {});
    for (const o of Object.values(bad.paths['/api/users/'] ?? {})) o.operationId = 'getUsersAlias';
    const schema = bad.paths['/api/glucose/add']?.['post']?.requestBody as { content: Record<string, { schema: { properties: Record<string, object> } }> };
    const value = schema.content['application/json']?.schema.properties['value'];
    if (value) Object.assign(value, { unit: 'mg/dL' });
    const rules = new Set((await lintProblems(bad)).map((p) => p.split(':')[0]));
    expect([...rules].sort()).toEqual(['error no-empty-servers', 'error no-path-trailing-slash', 'error operation-operationId', 'error struct']);
  });

  it('names the server, gives every operation a unique operationId, and writes the unit as x-unit', () => {
    expect(doc.servers?.[0]?.url).toBe('/');
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/glucose/add']?.['post']?.operationId).toBe('postGlucoseAdd');
    expect(doc.paths['/api/admin/patients/{hospNo}/prescriptions/{id}/end']?.['post']?.operationId).toBe('postAdminPatientsByHospNoPrescriptionsByIdEnd');
    const text = JSON.stringify(doc);
    expect(text).toContain('"x-unit":"mg/dL"');
    expect(text).not.toMatch(/"unit":"/);
  });

  it('says 429 and its Retry-After on every rate-limited route, and only there', () => {
    const limited = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, o]) => o.responses?.['429'])
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(limited).toEqual(
      expect.arrayContaining([
        'POST /api/auth/loginWithPassword',
        'POST /api/auth/sendOtp',
        'POST /api/admin/login',
        'POST /api/users/report',
        'GET /api/c15t/init',
      ]),
    );
    expect(limited).not.toContain('GET /api/glucose');
    const answer = doc.paths['/api/auth/loginWithPassword']?.['post']?.responses?.['429'] as { headers?: Record<string, unknown> } | undefined;
    expect(Object.keys(answer?.headers ?? {})).toContain('retry-after');
  });

  it('has answer shapes a JSON Schema 2020-12 validator compiles', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const broken = schemasIn(doc).flatMap(({ where, schema }) => {
      try {
        ajv.compile(schema);
        return [];
      } catch (err) {
        return [`${where}: ${(err as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });

  it('names X-Hosp-No where staff read a patient’s records', () => {
    const op = doc.paths['/api/glucose']?.['get'];
    const header = op?.parameters?.find((p) => p.in === 'header' && p.name === 'x-hosp-no');
    expect(header?.schema?.pattern).toBe('^[A-Za-z0-9][A-Za-z0-9/._-]*$');
  });

  it('refuses an X-Hosp-No that is no hospital number, as the document says, with a message', async () => {
    const fx = await seedFixture(h.db);
    const token = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const res = await call(h.app, 'GET', '/api/glucose', { token, headers: { 'x-hosp-no': '../../etc/passwd' } });
    expect(res.status).toBe(400);
    expect(String(res.json['message'])).toMatch(/hospital number/i);
    expect((await call(h.app, 'GET', '/api/glucose', { token, headers: { 'x-hosp-no': fx.patientA.hospNo } })).status).toBe(200);
  });

  it('operationIds and keywords: built from method and path; a property named unit is not the keyword', () => {
    expect(operationIdOf('GET', '/api/c15t/show-consent-banner')).toBe('getC15tShowConsentBanner');
    expect(operationIdOf('POST', '/api/admin/doctor-tokens/:id/revoke')).toBe('postAdminDoctorTokensByIdRevoke');
    const schema = {
      type: 'object',
      properties: { unit: { type: 'string', enum: ['unit'] }, value: { type: 'number', unit: 'mg/dL' } },
      examples: [{ unit: 'mmol/L' }],
    };
    expect(withStandardKeywords(schema)).toEqual({
      type: 'object',
      properties: { unit: { type: 'string', enum: ['unit'] }, value: { type: 'number', 'x-unit': 'mg/dL' } },
      examples: [{ unit: 'mmol/L' }],
    });
  });

  it('finds a route left undescribed, or an answer without its shape', () => {
    const glucose = routes.filter((r) => r.path === '/api/glucose' || r.path === '/api/glucose/add');
    expect(undocumented(doc, glucose)).toEqual([]);
    const without = structuredClone(doc);
    delete without.paths['/api/glucose']?.['get']?.responses?.['200'];
    delete without.paths['/api/glucose/add'];
    expect(undocumented(without, glucose)).toEqual(['GET /api/glucose: no success answer', 'POST /api/glucose/add: not in the document']);
  });

  it('serves the documentation page from the server itself, under the app’s Content-Security-Policy', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(src, 'http://x/api/docs/').pathname;
      expect((await h.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});
