// The request arbitrary: a route of the API (tests/fuzz/routes.ts), a caller (patient, second
// patient, admin, doctor, no token, a forged token), path parameters, a query string and a body drawn
// from the route's own schemas (tests/fuzz/schema-arbitrary.ts), odd headers, raw bodies (malformed
// JSON, wrong content types, deep nesting, over the size limit), other methods and unknown paths.
//
// Values the server assigns (its hospital and prescription ids, the doctor token, a password changed
// during the run) appear as `@@name@@` references, resolved when the request is sent: the sequence of
// requests depends on the seed only.
import fc from 'fast-check';
import type { Auth } from './contracts.ts';
import type { Route } from './routes.ts';
import { routeKey } from './routes.ts';
import { bodyOf, invalid, ODD_STRINGS, oddValue, valid, type Hints, type JsonSchema } from './schema-arbitrary.ts';

export interface FuzzRequest {
  /** The route it aims at (`METHOD /api/path/:param`), or undefined for other methods and unknown paths. */
  route: string | undefined;
  method: string;
  /** Path and query string, as sent (after reference resolution). */
  url: string;
  auth: Auth;
  headers: Record<string, string>;
  body?: { json: unknown } | { raw: string; contentType: string | undefined };
  /** How the request was made, for the failure report. */
  label: string;
}

/** The demo data the fuzz knows (server/seed): patients, admin, and what setup adds. */
export const DEMO = {
  patients: ['100001', '100002'],
  adminEmail: 'admin@demo.hospital',
  prescription: { prescrNo: 'RX-FUZZ-1', name: 'Metformin', dose: '500 mg' },
};

/** Known values by property name: enough for valid-looking requests to find rows and pass checks. */
export function hintsFor(now: number, recordIds: readonly string[]): Hints {
  return {
    now,
    byName: {
      hospNo: [...DEMO.patients, 'FUZZ-NEW-1'],
      email: [DEMO.adminEmail],
      password: ['@@password:100001@@', '@@password:100002@@', 'Demo-admin-1', 'New-password-1'],
      currPassword: ['@@password:100001@@', '@@password:100002@@'],
      prescrNo: [DEMO.prescription.prescrNo],
      medicineName: [DEMO.prescription.name],
      name: [DEMO.prescription.name, 'HbA1c', 'Demo Hospital'],
      dose: [DEMO.prescription.dose],
      timeZone: ['Europe/London', 'Asia/Kolkata', 'UTC', 'America/New_York', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'],
      day: ['Monday', 'sunday', 'FRIDAY', '2026-12-01'],
      glucometerAlerts: ['Monday', 'Thursday', '2026-12-01'],
      glucometerReadingAlerts: ['Tuesday'],
      locale: ['en', 'es', 'ar', 'hi', 'es-MX'],
      symptom: ['Headache', 'Dizziness', 'Blurred vision'],
      doctor: ['Dr. Fuzz'],
      mutationId: ['fuzz-device-0001:1', 'fuzz-device-0001:2', 'fuzz-device-0002:1'],
      domain: ['localhost', '127.0.0.1'],
      // A report's period (the only from and to): drawn alone, half the periods would end before they begin.
      from: [-90, -30, -14].map((d) => new Date(now + d * 86_400_000).toISOString().slice(0, 10)),
      to: [-1, 0, 1].map((d) => new Date(now + d * 86_400_000).toISOString().slice(0, 10)),
      // Ids by what they name; a uuid field of another name draws from all of them.
      hospitalId: ['@@hospitalId@@'],
      hospitalIds: ['@@hospitalId@@'],
      id: ['@@hospitalId@@', '@@prescriptionId@@', '@@doctorTokenId@@'],
      ...Object.fromEntries(['_id', 'glucoseId', 'appointmentId', 'testId', 'intakeId', 'subjectId'].map((k) => [k, recordIds])),
      // A Web Push subscription of the right form (a P-256 point and a 16-byte secret).
      endpoint: ['https://fcm.googleapis.com/fcm/send/fuzz-1', 'https://updates.push.services.mozilla.com/wpush/v2/fuzz-2'],
      p256dh: ['BFLPExPMX_ui_bQdt8SwKsuFzTfTk__njuqs7XdJgTaqnkpUUPFtkbf0cAWjAorpsdskizVo9_mpNYkk9fPL6C8'],
      auth: ['z6pHkhiLzVYbU7vupCEDkA'],
    },
    byFormat: { uuid: [...recordIds, '@@hospitalId@@', '@@prescriptionId@@', '@@doctorTokenId@@'] },
  };
}

/** Header values that Node will send (no control characters, Latin-1). */
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);
const ODD_HEADER_VALUES = ODD_STRINGS.filter((s) => headerSafe(s) && s.length < 10_000).concat(['1'.repeat(1000), '../100001', '100001, 100002', '%00']);
const FORGED_TOKENS = ['a'.repeat(16), 'a'.repeat(512), 'a'.repeat(513), 'a b', '', 'x', '../../../../', 'ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ'];

