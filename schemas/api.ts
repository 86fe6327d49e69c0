// The API's answers as JSON Schemas: each route declares its success shape and the refusal shape
// from here (server/routes/*). One declaration serves four ends:
//   - Fastify serializes an answer object through it, so a field not listed never reaches a client
//     by accident (the record lists, sent as JSON text the database wrote, are filtered by the
//     database's JSON views instead, and checked against the same shapes below);
//   - @fastify/swagger publishes them in the OpenAPI document (/api/openapi.json, /api/docs);
//   - the server tests check every answer they get against its route's shape
//     (server/http/response-check.ts);
//   - the fuzz judges every 2xx by them (tests/fuzz/contracts.ts).
// Rows are the entity schemas of this folder, the device's own collection schemas
// (sync/storage/collections.ts): a row they refuse is a row the device cannot store.
import type { FromSchema } from 'json-schema-to-ts';
import { WORKLIST_REASON_CODES } from './admin.ts';
import { appointmentSchema } from './appointment.ts';
import { batchResponseSchema } from './batch.ts';
import { deletedIds, messageResponse, syncVersion, uuid } from './common.ts';
import { glucoseReadingSchema } from './glucose.ts';
import { labTestReferenceSchema, labTestSchema } from './lab-test.ts';
import { medicineIntakeSchema, medicineSchema } from './medicine.ts';
import { pushConfigSchema } from './push.ts';
import { symptomSchema } from './symptom.ts';
import { mealTimingsSchema, userProfileSchema } from './user-profile.ts';

type Schema = Readonly<Record<string, unknown>>;

/** The type of an answer whose shape is the schema `S` of this file (what the server's serializer lets through). */
export type Answer<S> = FromSchema<S & object>;

