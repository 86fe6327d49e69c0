// Payloads of the staff area's management endpoints (/api/admin/*), an extension of docs/requirements.md §7.
import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, hospNo, isoDateTime, text, uuid } from './common.ts';
import { CONSENSUS, DEFAULT_ADVICE_LEVELS, URGENT_HIGH_RANGE } from './judgement.ts';
import { mealTimingsPatchSchema, mealTimingsSchema } from './user-profile.ts';

/**
 * A reading below a hospital's level alerts its staff who turned alerts on (issue 18): the consensus
 * level-2 low by default, 40–70 mg/dL where the hospital's protocol says so (the database checks it too).
 */
export const SEVERE_LOW_LEVEL = { default: CONSENSUS.veryLow, min: 40, max: 70 } as const;

/**
 * From this level (mg/dL) a high reading's advice says to contact the care team now
 * (schemas/judgement.ts, adviceGrade): 400 by default, 300–500 as the hospital's protocol says.
 */
export const URGENT_HIGH_LEVEL = { default: DEFAULT_ADVICE_LEVELS.urgentHighMgDl, ...URGENT_HIGH_RANGE } as const;

/** The identifier system of a hospital that set none: its own id as a URN, unique and stable. */
export const defaultIdentifierSystem = (hospitalId: string): string => `urn:uuid:${hospitalId}`;

/** The forms an identifier system may take: urn:oid:…, urn:uuid:… or an http(s) address. */
export const IDENTIFIER_SYSTEM_PATTERN = '^(urn:(oid:[0-2](\\.(0|[1-9][0-9]*))+|uuid:[0-9a-fA-F-]{36})|https?://[^\\s]+)$';
export const IDENTIFIER_SYSTEM_MAX = 255;
/** The longest care contact a hospital may set (it is shown in the advice on a phone). */
export const CARE_CONTACT_MAX = 200;

const timeZone = { type: 'string', minLength: 1, maxLength: 64 } as const;

export const usersQuerySchema = {
  type: 'object',
  properties: {
    search: { type: 'string', maxLength: 100, default: '' },
    page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
    hospitalId: uuid,
  },
} as const;
export type UsersQuery = FromSchema<typeof usersQuerySchema>;

/** The worklist's reasons in the order of urgency it sorts by (the first is the most urgent); issue 18. */
export const WORKLIST_REASON_CODES = ['severe-low', 'low-time', 'no-data', 'low-tir', 'missed-doses', 'rising-mean', 'sparse-data'] as const;
/** The worklist's period staff may choose, in days, and the default (two weeks, as consensus reports use). */
export const WORKLIST_DAYS = { min: 7, max: 90, default: 14 } as const;

/** GET /api/admin/worklist (issue 18). */
export const worklistQuerySchema = {
  type: 'object',
  properties: {
    hospitalId: uuid,
    days: { type: 'integer', minimum: WORKLIST_DAYS.min, maximum: WORKLIST_DAYS.max, default: WORKLIST_DAYS.default },
    page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  required: ['hospitalId'],
} as const;
export type WorklistQuery = FromSchema<typeof worklistQuerySchema>;

/** A patient's review (issue 46): whole, or with `since` only what changed after that version. */
export const reviewQuerySchema = {
  type: 'object',
  properties: {
    since: {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description: 'the version of the review this device holds (up to 15 digits): only what changed after it',
    },
  },
} as const;

export const hospitalInputSchema = {
  type: 'object',
  properties: {
    name: text(120),
    timeZone,
    // A reading below this alerts the hospital's staff who turned alerts on (issue 18; 54 by default).
    severeLowMgDl: {
      type: 'number',
      minimum: SEVERE_LOW_LEVEL.min,
      maximum: SEVERE_LOW_LEVEL.max,
      description: 'the severe-low alert level in mg/dL, 40 to 70',
    },
    // The namespace of the hospital's numbers in exported records (FHIR Patient.identifier.system).
    identifierSystem: {
      anyOf: [{ type: 'string', maxLength: IDENTIFIER_SYSTEM_MAX, pattern: IDENTIFIER_SYSTEM_PATTERN }, { type: 'null' }],
      description: 'an absolute URI: urn:oid:…, urn:uuid:… or http(s)://…; null for the default',
    },
    urgentHighMgDl: {
      type: 'number',
      minimum: URGENT_HIGH_LEVEL.min,
      maximum: URGENT_HIGH_LEVEL.max,
      description: 'the level in mg/dL from which advice says to contact the care team now, 300 to 500',
    },
    careContact: {
      anyOf: [{ type: 'string', maxLength: CARE_CONTACT_MAX }, { type: 'null' }],
      description: 'how patients reach the care team, shown in the advice (at most 200 characters), or null for none',
    },
    requireStaffMfa: {
      type: 'boolean',
      description:
        "every admin of the hospital signs in with an authenticator app as well (set up at their next login); turning it on ends their sessions opened without one, but the caller's",
    },
  },
  required: ['name'],
} as const;
export type HospitalInput = FromSchema<typeof hospitalInputSchema>;

const patientFields = {
  name: text(120),
  gender: { type: ['string', 'null'], maxLength: 30 },
  age: { type: ['integer', 'null'], minimum: 0, maximum: 130 },
  address: { type: ['string', 'null'], maxLength: 300 },
  hospitalId: uuid,
  timeZone,
  notificationTimings: mealTimingsSchema,
  glucometerAlerts: { type: 'array', maxItems: 31, items: { type: 'string', maxLength: 10 } },
  /** The older name of glucometerAlerts, still found in exported profiles. */
  glucometerReadingAlerts: { type: 'array', maxItems: 31, items: { type: 'string', maxLength: 10 } },
} as const;

export const patientCreateSchema = {
  type: 'object',
  properties: { hospNo, ...patientFields },
  required: ['hospNo', 'name', 'hospitalId'],
} as const;
export type PatientCreate = FromSchema<typeof patientCreateSchema>;

/**
 * Staff editing a patient. The meal times sent are merged into the patient's, one by one: a meal
 * time left out (or sent unchanged) keeps its value and its version, so a patient's own queued edit
 * of another meal time is not reported as a conflict. With `baseVersion` (the patient's `version`
 * when the form was opened), a meal time the patient changed since to another value is refused
 * with 409 instead of being put back.
 */
export const patientPatchSchema = {
  type: 'object',
  properties: { ...patientFields, notificationTimings: mealTimingsPatchSchema, baseVersion },
  minProperties: 1,
} as const;
export type PatientPatch = FromSchema<typeof patientPatchSchema>;

export const accessKeyInputSchema = {
  type: 'object',
  properties: { expiresInDays: { type: 'integer', minimum: 1, maximum: 365 } },
} as const;

export const doctorTokenInputSchema = {
  type: 'object',
  properties: {
    doctorName: text(120),
    hospitalIds: { type: 'array', minItems: 1, maxItems: 50, items: uuid },
    expiresAt: isoDateTime,
  },
  required: ['doctorName', 'hospitalIds', 'expiresAt'],
} as const;
export type DoctorTokenInput = FromSchema<typeof doctorTokenInputSchema>;

export const auditQuerySchema = {
  type: 'object',
  properties: {
    hospNo,
    before: isoDateTime,
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
  },
} as const;
export type AuditQuery = FromSchema<typeof auditQuerySchema>;

export const hospNoParams = {
  type: 'object',
  properties: { hospNo },
  required: ['hospNo'],
} as const;

export const idParams = {
  type: 'object',
  properties: { id: uuid },
  required: ['id'],
} as const;