function authHeaders(auth: Auth): fc.Arbitrary<Record<string, string>> {
  const hospNo = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...DEMO.patients) },
    { weight: 1, arbitrary: fc.constantFrom('', 'UNKNOWN-1', ...ODD_HEADER_VALUES) },
  );
  const deviceId = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('fuzz-device-0001', 'fuzz-device-0002') },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_HEADER_VALUES) },
  );
  switch (auth) {
    case 'patient':
    case 'patient2':
      return fc.record(
        { authorization: fc.constant(`Bearer @@token:${auth}@@`), 'x-device-id': deviceId, 'x-hosp-no': hospNo },
        { requiredKeys: ['authorization'] },
      );
    case 'admin':
    case 'doctor':
      return fc.record({ authorization: fc.constant(`Bearer @@token:${auth}@@`), 'x-hosp-no': hospNo }, { requiredKeys: ['authorization'] });
    case 'bogus':
      return fc
        .constantFrom(...FORGED_TOKENS)
        .chain((t) => fc.constantFrom({ authorization: `Bearer ${t}` }, { authorization: t }, { authorization: `Basic ${t}` }));
    default:
      return fc.constant({});
  }
}

const ODD_HEADERS: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-language',
    'x-forwarded-for',
    'x-request-id',
    'cf-ipcountry',
    'x-c15t-region',
    'user-agent',
    'x-requested-with',
    'origin',
    'if-none-match',
    'range',
  ),
  fc.oneof(
    fc.constantFrom(
      'application/xml',
      'ar',
      'hi-IN,hi;q=0.9',
      'zz-ZZ',
      '*',
      'de-DE;q=0.9,' + 'en;q=0.1,'.repeat(200),
      'not-an-ip, , ::::',
      'FR',
      'fr',
      'GB',
      '999',
      'bytes=0-10',
      'XMLHttpRequest',
    ),
    fc.constantFrom(...ODD_HEADER_VALUES),
  ),
  { maxKeys: 3 },
);

function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Raw bodies: malformed JSON, wrong content types, JSON edge cases. */
const RAW_BODIES: fc.Arbitrary<{ raw: string; contentType: string | undefined }> = fc.oneof(
  fc.constantFrom<{ raw: string; contentType: string | undefined }>(
    { raw: '{"a":', contentType: 'application/json' },
    { raw: '{}garbage', contentType: 'application/json' },
    { raw: '{"value": NaN}', contentType: 'application/json' },
    { raw: '{"a":1,"a":2}', contentType: 'application/json' },
    { raw: '{"__proto__":{"admin":true},"hospNo":"100001"}', contentType: 'application/json' },
    { raw: '\uFEFF{}', contentType: 'application/json' },
    { raw: nestedText(10_000), contentType: 'application/json' },
    { raw: `${'['.repeat(20_000)}${']'.repeat(20_000)}`, contentType: 'application/json' },
    { raw: '   \n  ', contentType: 'application/json' },
    { raw: 'null', contentType: 'application/json' },
    { raw: '"\\ud800"', contentType: 'application/json' },
    { raw: '{"a":"\\u0000"}', contentType: 'application/json' },
    { raw: '1e999999', contentType: 'application/json' },
    { raw: '{"hospNo":"100001"}', contentType: 'text/plain' },
    { raw: 'hospNo=100001&password=x', contentType: 'application/x-www-form-urlencoded' },
    { raw: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    { raw: '{}', contentType: 'application/json; charset=utf-16' },
    { raw: '{}', contentType: 'application/json; charset=latin1' },
    { raw: '{}', contentType: 'application/JSON' },
    { raw: '{}', contentType: 'application/json-patch+json' },
    { raw: '{}', contentType: '%%%/;;;' },
    { raw: '{"hospNo":"100001"}', contentType: undefined },
    { raw: JSON.stringify({ a: 'x'.repeat(300 * 1024) }), contentType: 'application/json' },
    { raw: '<xml/>', contentType: 'application/xml' },
  ),
  fc.record({
    raw: fc.string({ unit: 'binary', maxLength: 200 }),
    contentType: fc.constantFrom<string | undefined>('application/json', 'text/plain', undefined),
  }),
  fc.record({
    raw: fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(1, j.length - 1))),
    contentType: fc.constant<string | undefined>('application/json'),
  }),
);

