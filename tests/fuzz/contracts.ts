// What every answer of the API must be, whatever was asked:
//   - below 500;
//   - a 4xx is JSON with a non-empty string `message` (DESIGN.md §3 Errors; spec §8 "the server's
//     message field");
//   - a 2xx is what the route declares: the routes declare no Fastify response schemas, so the shapes
//     come from the spec's §7 tables (e.g. GET /glucose → {fasting, postprandial, random}), with the
//     rows checked against the entity schemas of schemas/*.ts, which are the device's own collection
//     schemas (src/lib/db/collections.ts): a row they refuse is a row the device cannot store;
//   - no answer carries a secret's hash (passwordHash, keyHash, tokenHash, …);
//   - a guarded route does not answer 2xx without a valid token, a patient does not reach the staff
//     area, a doctor does not write, and staff do not write through the patient endpoints (spec §6).
// The table below is small on purpose: one line per route, the shape and nothing clever. Where the
// server's answer differs from a bare schema by design, the line says why.
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { appointmentSchema } from '../../schemas/appointment.ts';
import { batchResponseSchema } from '../../schemas/batch.ts';
import { deletedIds, messageResponse, syncVersion, uuid } from '../../schemas/common.ts';
import { consentInitSchema, consentSetResponseSchema, consentVerifyResponseSchema, showConsentBannerSchema, subjectConsentResponseSchema } from '../../schemas/consent.ts';
import { glucoseReadingSchema } from '../../schemas/glucose.ts';
import { labTestReferenceSchema, labTestSchema } from '../../schemas/lab-test.ts';
import { medicineIntakeSchema, medicineSchema } from '../../schemas/medicine.ts';
import { pushConfigSchema } from '../../schemas/push.ts';
import { symptomSchema } from '../../schemas/symptom.ts';
import { mealTimingsSchema, userProfileSchema } from '../../schemas/user-profile.ts';
import type { JsonSchema } from './schema-arbitrary.ts';

const addFormats = ajvFormats.default;
const ajv = new Ajv({ allErrors: true, strict: false, keywords: ['unit'], addUsedSchema: false });
addFormats(ajv);

const iso = { type: 'string', format: 'date-time' } as const;
const str = { type: 'string' } as const;
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties), additionalProperties = false) =>
  ({ type: 'object', properties, required, additionalProperties }) as const;
const list = (items: unknown) => ({ type: 'array', items }) as const;
/** A row as the device stores it: the entity schema without its `$id` (ajv would register it). */
const row = (s: JsonSchema) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$id'));
/** A list GET: its array key(s), plus `deleted`, `checkpoint` and `next` of a `?since=` pull (docs/sync-protocol.md). */
const pullList = (keys: Record<string, unknown>) =>
  obj({ ...keys, deleted: deletedIds, checkpoint: syncVersion, next: syncVersion }, Object.keys(keys));
const written = (data: unknown) => obj({ message: str, data });
const message = messageResponse;
const hospital = obj({ _id: uuid, name: str, timeZone: str });
const patient = obj(
  {
    _id: uuid,
    hospNo: str,
    name: str,
    gender: { type: ['string', 'null'] },
    age: { type: ['integer', 'null'] },
    address: { type: ['string', 'null'] },
    hospitalId: uuid,
    hospital: str,
    timeZone: str,
    notificationTimings: mealTimingsSchema,
    glucometerAlerts: list(str),
    hasPassword: { type: 'boolean' },
    mustChangePassword: { type: 'boolean' },
    version: syncVersion,
    lastSyncAt: { anyOf: [iso, { type: 'null' }] },
  },
  ['_id', 'hospNo', 'name', 'hospitalId', 'timeZone', 'notificationTimings', 'glucometerAlerts', 'version'],
);
const doctorToken = obj({ _id: uuid, doctorName: str, hospitalIds: list(uuid), expiresAt: iso, revokedAt: { anyOf: [iso, { type: 'null' }] }, createdAt: iso });
const token = { type: 'string', pattern: '^[A-Za-z0-9._~+/=-]{16,512}$' } as const;

