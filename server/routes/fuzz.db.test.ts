// "No input of any shape produces a 500" (docs/api.md, "Conventions"): every route under /api, as a patient,
// as an admin viewing patient A and without a token, gets bodies, field values, content types, query
// strings, path parameters and headers of every odd shape. Every answer must be below 500, and every
// error must be JSON with a string `message`.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTATIONS } from '../../schemas/mutations.ts';
import { admins } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Route {
  method: HTTPMethods;
  /** Path with `:params`, including the /api prefix. */
  path: string;
}

/**
 * Every route, read from the route files themselves so a new route cannot escape the fuzzing: each
 * `api.post('/path', …)`, and the patient writes, whose paths are the registry's
 * (schemas/mutations.ts: `postPatientWrite(api, ctx, 'glucose.add')`, `api.post(register.path, …)`).
 * A route registered in any other way fails the list's own check below.
 */
function routesFromSource(): Route[] {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const out: Route[] = Object.values(MUTATIONS).map((m) => ({ method: 'POST', path: `/api${m.path}` }));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const src = readFileSync(path.join(dir, file), 'utf8');
    const literal = [...src.matchAll(/\bapi\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)];
    for (const m of literal) out.push({ method: (m[1] ?? 'post').toUpperCase(), path: `/api${m[2] ?? ''}` });
    const fromRegistry = [...src.matchAll(/\bapi\.post\(\s*\w+\.path\b/g), ...src.matchAll(/\bpostPatientWrite\(\s*api,\s*ctx,\s*'([^']+)'/g)];
    const all = [...src.matchAll(/\bapi\.(get|post|put|patch|delete)\(/g)].length;
    if (all !== literal.length + fromRegistry.filter((m) => m[0].startsWith('api.')).length)
      throw new Error(`${file}: a route registered other than with a literal path or a registry path`);
    for (const m of fromRegistry) if (m[1] !== undefined && !Object.hasOwn(MUTATIONS, m[1])) throw new Error(`${file}: ${m[1]} is no mutation of the registry`);
  }
  return [...new Map(out.map((r) => [`${r.method} ${r.path}`, r])).values()];
}

const key = (r: Route) => `${r.method} ${r.path}`;
const ISO_PAST = '2026-11-01T08:00:00.000Z';

/**
 * A plausible body for each route (so that one odd field at a time gets past the other fields and
 * reaches the service), plus the optional fields that are not in it. Logout routes are left to the end.
 */
const BODIES: Record<string, { base: Record<string, unknown> | undefined; extra?: string[] }> = {
  'GET /api/health': { base: undefined },
  'GET /api/ready': { base: undefined },
  'GET /api/icons': { base: undefined },
  'POST /api/auth/login': { base: { hospNo: '200001', otp: '123456' }, extra: ['accessKey'] },
  'POST /api/auth/loginWithPassword': { base: { hospNo: '200001', password: 'not-the-password' } },
  'POST /api/auth/sendOtp': { base: { hospNo: '200002' } },
  'POST /api/auth/updatePassword': { base: { hospNo: '200001', currPassword: 'not-the-password', password: 'New-password-1' } },
  'POST /api/auth/validate': { base: undefined },
  'POST /api/auth/logout': { base: undefined },
  'GET /api/users/': { base: undefined },
  'GET /api/users': { base: undefined },
  'POST /api/users/notificationToken': { base: { token: 'fcm-fuzz-token' }, extra: ['timeZone', 'locale', 'mutationId'] },
  'POST /api/users/notificationToken/remove': { base: { token: 'fcm-fuzz-token' }, extra: ['endpoint', 'mutationId'] },
  'GET /api/push/config': { base: undefined },
  'POST /api/users/medicines/remindLater': {
    base: { prescrNo: 'RX-FUZZ', medicineName: 'Metformin', dose: '500 mg', time: '08:00' },
    extra: ['_id', 'remindAt', 'mutationId'],
  },
  'POST /api/users/notificationTimings': { base: { breakfast: '07:00', lunch: '13:00', dinner: '20:00' }, extra: ['baseVersion', 'mutationId'] },
  'POST /api/users/glucometerAlerts': { base: { day: 'Monday' }, extra: ['mutationId'] },
  'POST /api/users/glucometerAlerts/remove': { base: { day: 'Monday' }, extra: ['mutationId'] },
  'POST /api/sync/history': { base: {}, extra: ['seen', 'acked'] },
  // A stream only for a client that asks for one (Accept: text/event-stream), which the probes never do.
  'GET /api/changes': { base: undefined },
  'POST /api/batch': { base: { mutations: [{ path: '/glucose/add', body: { type: 'Random', value: 120 } }] } },
  'GET /api/glucose': { base: undefined },
  'POST /api/glucose/add': { base: { type: 'Fasting', value: 100 }, extra: ['_id', 'recordedAt', 'mutationId'] },
  'POST /api/glucose/update': { base: { glucoseId: randomUUID(), gtype: 'Random', gvalue: 120 }, extra: ['recordedAt', 'baseVersion', 'mutationId'] },
  'POST /api/glucose/delete': { base: { glucoseId: randomUUID() }, extra: ['baseVersion', 'mutationId'] },
  'GET /api/symptoms': { base: undefined },
  'GET /api/symptoms/list': { base: undefined },
  'POST /api/symptoms/add': { base: { symptom: 'Headache', recordedAt: ISO_PAST }, extra: ['_id', 'mutationId'] },
  'POST /api/symptoms/remove': { base: { symptom: 'Headache', recordedAt: ISO_PAST }, extra: ['_id', 'baseVersion', 'mutationId'] },
  'GET /api/appointments': { base: undefined },
  'POST /api/appointments/add': { base: { doctor: 'Dr. Fuzz', date: '2026-12-01T10:00:00Z', notes: 'n' }, extra: ['_id', 'mutationId'] },
  'POST /api/appointments/update': {
    base: { appointmentId: randomUUID(), doctor: 'Dr. Fuzz', date: '2026-12-01T10:00:00Z', notes: 'n' },
    extra: ['baseVersion', 'mutationId'],
  },
  'POST /api/appointments/delete': { base: { appointmentId: randomUUID() }, extra: ['baseVersion', 'mutationId'] },
  'GET /api/tests': { base: undefined },
  'GET /api/tests/list': { base: undefined },
  'POST /api/tests/add': { base: { name: 'HbA1c', value: 7, recordedAt: ISO_PAST }, extra: ['_id', 'unit', 'mutationId'] },
  'POST /api/tests/update': { base: { testId: randomUUID(), name: 'HbA1c', value: 7, recordedAt: ISO_PAST }, extra: ['unit', 'baseVersion', 'mutationId'] },
  'POST /api/tests/delete': { base: { testId: randomUUID() }, extra: ['baseVersion', 'mutationId'] },
  'GET /api/users/medicines': { base: undefined },
  'POST /api/user/medicines/taken': {
    base: { prescrNo: 'RX-FUZZ', medicineName: 'Metformin', dose: '500 mg' },
    extra: ['_id', 'takenAt', 'slot', 'extra', 'mutationId'],
  },
  'POST /api/user/medicines/taken/delete': { base: { intakeId: randomUUID() }, extra: ['baseVersion', 'mutationId'] },
  'GET /api/user/medicines/taken': { base: undefined },
  'POST /api/admin/login': { base: { email: 'admin@test.hospital', password: 'not-the-password' } },
  'POST /api/admin/mfa/setup': { base: { email: 'admin@test.hospital', password: 'not-the-password' } },
  'POST /api/admin/logout': { base: undefined },
  'POST /api/admin/verifyToken': { base: undefined },
  'GET /api/admin/oidc/providers': { base: undefined },
  'GET /api/admin/oidc/:provider/start': { base: undefined },
  'GET /api/admin/oidc/callback': { base: undefined },
  'POST /api/admin/oidc/redeem': { base: { code: 'a'.repeat(43) } },
  'GET /api/admin/users': { base: undefined },
  'GET /api/admin/hospitals': { base: undefined },
  'POST /api/admin/hospitals': { base: { name: 'Fuzz Hospital', timeZone: 'Europe/London' }, extra: ['severeLowMgDl'] },
  'PATCH /api/admin/hospitals/:id': { base: { name: 'Test Hospital A', timeZone: 'UTC' }, extra: ['severeLowMgDl'] },
  'POST /api/admin/alerts/on': { base: { token: 'fcm-fuzz-staff-token' }, extra: ['timeZone', 'locale', 'mutationId'] },
  'POST /api/admin/alerts/off': { base: { token: 'fcm-fuzz-staff-token' }, extra: ['endpoint', 'mutationId'] },
  'POST /api/admin/patients': {
    base: { hospNo: 'FUZZ-1', name: 'Fuzz Patient', hospitalId: '' },
    extra: ['gender', 'age', 'address', 'timeZone', 'notificationTimings', 'glucometerAlerts', 'glucometerReadingAlerts'],
  },
  'GET /api/admin/patients/:hospNo': { base: undefined },
  'PATCH /api/admin/patients/:hospNo': {
    base: { name: 'Alice Able' },
    extra: ['gender', 'age', 'address', 'hospitalId', 'timeZone', 'notificationTimings', 'glucometerAlerts', 'glucometerReadingAlerts', 'baseVersion'],
  },
  'POST /api/admin/patients/:hospNo/access-key': { base: { expiresInDays: 30 } },
  'POST /api/admin/patients/:hospNo/temporary-password': { base: undefined },
  'GET /api/admin/patients/:hospNo/prescriptions': { base: undefined },
  'GET /api/admin/patients/:hospNo/review': { base: undefined },
  'POST /api/admin/patients/:hospNo/prescriptions': { base: { prescrNo: 'RX-NEW', name: 'Metformin', dose: '500 mg' }, extra: ['startDate', 'endDate'] },
  'PATCH /api/admin/patients/:hospNo/prescriptions/:id': { base: { name: 'Metformin', dose: '500 mg' }, extra: ['startDate', 'endDate'] },
  'POST /api/admin/patients/:hospNo/prescriptions/:id/end': { base: { endDate: '2026-12-31' } },
  'GET /api/admin/doctor-tokens': { base: undefined },
  'POST /api/admin/doctor-tokens': { base: { doctorName: 'Dr. Fuzz', hospitalIds: [], expiresAt: '' } },
  'POST /api/admin/doctor-tokens/:id/revoke': { base: undefined },
  'GET /api/admin/audit': { base: undefined },
  'GET /api/admin/worklist': { base: undefined },
  // Reports are rate-limited (30 a minute per address): past that the fuzzing meets 429s, which are below 500 too.
  'POST /api/users/report': { base: { from: '2026-11-01', to: '2026-11-07' }, extra: ['locale', 'unit'] },
  'POST /api/admin/report': { base: { from: '2026-11-01', to: '2026-11-07' }, extra: ['locale', 'unit'] },
  'POST /api/admin/report/fhir': { base: { from: '2026-11-01', to: '2026-11-07' }, extra: ['locale', 'unit'] },
  'POST /api/users/report/csv': { base: { from: '2026-11-01', to: '2026-11-07' }, extra: ['locale', 'unit'] },
  'POST /api/admin/report/csv': { base: { from: '2026-11-01', to: '2026-11-07' }, extra: ['locale', 'unit'] },
};

const LONG = 'x'.repeat(100_000);
const ODD_VALUES: [string, unknown][] = [
  ['null', null],
  ['[]', []],
  ['{}', {}],
  ['""', ''],
  ['" "', ' '],
  ['100k chars', LONG],
  ['-1', -1],
  ['0', 0],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['2^53+1', 2 ** 53 + 1],
  ['"NaN"', 'NaN'],
  ['true', true],
  ['NUL', '\u0000'],
  ['impossible date-time', '2026-02-30T25:61:00Z'],
  ['impossible date', '2026-02-30'],
  // Boundaries the database must never see unchecked (issue 45: year 0 answered 500).
  ['year 0 date-time', '0000-01-01T00:00:00Z'],
  ['year 0 date', '0000-01-01'],
  ['year 9999, +14:00', '9999-12-31T23:59:59+14:00'],
  ['year 1, -14:00', '0001-01-01T00:00:00-14:00'],
  ['beyond JavaScript dates', '+275760-09-13T00:00:00Z'],
  ['leap day', '2028-02-29T12:00:00Z'],
  ['unicode and emoji', 'Ωμέγα 漢字 😀👍🏽 مرحبا'],
  ['bidi override', 'Maria \u202eziL'],
  ['escape', 'x\u001b[2J'],
  ['lone surrogate', '\ud800'],
  ['SQL', "' OR 1=1; drop table patients; --"],
  ['operator object', { $gt: '' }],
  ['array of strings', ['a', 'b']],
  ['__proto__ text', '__proto__'],
];

function nestedChain(depth: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { a: v, b: [v] };
  return v;
}

/** Bodies of every shape, sent as JSON (undefined: no body at all). */
const SHAPES: [string, unknown][] = [
  ['no body', undefined],
  ['null', null],
  ['[]', []],
  ['"string"', 'string'],
  ['42', 42],
  ['true', true],
  ['{}', {}],
  ['nested 12', nestedChain(12, 'x')],
  ['array of objects', [{}, { a: 1 }]],
];

/** Raw request bodies with a content type, sent byte for byte. */
const RAW: [string, string | undefined, string][] = [
  ['invalid JSON', 'application/json', '{"a":'],
  ['trailing garbage', 'application/json', '{}garbage'],
  ['NaN literal', 'application/json', '{"value": NaN}'],
  ['__proto__', 'application/json', '{"__proto__":{"admin":true},"hospNo":"200001"}'],
  ['constructor.prototype', 'application/json', '{"constructor":{"prototype":{"admin":true}}}'],
  ['BOM', 'application/json', '\uFEFF{}'],
  ['deep objects', 'application/json', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ['deep arrays', 'application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ['whitespace only', 'application/json', '   \n  '],
  ['text/plain', 'text/plain', '{"hospNo":"200001"}'],
  ['form', 'application/x-www-form-urlencoded', 'hospNo=200001&password=x'],
  ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
  ['json utf-16 charset', 'application/json; charset=utf-16', '{}'],
  ['garbage content type', '%%%/;;;', '{}'],
  ['no content type', undefined, '{"hospNo":"200001"}'],
  ['over the body limit', 'application/json', JSON.stringify({ a: 'x'.repeat(300 * 1024) })],
];

const QUERIES = [
  '?since=garbage',
  '?since=0&limit=1',
  '?since=999999999999999&limit=5000',
  '?since=9999999999999999',
  '?since=-1',
  '?since=1e3',
  '?since=0&limit=5001',
  '?since=0&limit=-1',
  '?since=',
  '?since=2026-02-30T25:61:00Z',
  '?since=0000-01-01T00:00:00Z',
  '?since=9999-12-31T23:59:59%2B14:00',
  '?before=0000-01-01T00:00:00Z',
  '?from=0000-01-01&to=0001-01-01',
  '?since=1e308',
  '?since=%00',
  '?since=a&since=b',
  '?since[$gt]=1',
  '?page=-1',
  '?page=1e308',
  '?limit=abc',
  '?limit=0&page=0',
  `?search=${'s'.repeat(10_000)}`,
  '?search=%25%27%22%5C',
  '?search=%F0%9F%98%80',
  '?hospitalId=not-a-uuid',
  '?hospNo=%00&before=yesterday',
  '?%00',
  '?%ZZ=%ZZ',
  '?a[b][c][d]=1',
];

const PARAM_VALUES = ['x'.repeat(1000), '%00', '%ZZ', '..%2F..%2Fetc', '%F0%9F%98%80', '%ED%A0%80', 'null', '-1', '%20'];

type Auth = 'patient' | 'admin' | 'none';
const AUTHS: Auth[] = ['patient', 'admin', 'none'];

interface Probe {
  label: string;
  method: HTTPMethods;
  url: string;
  auth: Auth;
  body?: unknown;
  raw?: { contentType: string | undefined; payload: string };
  headers?: Record<string, string>;
}

let h: Harness;
let fx: Fixture;
let tokens: Record<Exclude<Auth, 'none'>, string>;
let prescriptionId: string;
const routes = routesFromSource();
const BATCH = 24;

function authHeaders(auth: Auth): Record<string, string> {
  if (auth === 'patient') return { authorization: `Bearer ${tokens.patient}`, 'x-device-id': 'fuzz-device-0001' };
  if (auth === 'admin') return { authorization: `Bearer ${tokens.admin}`, 'x-hosp-no': fx.patientA.hospNo };
  return {};
}

function concretePath(r: Route): string {
  return r.path
    .replace(':hospNo', fx.patientA.hospNo)
    .replace(':provider', 'no-such-provider')
    .replace(':id', r.path.includes('/prescriptions/') ? prescriptionId : r.path.includes('/hospitals/') ? fx.hospitalA.id : randomUUID());
}

function baseOf(r: Route): Record<string, unknown> | undefined {
  const b = BODIES[key(r)]?.base;
  if (!b) return undefined;
  if (key(r) === 'POST /api/admin/patients') return { ...b, hospitalId: fx.hospitalA.id };
  if (key(r) === 'POST /api/admin/doctor-tokens') return { ...b, hospitalIds: [fx.hospitalA.id], expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
  return b;
}

function fieldsOf(r: Route): string[] {
  const entry = BODIES[key(r)];
  return [...Object.keys(entry?.base ?? {}), ...(entry?.extra ?? [])];
}

const isLogout = (r: Route) => r.path.endsWith('/logout');

/**
 * Sends every probe (in parallel batches) and returns a line for each answer that breaks the rule;
 * `seen` collects every status, keyed by auth, method and URL.
 */
async function run(probes: Probe[], seen?: Map<string, number>): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < probes.length; i += BATCH) {
    const batch = probes.slice(i, i + BATCH);
    const results = await Promise.all(
      batch.map(async (p) => {
        const headers = { ...authHeaders(p.auth), ...p.headers };
        if (p.raw) {
          const res = await h.app.inject({
            method: p.method,
            url: p.url,
            headers: { 'x-requested-with': 'XMLHttpRequest', ...(p.raw.contentType !== undefined ? { 'content-type': p.raw.contentType } : {}), ...headers },
            payload: p.raw.payload,
          });
          return { p, status: res.statusCode, body: res.body };
        }
        const res = await call(h.app, p.method, p.url, { ...(p.body !== undefined ? { body: p.body } : {}), headers });
        return { p, status: res.status, body: res.body };
      }),
    );
    for (const { p, status, body } of results) {
      seen?.set(`${p.auth} ${p.method} ${p.url}`, status);
      const where = `${p.auth} ${p.method} ${p.url.slice(0, 120)} [${p.label}]`;
      if (status >= 500) {
        failures.push(`${where} → ${status} ${body.slice(0, 200)}`);
        continue;
      }
      if (status >= 400) {
        let message: unknown;
        try {
          message = (JSON.parse(body) as { message?: unknown }).message;
        } catch {
          message = undefined;
        }
        if (typeof message !== 'string' || message === '') failures.push(`${where} → ${status} without a JSON message: ${body.slice(0, 200)}`);
      }
    }
  }
  return failures;
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  // The group's administrator: every admin write, adding hospitals too, is reached.
  await h.db.update(admins).set({ groupAdmin: true });
  tokens = {
    patient: await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password),
    admin: await loginAdmin(h.app, fx.adminEmail, fx.adminPassword),
  };
  const rx = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA.hospNo}/prescriptions`, {
    token: tokens.admin,
    body: { prescrNo: 'RX-FUZZ', name: 'Metformin', dose: '500 mg' },
  });
  if (rx.status !== 201) throw new Error(`prescription setup failed: ${rx.status} ${rx.body}`);
  prescriptionId = (rx.json['data'] as { _id: string })._id;
});
afterAll(() => h.close());

// Every answer is also checked against its route's declared shape (http/response-check.ts): the
// sweep of odd query strings took 89 s on the 2-core machine with a browser suite beside it.
describe('fuzzing every route: no input of any shape produces a 500', { timeout: 180_000 }, () => {
  it('knows every route of server/routes/*.ts and each is registered', () => {
    expect(routes.length).toBeGreaterThanOrEqual(50);
    expect(routes.filter((r) => !(key(r) in BODIES)).map(key)).toEqual([]);
    expect(routes.filter((r) => !h.app.hasRoute({ method: r.method, url: r.path })).map(key)).toEqual([]);
  });

  it('the plausible bodies are answered below 500, and the writes succeed, so odd fields reach the services', async () => {
    const probes = routes
      .filter((r) => !isLogout(r))
      .flatMap((r) => AUTHS.map((auth): Probe => ({ label: 'base', method: r.method, url: concretePath(r), auth, body: baseOf(r) })));
    const seen = new Map<string, number>();
    expect(await run(probes, seen)).toEqual([]);
    const expectOk = (auth: Auth, k: string) => {
      const [method, p] = k.split(' ') as [HTTPMethods, string];
      return [k, auth, seen.get(`${auth} ${method} ${concretePath({ method, path: p })}`)];
    };
    const patientWrites = [
      'POST /api/batch',
      'POST /api/glucose/add',
      'POST /api/symptoms/add',
      'POST /api/appointments/add',
      'POST /api/tests/add',
      'POST /api/user/medicines/taken',
      'POST /api/users/notificationTimings',
      'POST /api/users/notificationToken',
      'POST /api/users/glucometerAlerts',
      'POST /api/users/medicines/remindLater',
      'POST /api/users/notificationToken/remove',
      'POST /api/sync/history',
    ];
    const adminWrites = [
      'POST /api/admin/hospitals',
      'POST /api/admin/alerts/on',
      'POST /api/admin/alerts/off',
      'POST /api/admin/patients',
      'PATCH /api/admin/patients/:hospNo',
      'POST /api/admin/patients/:hospNo/prescriptions',
      'PATCH /api/admin/patients/:hospNo/prescriptions/:id',
      'POST /api/admin/doctor-tokens',
    ];
    const results = [...patientWrites.map((k) => expectOk('patient', k)), ...adminWrites.map((k) => expectOk('admin', k))];
    expect(results.filter(([, , status]) => typeof status !== 'number' || status >= 300)).toEqual([]);
  });

  it('bodies of every shape', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x))) {
      for (const auth of AUTHS) for (const [label, body] of SHAPES) probes.push({ label, method: r.method, url: concretePath(r), auth, body });
    }
    expect(await run(probes)).toEqual([]);
  });

  it('every expected field set to each odd value at once', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x) && fieldsOf(x).length > 0)) {
      for (const auth of AUTHS) {
        for (const [label, v] of ODD_VALUES)
          probes.push({ label: `all fields ${label}`, method: r.method, url: concretePath(r), auth, body: Object.fromEntries(fieldsOf(r).map((f) => [f, v])) });
      }
    }
    expect(await run(probes)).toEqual([]);
  });

  it('one field at a time set to each odd value, the others plausible', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x) && fieldsOf(x).length > 0)) {
      // The patient reaches the patient services, the admin the admin services; both try both.
      for (const auth of ['patient', 'admin'] as const) {
        for (const f of fieldsOf(r)) {
          for (const [label, v] of ODD_VALUES)
            probes.push({ label: `${f}=${label}`, method: r.method, url: concretePath(r), auth, body: { ...baseOf(r), [f]: v } });
        }
      }
    }
    expect(await run(probes)).toEqual([]);
  });

  it('raw bodies: invalid JSON, deep nesting, wrong content types', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x) && x.method !== 'GET')) {
      for (const auth of AUTHS)
        for (const [label, contentType, payload] of RAW) probes.push({ label, method: r.method, url: concretePath(r), auth, raw: { contentType, payload } });
    }
    // A GET with a body, too.
    for (const r of routes.filter((x) => x.method === 'GET')) {
      probes.push({
        label: 'GET with invalid JSON body',
        method: 'GET',
        url: concretePath(r),
        auth: 'patient',
        raw: { contentType: 'application/json', payload: '{"a":' },
      });
    }
    expect(await run(probes)).toEqual([]);
  });

  it('odd query strings', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x))) {
      for (const auth of AUTHS) for (const q of QUERIES) probes.push({ label: 'query', method: r.method, url: concretePath(r) + q, auth, body: baseOf(r) });
    }
    expect(await run(probes)).toEqual([]);
  });

  it('odd path parameters', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => x.path.includes(':'))) {
      for (const auth of AUTHS) {
        for (const v of PARAM_VALUES) {
          probes.push({ label: `params=${v.slice(0, 20)}`, method: r.method, url: r.path.replace(/:[A-Za-z]+/g, v), auth, body: baseOf(r) });
        }
        // A valid hospital number of another hospital, an unknown one, and an unknown id.
        for (const hospNo of [fx.patientB.hospNo, 'UNKNOWN-1']) {
          probes.push({
            label: `hospNo=${hospNo}`,
            method: r.method,
            url: r.path.replace(':hospNo', hospNo).replace(':id', randomUUID()),
            auth,
            body: baseOf(r),
          });
        }
      }
    }
    expect(await run(probes)).toEqual([]);
  });

  it('odd headers', async () => {
    const HEADERS: [string, Auth, Record<string, string>][] = [
      ['X-Hosp-No 1000 chars', 'admin', { 'x-hosp-no': '1'.repeat(1000) }],
      ['X-Hosp-No odd', 'admin', { 'x-hosp-no': '../200001' }],
      ['X-Hosp-No empty', 'admin', { 'x-hosp-no': '' }],
      ['X-Hosp-No other hospital', 'admin', { 'x-hosp-no': fx.patientB.hospNo }],
      ['X-Hosp-No for a patient', 'patient', { 'x-hosp-no': fx.patientA2.hospNo }],
      ['Bearer 10k chars', 'none', { authorization: `Bearer ${'a'.repeat(10_000)}` }],
      ['Bearer', 'none', { authorization: 'Bearer ' }],
      ['Basic', 'none', { authorization: 'Basic abc' }],
      ['Bearer with spaces', 'none', { authorization: 'Bearer a b c d e f g h i j k l m n o p' }],
      ['Bearer unicode', 'none', { authorization: 'Bearer ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ' }],
      ['device id 1000 chars', 'patient', { 'x-device-id': 'd'.repeat(1000) }],
      ['device id odd', 'patient', { 'x-device-id': '../../ 😀' }],
      ['X-Forwarded-For garbage', 'patient', { 'x-forwarded-for': 'not-an-ip, , ::::' }],
      ['accept xml', 'patient', { accept: 'application/xml' }],
      ['content-length mismatch', 'patient', { 'content-length': '5' }],
    ];
    const probes: Probe[] = [];
    for (const r of routes.filter((x) => !isLogout(x))) {
      for (const [label, auth, headers] of HEADERS) probes.push({ label, method: r.method, url: concretePath(r), auth, body: baseOf(r) ?? {}, headers });
    }
    expect(await run(probes)).toEqual([]);
  });

  it('other methods on every path and unknown paths under /api', async () => {
    const probes: Probe[] = [];
    const paths = [...new Set(routes.map(concretePath))];
    for (const p of paths)
      for (const method of ['PUT', 'DELETE', 'OPTIONS'] as const) probes.push({ label: 'method', method, url: p, auth: 'patient', body: {} });
    for (const url of ['/api', '/api/', '/api/nope', `/api/${'x'.repeat(5000)}`, '/api/%00', '/api/%ZZ', '/api/../api/health', '/api//glucose']) {
      for (const auth of AUTHS) probes.push({ label: 'unknown', method: 'GET', url, auth });
    }
    expect(await run(probes)).toEqual([]);
  });

  it('the logout routes, last, with every shape of body', async () => {
    const probes: Probe[] = [];
    for (const r of routes.filter(isLogout)) {
      for (const [label, body] of SHAPES) probes.push({ label, method: r.method, url: r.path, auth: 'none', body });
      for (const [label, contentType, payload] of RAW) probes.push({ label, method: r.method, url: r.path, auth: 'none', raw: { contentType, payload } });
      probes.push({ label: 'Bearer 10k', method: r.method, url: r.path, auth: 'none', headers: { authorization: `Bearer ${'a'.repeat(10_000)}` } });
    }
    expect(await run(probes)).toEqual([]);
    // And once each with a real session, which is then gone.
    for (const [url, auth] of [
      ['/api/auth/logout', 'patient'],
      ['/api/admin/logout', 'admin'],
    ] as const) {
      expect(await run([{ label: 'real logout', method: 'POST', url, auth, body: {} }])).toEqual([]);
      const after = await call(h.app, 'GET', '/api/users/', { token: tokens[auth], headers: { 'x-hosp-no': fx.patientA.hospNo } });
      expect(after.status).toBe(401);
    }
  });
});