function encode(v: string): string {
  try {
    // References stay readable: they are resolved to URL-safe ids when the request is sent.
    return encodeURIComponent(v).replace(/%40%40([A-Za-z0-9]+(?:%3A[A-Za-z0-9]+)?)%40%40/g, (_m, name: string) => `@@${decodeURIComponent(name)}@@`);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as the bytes a browser would send
  }
}

function queryString(o: unknown): string {
  if (typeof o !== 'object' || o === null) return o === undefined ? '' : `?${encode(String(o))}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) parts.push(`${encode(k)}=${encode(typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const ODD_QUERIES = [
  '?since=a&since=b',
  '?since[$gt]=1',
  '?%00',
  '?%ZZ=%ZZ',
  '?a[b][c][d]=1',
  `?search=${'s'.repeat(10_000)}`,
  '?limit=1e308',
  '?since=-1',
  '?since=9999999999999999',
  '?&&&=&',
  '?icons=mdi:home,mdi:home',
  '?icons=' + 'mdi:a,'.repeat(49) + 'mdi:b',
];
const ODD_SEGMENTS = ['%00', '%ZZ', '..%2F..%2Fetc', '%F0%9F%98%80', '%ED%A0%80', 'null', '-1', '%20', 'x'.repeat(1000), '100001%2F..', '.', '..'];
const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST'];

function pathOf(route: Route, hints: Hints): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant(route.path);
  const props = (route.params?.['properties'] ?? {}) as Record<string, JsonSchema>;
  const segment = (name: string) =>
    fc.oneof(
      { weight: 8, arbitrary: valid(props[name] ?? { type: 'string' }, hints, name).map((v) => encode(String(v))) },
      {
        weight: 1,
        arbitrary: invalid(props[name] ?? { type: 'string' }, hints).map((v) => encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'))),
      },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    );
  return fc.tuple(...names.map(segment)).map((values) => {
    let p = route.path;
    names.forEach((n, i) => (p = p.replace(`:${n}`, values[i]!)));
    return p;
  });
}

function queryOf(route: Route, hints: Hints): fc.Arbitrary<string> {
  const odd = fc.constantFrom(...ODD_QUERIES);
  if (!route.querystring) return fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: odd });
  return fc.oneof(
    { weight: 6, arbitrary: valid(route.querystring, hints).map(queryString) },
    { weight: 2, arbitrary: invalid(route.querystring, hints).map(queryString) },
    { weight: 1, arbitrary: odd },
  );
}

type Body = FuzzRequest['body'];

function bodyFor(route: Route, hints: Hints): fc.Arbitrary<Body> {
  const none = fc.constant<Body>(undefined);
  const raw = RAW_BODIES.map((r): Body => r);
  if (route.body) {
    return fc.oneof(
      { weight: 16, arbitrary: bodyOf(route.body, hints).map((json): Body => ({ json })) },
      { weight: 2, arbitrary: raw },
      { weight: 1, arbitrary: none },
      // The right JSON with a content type that is not JSON.
      { weight: 1, arbitrary: valid(route.body, hints).map((v): Body => ({ raw: JSON.stringify(v), contentType: 'text/plain' })) },
    );
  }
  if (route.method === 'GET') return fc.oneof({ weight: 30, arbitrary: none }, { weight: 1, arbitrary: raw });
  return fc.oneof(
    { weight: 14, arbitrary: none },
    { weight: 2, arbitrary: fc.constant<Body>({ json: {} }) },
    { weight: 1, arbitrary: oddValue().map((json): Body => ({ json })) },
    { weight: 2, arbitrary: raw },
  );
}

interface Caller {
  auth: Auth;
  headers: Record<string, string>;
}

const caller = (auth: Auth): fc.Arbitrary<Caller> => authHeaders(auth).map((headers) => ({ auth, headers }));

/** Who calls: mostly the patient and the admin, as the product is used. */
const CALLERS: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 7, arbitrary: caller('patient') },
  { weight: 1, arbitrary: caller('patient2') },
  { weight: 5, arbitrary: caller('admin') },
  { weight: 3, arbitrary: caller('doctor') },
  { weight: 3, arbitrary: caller('none') },
  { weight: 1, arbitrary: caller('bogus') },
);