export interface Contract {
  /** The JSON shape of a 2xx answer, or a content type that is not JSON (reports). */
  shape: object | { contentType: string; startsWith?: string };
}

/** Route key (as Fastify knows it) → the shape of its 2xx answer. */
export const CONTRACTS: Record<string, Contract> = {
  'GET /api/health': { shape: obj({ status: { const: 'ok' }, db: { enum: ['pglite', 'postgres'] } }) },
  'GET /api/ready': { shape: obj({ status: { const: 'ready' }, db: { enum: ['pglite', 'postgres'] }, database: { const: 'ok' }, migrations: { const: 'ok' } }) },
  // Iconify JSON (spec §7 "icon-data endpoint").
  'GET /api/icons': {
    shape: obj({ prefix: str, icons: { type: 'object', additionalProperties: { type: 'object', required: ['body'] } }, width: { type: 'number' }, height: { type: 'number' }, not_found: list(str) }, ['prefix', 'icons']),
  },
  'POST /api/auth/login': { shape: obj({ token, expiresAt: iso }) },
  'POST /api/auth/loginWithPassword': { shape: obj({ token, expiresAt: iso, mustChangePassword: { type: 'boolean' } }, ['token']) },
  'POST /api/auth/sendOtp': { shape: message },
  'POST /api/auth/updatePassword': { shape: message },
  'POST /api/auth/validate': { shape: obj({ valid: { type: 'boolean' }, expiresAt: iso }, ['valid']) },
  'POST /api/auth/logout': { shape: message },
  // The profile as the device holds it (UserProfile), plus two fields the server adds and the device
  // leaves out when it stores it (sync/profile-sync.ts maps field by field): _id and lastSyncAt.
  'GET /api/users/': { shape: obj({ user: { ...row(userProfileSchema), properties: { ...userProfileSchema.properties, _id: uuid, lastSyncAt: { anyOf: [iso, { type: 'null' }] } } } }) },
  'GET /api/users': { shape: obj({ user: { ...row(userProfileSchema), properties: { ...userProfileSchema.properties, _id: uuid, lastSyncAt: { anyOf: [iso, { type: 'null' }] } } } }) },
  'POST /api/users/notificationToken': { shape: message },
  'POST /api/users/notificationToken/remove': { shape: message },
  'POST /api/users/notificationTimings': { shape: obj({ message: str, notificationTimings: mealTimingsSchema, version: syncVersion }) },
  'POST /api/users/glucometerAlerts': { shape: obj({ message: str, glucometerAlerts: list(str), version: syncVersion }) },
  'POST /api/users/glucometerAlerts/remove': { shape: obj({ message: str, glucometerAlerts: list(str), version: syncVersion }) },
  'GET /api/push/config': { shape: row(pushConfigSchema) },
  'POST /api/users/medicines/remindLater': { shape: obj({ message: str, remindAt: iso }) },
  'GET /api/glucose': {
    shape: pullList({ fasting: list(row(glucoseReadingSchema)), postprandial: list(row(glucoseReadingSchema)), random: list(row(glucoseReadingSchema)) }),
  },
  // Each result is the answer of one write's own route (a 4xx one last); the fuzz checks the frame.
  'POST /api/batch': { shape: batchResponseSchema },
  'POST /api/glucose/add': { shape: written(row(glucoseReadingSchema)) },
  'POST /api/glucose/update': { shape: written(row(glucoseReadingSchema)) },
  'POST /api/glucose/delete': { shape: message },
  'GET /api/symptoms': { shape: pullList({ symptoms: list(row(symptomSchema)) }) },
  'GET /api/symptoms/list': { shape: obj({ symptoms: list(str) }) },
  'POST /api/symptoms/add': { shape: written(row(symptomSchema)) },
  'POST /api/symptoms/remove': { shape: message },
  'GET /api/appointments': { shape: pullList({ appointments: list(row(appointmentSchema)) }) },
  'POST /api/appointments/add': { shape: written(row(appointmentSchema)) },
  'POST /api/appointments/update': { shape: written(row(appointmentSchema)) },
  'POST /api/appointments/delete': { shape: message },
  'GET /api/tests': { shape: pullList({ tests: list(row(labTestSchema)) }) },
  'GET /api/tests/list': { shape: obj({ tests: list(labTestReferenceSchema) }) },
  'POST /api/tests/add': { shape: written(row(labTestSchema)) },
  'POST /api/tests/update': { shape: written(row(labTestSchema)) },
  'POST /api/tests/delete': { shape: message },
  'GET /api/users/medicines': { shape: pullList({ medicines: list(row(medicineSchema)) }) },
  'POST /api/user/medicines/taken': { shape: written(row(medicineIntakeSchema)) },
  'POST /api/user/medicines/taken/delete': { shape: message },
  'GET /api/user/medicines/taken': { shape: pullList({ taken: list(row(medicineIntakeSchema)) }) },
  'POST /api/users/report': { shape: { contentType: 'application/pdf', startsWith: '%PDF-' } },
  'POST /api/admin/report': { shape: { contentType: 'application/pdf', startsWith: '%PDF-' } },
  'POST /api/admin/report/fhir': { shape: { contentType: 'application/fhir+json' } },
  'GET /api/c15t/init': { shape: row(consentInitSchema) },
  'POST /api/c15t/subjects': { shape: row(subjectConsentResponseSchema) },
  'GET /api/c15t/show-consent-banner': { shape: row(showConsentBannerSchema) },
  'POST /api/c15t/consent/set': { shape: row(consentSetResponseSchema) },
  'POST /api/c15t/consent/verify': { shape: row(consentVerifyResponseSchema) },
  'POST /api/admin/login': {
    shape: obj({ token, expiresAt: iso, admin: obj({ _id: uuid, email: str, name: str, role: { const: 'admin' }, hospitals: list(hospital) }) }),
  },
  'POST /api/admin/logout': { shape: message },
  'POST /api/admin/verifyToken': {
    shape: obj({ message: str, doctor: obj({ name: str, role: { const: 'doctor' }, expiresAt: iso, hospitals: list(hospital) }) }),
  },
  'GET /api/admin/users': {
    shape: obj({ users: list(patient), total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, pages: { type: 'integer' } }),
  },
  'GET /api/admin/hospitals': { shape: obj({ hospitals: list(hospital) }) },
  'POST /api/admin/hospitals': { shape: obj({ data: hospital }) },
  'PATCH /api/admin/hospitals/:id': { shape: obj({ data: hospital }) },
  'POST /api/admin/patients': { shape: obj({ data: patient }) },
  'GET /api/admin/patients/:hospNo': { shape: obj({ patient }) },
  'PATCH /api/admin/patients/:hospNo': { shape: obj({ data: patient }) },
  'POST /api/admin/patients/:hospNo/access-key': { shape: obj({ message: str, accessKey: str, expiresAt: iso }) },
  'POST /api/admin/patients/:hospNo/temporary-password': { shape: obj({ message: str, temporaryPassword: str }) },
  'GET /api/admin/patients/:hospNo/prescriptions': {
    shape: obj({ prescriptions: list({ ...row(medicineSchema), properties: { ...medicineSchema.properties, active: { type: 'boolean' } } }), taken: list(row(medicineIntakeSchema)) }),
  },
  'POST /api/admin/patients/:hospNo/prescriptions': { shape: obj({ data: row(medicineSchema) }) },
  'PATCH /api/admin/patients/:hospNo/prescriptions/:id': { shape: obj({ data: row(medicineSchema) }) },
  'POST /api/admin/patients/:hospNo/prescriptions/:id/end': { shape: obj({ data: row(medicineSchema) }) },
  'GET /api/admin/doctor-tokens': { shape: obj({ tokens: list(doctorToken) }) },
  'POST /api/admin/doctor-tokens': { shape: obj({ message: str, token, data: doctorToken }) },
  'POST /api/admin/doctor-tokens/:id/revoke': { shape: message },
  'GET /api/admin/audit': {
    shape: obj({
      entries: list(
        obj({ _id: uuid, at: iso, actorKind: { enum: ['admin', 'doctor'] }, actor: str, hospNo: { type: ['string', 'null'] }, action: str, ip: { type: ['string', 'null'] }, userAgent: { type: ['string', 'null'] } }),
      ),
    }),
  },
};