const iso = { type: 'string', format: 'date-time' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const num = { type: 'number' } as const;
const nullableIso = { anyOf: [iso, { type: 'null' }] } as const;

/** An object with exactly these properties (all required unless `required` says otherwise). */
export function obj<const P extends Record<string, unknown>>(
  properties: P,
): { type: 'object'; properties: P; required: (keyof P & string)[]; additionalProperties: false };
export function obj<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[]>(
  properties: P,
  required: R,
): { type: 'object'; properties: P; required: R; additionalProperties: false };
export function obj(properties: Record<string, unknown>, required: readonly string[] = Object.keys(properties)) {
  return { type: 'object', properties, required, additionalProperties: false } as const;
}
export const list = <T>(items: T) => ({ type: 'array', items }) as const;

/** An entity schema as a row of an answer: without its `$id` (a registry name, not part of the shape). */
export function row<S extends Schema>(s: S): Omit<S, '$id'> {
  return Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$id')) as Omit<S, '$id'>;
}

/** An entity row with fields the server adds beside the device's own (always sent, so required). */
type RowWith<S extends { properties: object; required: readonly string[] }, E> = Omit<S, '$id' | 'properties' | 'required'> & {
  properties: S['properties'] & E;
  required: (S['required'][number] | (keyof E & string))[];
};
// TypeScript cannot relate a spread of a generic schema to the mapped type RowWith; the object is exactly that type.
const rowWith = <S extends Schema & { properties: object; required: readonly string[] }, const E extends Record<string, unknown>>(s: S, extra: E) =>
  // eslint-disable-next-line no-restricted-syntax -- the same object RowWith describes, built by spreading
  ({ ...row(s), properties: { ...s.properties, ...extra }, required: [...s.required, ...Object.keys(extra)] }) as unknown as RowWith<S, E>;

/**
 * Every refusal (4xx) and failure (5xx): `{message}`, written for people (docs/api.md, "Conventions"), plus,
 * for some refusals, fields a device acts on: a 409's `current` row (or null when it was deleted) and
 * the conflicting `fields`.
 */
export const apiError = {
  type: 'object',
  description: 'The reason, in words for the person using the app; some 409s add the current row and the fields in conflict.',
  properties: {
    message: { type: 'string', minLength: 1 },
    current: { description: 'a 409: the row as the server holds it now (null when it was deleted)' },
    fields: { type: 'array', items: str, description: 'a 409: the fields that changed meanwhile' },
    code: { type: 'string', description: 'a 409 a device acts on by name, e.g. dose-already-recorded' },
  },
  required: ['message'],
  additionalProperties: true,
} as const;

export const message = messageResponse;
export const token = { type: 'string', pattern: '^[A-Za-z0-9._~+/=-]{16,512}$' } as const;
/** `{message, data}`: a write's answer with the row as stored. */
export const written = <T>(data: T) => obj({ message: str, data });
/** A list GET: its array key(s), plus `deleted`, `checkpoint` and `next` of a `?since=` pull (docs/sync-protocol.md). */
export const pullList = <const K extends Record<string, unknown>>(keys: K) =>
  ({ ...obj({ ...keys, deleted: deletedIds, checkpoint: syncVersion, next: syncVersion }), required: Object.keys(keys) as (keyof K & string)[] }) as const;

export const glucoseList = pullList({
  fasting: list(row(glucoseReadingSchema)),
  postprandial: list(row(glucoseReadingSchema)),
  random: list(row(glucoseReadingSchema)),
});
export const symptomList = pullList({ symptoms: list(row(symptomSchema)) });
export const appointmentList = pullList({ appointments: list(row(appointmentSchema)) });
export const labTestList = pullList({ tests: list(row(labTestSchema)) });
export const medicineList = pullList({ medicines: list(row(medicineSchema)) });
export const intakeList = pullList({ taken: list(row(medicineIntakeSchema)) });

export const glucoseWritten = written(row(glucoseReadingSchema));
export const symptomWritten = written(row(symptomSchema));
export const appointmentWritten = written(row(appointmentSchema));
export const labTestWritten = written(row(labTestSchema));
export const intakeWritten = written(row(medicineIntakeSchema));

export const health = obj({ status: { const: 'ok' }, db: { enum: ['pglite', 'postgres'] } });
export const readiness = {
  ...obj({ status: { enum: ['ready', 'not ready'] }, db: { enum: ['pglite', 'postgres'] }, database: str, migrations: str }),
  description: '200 when ready; 503 with what is missing (database unreachable, migrations not applied)',
} as const;

/** One icon in Iconify's JSON (docs/requirements.md §7 icon-data endpoint). */
const iconData = obj(
  {
    body: str,
    width: { type: 'number' },
    height: { type: 'number' },
    left: { type: 'number' },
    top: { type: 'number' },
    rotate: { type: 'integer' },
    hFlip: bool,
    vFlip: bool,
  },
  ['body'],
);
export const iconSet = obj(
  { prefix: str, icons: { type: 'object', additionalProperties: iconData }, width: { type: 'number' }, height: { type: 'number' }, not_found: list(str) },
  ['prefix', 'icons'],
);

export const patientLogin = obj({ token, expiresAt: iso });
export const passwordLogin = obj({ token, expiresAt: iso, mustChangePassword: bool }, ['token']);
export const validation = obj({ valid: bool, expiresAt: iso }, ['valid']);

/** The profile as the device holds it (UserProfile), plus `_id` and `lastSyncAt`, which the device leaves out when it stores it. */
export const profile = obj({ user: rowWith(userProfileSchema, { _id: uuid, lastSyncAt: nullableIso }) });
export const timingsSaved = obj({ message: str, notificationTimings: mealTimingsSchema, version: syncVersion });
export const alertDaysSaved = obj({ message: str, glucometerAlerts: list(str), version: syncVersion });
export const pushConfig = row(pushConfigSchema);
export const remindLater = obj({ message: str, remindAt: iso });
/** POST /api/sync/history: whether the server still holds what the device has seen, and the next mark. */
export const historyAnswer = obj({ known: bool, mark: uuid });
export const symptomNames = obj({ symptoms: list(str) });
export const labTestNames = obj({ tests: list(labTestReferenceSchema) });
export const batchAnswer = batchResponseSchema;

/**
 * What a write repeated under a mutation id already applied may answer (X-Mutation-Repeat: 1): the
 * first answer given to that id (docs/sync-protocol.md), whichever route gave it.
 */
export const REPEATABLE_ANSWERS = [
  glucoseWritten,
  symptomWritten,
  appointmentWritten,
  labTestWritten,
  intakeWritten,
  message,
  timingsSaved,
  alertDaysSaved,
  remindLater,
];

/** A hospital with its settings (server/services/dto.ts hospitalDto); `careContact` null when none is set. */
const hospital = obj({
  _id: uuid,
  name: str,
  timeZone: str,
  severeLowMgDl: num,
  identifierSystem: str,
  urgentHighMgDl: num,
  careContact: { type: ['string', 'null'] },
  requireStaffMfa: bool,
});
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
    hasPassword: bool,
    mustChangePassword: bool,
    version: syncVersion,
    lastSyncAt: nullableIso,
  },
  ['_id', 'hospNo', 'name', 'hospitalId', 'timeZone', 'notificationTimings', 'glucometerAlerts', 'version'],
);
const doctorToken = obj({ _id: uuid, doctorName: str, hospitalIds: list(uuid), expiresAt: iso, revokedAt: nullableIso, createdAt: iso });
const prescription = row(medicineSchema);