/** Who calls the staff area: mostly the admin. */
const STAFF_CALLERS: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 9, arbitrary: caller('admin') },
  { weight: 3, arbitrary: caller('doctor') },
  { weight: 2, arbitrary: caller('patient') },
  { weight: 2, arbitrary: caller('none') },
  { weight: 1, arbitrary: caller('bogus') },
);

function requestFor(route: Route, hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      who: route.path.startsWith('/api/admin/') ? STAFF_CALLERS : CALLERS,
      path: pathOf(route, hints),
      query: queryOf(route, hints),
      body: bodyFor(route, hints),
      odd: fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: ODD_HEADERS }),
    })
    .map(({ who, path, query, body, odd }): FuzzRequest => ({
      route: routeKey(route),
      method: route.method,
      url: path + query,
      auth: who.auth,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...who.headers, ...odd },
      ...(body !== undefined ? { body } : {}),
      label: body === undefined ? 'no body' : 'json' in body ? 'json body' : `raw body (${body.contentType ?? 'no content type'})`,
    }));
}

const isLogout = (r: Route) => r.path.endsWith('/logout');

/** Requests to every route but the logouts (they end the fuzz's own sessions: see logoutRequests). */
export function requests(routes: readonly Route[], hints: Hints): fc.Arbitrary<FuzzRequest> {
  const main = routes.filter((r) => !isLogout(r));
  const byPath = new Map<string, Route[]>();
  for (const r of main) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  // Another method on a route's path: a route of that method when there is one, else no route.
  const otherMethod = fc.tuple(fc.constantFrom(...byPath.keys()), fc.constantFrom(...OTHER_METHODS), CALLERS).map(([path, method, who]): FuzzRequest => {
    const routed = byPath.get(path)!.some((r) => r.method === method);
    return {
      route: routed ? `${method} ${path}` : undefined,
      method,
      url: path.replace(/:[A-Za-z]+/g, 'x'),
      auth: who.auth,
      headers: who.headers,
      body: { json: {} },
      label: 'other method',
    };
  });
  const unknown = fc
    .tuple(
      fc.constantFrom(
        '/api',
        '/api/',
        '/api/nope',
        `/api/${'x'.repeat(5000)}`,
        '/api/%00',
        '/api/%ZZ',
        '/api/../api/health',
        '/api//glucose',
        '/api/glucose/',
        '/api/GLUCOSE',
        '/api/admin/',
        '/api/c15t/',
      ),
      CALLERS,
    )
    .map(([url, who]): FuzzRequest => ({ route: undefined, method: 'GET', url, auth: who.auth, headers: who.headers, label: 'unknown path' }));
  return fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...main.map((r) => requestFor(r, hints))) },
    { weight: 1, arbitrary: otherMethod },
    { weight: 1, arbitrary: unknown },
  );
}

/** The logout routes, sent last: every caller, every kind of body. */
export function logoutRequests(routes: readonly Route[], hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...routes.filter(isLogout).map((r) => requestFor(r, hints)));
}