/**
 * A patient write answered from its mutation id's record (header X-Mutation-Repeat: 1) is the first
 * answer given to that id, whichever route it came from (docs/sync-protocol.md: "a repeat … is
 * answered with the first answer (same status and body)"). Such an answer must be the 2xx answer of
 * one of the patient write routes; which one the fuzz cannot know.
 */
const PATIENT_WRITES = Object.keys(CONTRACTS).filter((k) => /^POST \/api\/(glucose|symptoms|appointments|tests|users?)\//.test(k) && !k.includes('report'));

/** Fields that must never leave the server, in any answer. */
export const SECRET_FIELDS = ['passwordHash', 'password_hash', 'keyHash', 'key_hash', 'tokenHash', 'token_hash', 'otpHash', 'codeHash', 'salt', 'vapidPrivateKey', 'privateKey'];

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

/** Which requests a guarded route must refuse (spec §6 roles and permissions). */
function accessRule(routeKey: string, auth: Auth, guarded: boolean): string | undefined {
  if (!guarded) return undefined;
  if (auth === 'none' || auth === 'bogus') return 'a guarded route answered 2xx without a valid token';
  const [method, path = ''] = routeKey.split(' ');
  const staffArea = path.startsWith('/api/admin/') && !['/api/admin/login', '/api/admin/logout', '/api/admin/verifyToken'].includes(path);
  if (staffArea && (auth === 'patient' || auth === 'patient2')) return 'a patient token reached the staff area';
  const staffRead = method === 'GET' || path === '/api/admin/report' || path === '/api/admin/report/fhir' || path === '/api/users/report';
  if (auth === 'doctor' && !staffRead) return 'a doctor token made a change (doctors have read-only access)';
  if ((auth === 'admin' || auth === 'doctor') && !staffArea && !staffRead) return 'a staff token wrote through a patient endpoint (staff read patient records only)';
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
  const contract = CONTRACTS[routeKey];
  if (!contract) {
    violations.push('no contract for this route in tests/fuzz/contracts.ts: add its line');
    return { serverError: false, violations };
  }
  if ('contentType' in contract.shape) {
    const want = contract.shape;
    if (!contentType.startsWith(want.contentType)) violations.push(`2xx content-type ${contentType || 'none'}, expected ${want.contentType}`);
    if (want.startsWith && !text.startsWith(want.startsWith)) violations.push(`2xx body does not start with ${want.startsWith}`);
    if (want.contentType.endsWith('json') && !parsed) violations.push('2xx body is not JSON');
    return { serverError: false, violations };
  }
  if (!isJson || !parsed) {
    violations.push(`2xx answer is not JSON (content-type ${contentType || 'none'})`);
    return { serverError: false, violations };
  }
  if (header(a, 'x-mutation-repeat') === '1') {
    const ok = PATIENT_WRITES.some((k) => validator(k, CONTRACTS[k]!.shape as object)(json));
    if (!ok) violations.push('a repeated mutation answered with a body that is no patient write answer');
    return { serverError: false, violations };
  }
  const validate = validator(routeKey, contract.shape);
  if (!validate(json)) {
    const errs = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params['additionalProperty'])})` : ''}`);
    violations.push(`2xx answer breaks its declared shape: ${errs.join('; ')}`);
  }
  return { serverError: false, violations };
}