// recoveryCodes only when the login set the authenticator up (shown once); recoveryCodesLeft only
// when a recovery code signed in.
export const adminLogin = obj(
  {
    token,
    expiresAt: iso,
    admin: obj({ _id: uuid, email: str, name: str, role: { const: 'admin' }, hospitals: list(hospital), mfa: bool }),
    recoveryCodes: list(str),
    recoveryCodesLeft: { type: 'integer', minimum: 0 },
  },
  ['token', 'expiresAt', 'admin'],
);
/** The identity providers staff may sign in with (issue 48). */
export const oidcProviders = obj({ providers: list(obj({ id: str, name: str })) });
/** A staff session from a sign-in through the identity provider: an admin's or a doctor's. */
export const oidcSignIn = obj({
  token,
  expiresAt: iso,
  staff: obj({ role: { type: 'string', enum: ['admin', 'doctor'] }, name: str, email: str, hospitals: list(hospital) }, ['role', 'name', 'hospitals']),
});
export const adminMfaSetup = obj({ secret: str, uri: str, qrCode: str });
export const doctorVerified = obj({ message: str, doctor: obj({ name: str, role: { const: 'doctor' }, expiresAt: iso, hospitals: list(hospital) }) });
export const usersPage = obj({
  users: list(patient),
  total: { type: 'integer' },
  page: { type: 'integer' },
  limit: { type: 'integer' },
  pages: { type: 'integer' },
});
const reasonCode = { type: 'string', enum: WORKLIST_REASON_CODES } as const;
const nullableCount = { type: ['integer', 'null'] } as const;
/**
 * GET /api/admin/worklist (issue 18); the codes and figures are described in
 * server/services/worklist-service.ts, `priority` (why the patient stands where they do) in
 * server/services/worklist-priority.ts. The server always sends `priority`; it is optional here
 * because a page a staff device kept offline before it existed has none.
 */
export const worklistPage = obj({
  patients: list(
    obj(
      {
        hospNo: str,
        name: str,
        reasons: list(obj({ code: reasonCode, text: str, value: { type: ['number', 'null'] } })),
        priority: obj({
          rank: { type: 'integer', minimum: 1 },
          tier: { anyOf: [reasonCode, { type: 'null' }] },
          weight: num,
          count: nullableCount,
          outOf: nullableCount,
          summary: str,
        }),
        lastReadingAt: nullableIso,
        lastSyncAt: nullableIso,
      },
      ['hospNo', 'name', 'reasons', 'lastReadingAt', 'lastSyncAt'],
    ),
  ),
  days: { type: 'integer' },
  computedAt: iso,
  total: { type: 'integer' },
  page: { type: 'integer' },
  limit: { type: 'integer' },
  pages: { type: 'integer' },
});
export const hospitals = obj({ hospitals: list(hospital) });
export const hospitalWritten = obj({ data: hospital });
export const patientWritten = obj({ data: patient });
export const patientRead = obj({ patient });
export const accessKeyIssued = obj({ message: str, accessKey: str, expiresAt: iso });
export const temporaryPassword = obj({ message: str, temporaryPassword: str });
export const prescriptions = obj({ prescriptions: list(rowWith(medicineSchema, { active: bool })), taken: list(row(medicineIntakeSchema)) });
export const prescriptionWritten = obj({ data: prescription });
/**
 * One patient's review read in one snapshot (issue 46): `version` is the patient's version it
 * reflects; `full` says the lists are whole (no `since`, or one this database never gave), otherwise
 * they hold only the changes after `since` with their deleted ids.
 */
export const patientReview = obj({
  hospNo: str,
  version: syncVersion,
  asOf: iso,
  full: bool,
  profile: profile.properties.user,
  patient,
  prescriptions: prescriptions.properties.prescriptions,
  glucose: glucoseList,
  symptoms: symptomList,
  tests: labTestList,
  appointments: appointmentList,
  doses: intakeList,
});
export const doctorTokens = obj({ tokens: list(doctorToken) });
export const doctorTokenCreated = obj({ message: str, token, data: doctorToken });
export const auditEntries = obj({
  entries: list(
    obj({
      _id: uuid,
      at: iso,
      actorKind: { enum: ['admin', 'doctor'] },
      actor: str,
      hospNo: { type: ['string', 'null'] },
      action: str,
      ip: { type: ['string', 'null'] },
      userAgent: { type: ['string', 'null'] },
    }),
  ),
});

/** A route's answers: its success shape under its status(es), `apiError` for every refusal and failure. */
export function answers<T extends Schema>(ok: T, ...statuses: (200 | 201)[]) {
  const codes = statuses.length > 0 ? statuses : [200];
  const said = (c: number) => ({ description: c === 201 ? 'Created' : 'Done', ...ok });
  // Typed as a 200 for Fastify's type provider, which types a handler's reply from its success
  // answer: a 201 route's answer has the same shape under its own status.
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the statuses are computed; the shape of each is T
  return { ...Object.fromEntries(codes.map((c) => [c, said(c)])), '4xx': apiError, '5xx': apiError } as {
    200: T;
    '4xx': typeof apiError;
    '5xx': typeof apiError;
  };
}

/** A file answer (reports): a body of `contentType`, not JSON. */
/** A stream of server-sent events (routes/changes.ts): its answer is never JSON. */
export function eventStreamAnswers(description: string) {
  return {
    200: { description, content: { 'text/event-stream': { schema: { type: 'string' } } } },
    '4xx': apiError,
    '5xx': apiError,
  } as const;
}

export function fileAnswers(contentType: string, description: string) {
  return {
    200: { description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } },
    '4xx': apiError,
    '5xx': apiError,
  } as const;
}
