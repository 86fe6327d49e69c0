// The API's OpenAPI document (issue 17): valid OpenAPI 3.1, every route in it with its request, its
// success answer and its refusals, who may call it, and the documentation page served from the
// server itself under the app's Content-Security-Policy.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes, type Route } from '../../tests/fuzz/routes.ts';
import { createHarness, type Harness } from '../testing/harness.ts';

interface Operation {
  summary?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** `:id` → `{id}`, as OpenAPI writes a path parameter. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What the document lacks about `routes`, in words; empty when each is fully described. */
export function undocumented(doc: Document, routes: Route[]): string[] {
  const problems: string[] = [];
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
    if (!op) {
      problems.push(`${key}: not in the document`);
      continue;
    }
    if (!op.summary) problems.push(`${key}: no summary`);
    const codes = Object.keys(op.responses ?? {});
    const success = codes.filter((c) => /^2\d\d$/.test(c));
    if (success.length === 0) problems.push(`${key}: no success answer`);
    for (const c of success) if (!op.responses?.[c]?.content) problems.push(`${key}: answer ${c} without a body shape`);
    if (!codes.includes('4XX')) problems.push(`${key}: no refusal shape (4XX)`);
    if (!codes.includes('5XX')) problems.push(`${key}: no failure shape (5XX)`);
    if (r.body && !op.requestBody) problems.push(`${key}: its body is not described`);
    if (r.guarded && JSON.stringify(op.security) !== JSON.stringify([{ bearer: [] }])) problems.push(`${key}: guarded, but the document does not say it needs a token`);
    if (!r.guarded && !['/api/auth/validate', '/api/auth/logout', '/api/admin/logout', '/api/admin/verifyToken'].includes(r.path) && JSON.stringify(op.security) !== '[]')
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
        for (const [type, media] of Object.entries(answer.content ?? {})) if (media.schema) out.push({ where: `${m} ${p} ${code} ${type}`, schema: media.schema });
  return out;
}

describe('the OpenAPI document', () => {
  let h: Harness;
  let doc: Document;
  const routes = discoverRoutes();
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
    expect(paths.length).toBe(new Set(routes.map((r) => openApiPath(r.path))).size);
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
    expect(op?.parameters?.some((p) => p.in === 'header' && p.name === 'x-hosp-no')).toBe(true);
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
