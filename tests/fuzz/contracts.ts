// What every answer of the API must be, whatever was asked:
//   - below 500;
//   - a 4xx is JSON with a non-empty string `message` (docs/api.md, "Conventions"; docs/requirements.md §8 "the server's
//     message field");
//   - a 2xx is what its route declares (schemas/api.ts, the shapes the routes serialize with and the
//     OpenAPI document publishes), with the rows checked against the entity schemas of schemas/*.ts,
//     which are the device's own collection schemas (sync/storage/collections.ts): a row they refuse
//     is a row the device cannot store;
//   - no answer carries a secret's hash (passwordHash, keyHash, tokenHash, …);
//   - a guarded route does not answer 2xx without a valid token, a patient does not reach the staff
//     area, a doctor does not write, and staff do not write through the patient endpoints (docs/requirements.md §6).
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { REPEATABLE_ANSWERS } from '../../schemas/api.ts';
import { declaredFor } from '../../server/http/response-check.ts';
import { discoverRoutes, routeKey } from './routes.ts';

const addFormats = ajvFormats.default;
const ajv = new Ajv({ allErrors: true, strict: false, keywords: ['unit'], addUsedSchema: false });
addFormats(ajv);

/** Route key (as Fastify knows it) → the answers it declares, by status. */
export const DECLARED: ReadonlyMap<string, Record<string, unknown> | undefined> = new Map(discoverRoutes().map((r) => [routeKey(r), r.response]));

/** A file answer's first bytes, by content type. */
const FILE_STARTS: Record<string, string> = { 'application/pdf': '%PDF-' };

/** Fields that must never leave the server, in any answer. */
export const SECRET_FIELDS = [
  'passwordHash',
  'password_hash',
  'keyHash',
  'key_hash',
  'tokenHash',
  'token_hash',
  'otpHash',
  'codeHash',
  'salt',
  'vapidPrivateKey',
  'privateKey',
  'totpSecret',
  'totp_secret',
];

const compiled = new Map<string, ValidateFunction>();
function validator(key: string, shape: object): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile(shape);
    compiled.set(key, v);
  }
  return v;
}

function secretsIn(value: unknown, path = '$', out: string[] = [], depth = 0): string[] {
  if (depth > 30 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_FIELDS.includes(k)) out.push(`${path}.${k}`);
    secretsIn(v, `${path}.${k}`, out, depth + 1);
  }
  return out;
}

export type Auth = 'patient' | 'patient2' | 'admin' | 'doctor' | 'none' | 'bogus';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Judged {
  serverError: boolean;
  /** Each broken rule, in words. */
  violations: string[];
}

/** Which requests a guarded route must refuse (docs/requirements.md §6 roles and permissions). */
function accessRule(routeKey: string, auth: Auth, guarded: boolean): string | undefined {
  if (!guarded) return undefined;
  if (auth === 'none' || auth === 'bogus') return 'a guarded route answered 2xx without a valid token';
  const [method, path = ''] = routeKey.split(' ');
  const staffArea = path.startsWith('/api/admin/') && !['/api/admin/login', '/api/admin/logout', '/api/admin/verifyToken'].includes(path);
  if (staffArea && (auth === 'patient' || auth === 'patient2')) return 'a patient token reached the staff area';
  const staffRead =
    method === 'GET' || ['/api/admin/report', '/api/admin/report/csv', '/api/admin/report/fhir', '/api/users/report', '/api/users/report/csv'].includes(path);
  // A staff member's own device turning severe-low alerts on or off changes no patient's data.
  const ownDevice = path === '/api/admin/alerts/on' || path === '/api/admin/alerts/off';
  if (auth === 'doctor' && !staffRead && !ownDevice) return 'a doctor token made a change (doctors have read-only access)';
  if ((auth === 'admin' || auth === 'doctor') && !staffArea && !staffRead)
    return 'a staff token wrote through a patient endpoint (staff read patient records only)';
  return undefined;
}

function header(a: Answer, name: string): string {
  const v = a.headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/**
 * Judges one answer. `routeKey` is undefined for requests to no route (unknown paths, other methods);
 * `guarded` says whether the route checks a token (it declares a preHandler).
 */
export function judge(routeKey: string | undefined, method: string, auth: Auth, guarded: boolean, a: Answer): Judged {
  const violations: string[] = [];
  if (a.status >= 500) return { serverError: true, violations };
  const contentType = header(a, 'content-type');
  const text = a.body.toString('utf8');
  const isJson = /^application\/(.+\+)?json\b/.test(contentType);
  let json: unknown;
  let parsed = false;
  if (isJson && text !== '') {
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      violations.push(`answer says ${contentType} but is not JSON`);
    }
  }
  if (parsed) for (const p of secretsIn(json)) violations.push(`answer leaks a secret field: ${p}`);
  if (/"(passwordHash|password_hash|keyHash|key_hash|tokenHash|token_hash)"/.test(text)) violations.push('answer text names a secret hash field');

  if (a.status >= 400) {
    if (method === 'HEAD') return { serverError: false, violations };
    const msg = parsed && typeof json === 'object' && json !== null ? (json as { message?: unknown }).message : undefined;
    if (!isJson || typeof msg !== 'string' || msg.trim() === '') violations.push(`${a.status} without a JSON message (content-type ${contentType || 'none'})`);
    return { serverError: false, violations };
  }
  if (a.status < 200 || a.status >= 300 || routeKey === undefined || method === 'HEAD' || method === 'OPTIONS') return { serverError: false, violations };

  const rule = accessRule(routeKey, auth, guarded);
  if (rule) violations.push(rule);
  // A repeated mutation id is answered with the first answer given to it, status and body, maybe
  // another route's (a 201 of an add answering a delete sent with the same id).
  if (header(a, 'x-mutation-repeat') === '1') {
    if (!parsed || !validator('repeat', { anyOf: REPEATABLE_ANSWERS })(json))
      violations.push('a repeated mutation answered with a body that is no patient write answer');
    return { serverError: false, violations };
  }
  const responses = DECLARED.get(routeKey);
  const declared = responses ? (declaredFor(responses, a.status) as { content?: Record<string, unknown> } | undefined) : undefined;
  if (!declared) {
    violations.push(`2xx ${a.status} that its route does not declare (schemas/api.ts)`);
    return { serverError: false, violations };
  }
  if (declared.content) {
    const want = Object.keys(declared.content).find((t) => contentType.startsWith(t));
    if (!want) violations.push(`2xx content-type ${contentType || 'none'}, expected ${Object.keys(declared.content).join(' or ')}`);
    const starts = want ? FILE_STARTS[want] : undefined;
    if (starts && !text.startsWith(starts)) violations.push(`2xx body does not start with ${starts}`);
    if (want?.endsWith('json') && !parsed) violations.push('2xx body is not JSON');
    return { serverError: false, violations };
  }
  if (!isJson || !parsed) {
    violations.push(`2xx answer is not JSON (content-type ${contentType || 'none'})`);
    return { serverError: false, violations };
  }
  const validate = validator(`${routeKey} ${a.status}`, declared);
  if (!validate(json)) {
    const errs = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params['additionalProperty'])})` : ''}`,
      );
    violations.push(`2xx answer breaks its declared shape: ${errs.join('; ')}`);
  }
  return { serverError: false, violations };
}
