// Cookie consent (docs/requirements.md §3 consent record and banner info, §7 consent client): the payloads of the
// endpoints under /api/c15t. The app's c15t 2.x client calls GET /init and POST /subjects in remote
// mode (its `InitOutput` and `PostSubjectInput`/`PostSubjectOutput`); c15t 1.x called
// GET /show-consent-banner and POST /consent/set, which stay for an installed app still running a
// 1.x build until its service worker updates it; POST /consent/verify is this server's own question.
// Field names are the clients', so unmodified c15t clients talk to this server.
import type { FromSchema } from 'json-schema-to-ts';
import { isoDateTime, uuid } from './common.ts';

/** The consent kinds a c15t client may send; the banner sends `cookie_banner` (docs/requirements.md §3 default). */
export const CONSENT_TYPES = [
  'cookie_banner',
  'privacy_policy',
  'dpa',
  'terms_and_conditions',
  'marketing_communications',
  'age_verification',
  'other',
] as const;

/** The jurisdiction codes this server answers (c15t 1.x's `JurisdictionCodeSchema`; all are c15t 2.x codes too). */
export const JURISDICTION_CODES = ['GDPR', 'CH', 'BR', 'PIPEDA', 'AU', 'APPI', 'PIPA', 'NONE'] as const;

/** c15t 2.x's client-made subject id (its `subjectIdSchema`): sub_ and base58. */
export const subjectId = {
  type: 'string',
  pattern: '^sub_[1-9A-HJ-NP-Za-km-z]+$',
  maxLength: 64,
  description: 'the id c15t 2.x makes on the device for the person choosing (for example sub_2jv6z8n4q9)',
} as const;

const consentType = { type: 'string', enum: CONSENT_TYPES } as const;
const purposeName = {
  type: 'string',
  minLength: 1,
  maxLength: 40,
  pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
  description: 'a purpose name such as necessary, analytics or measurement',
} as const;
const domain = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9.:\\[\\]-]+$',
  description: 'the host name the consent was given on (for example eddy.hospital.example)',
} as const;

/** Purpose → granted. The banner sends c15t's purposes (necessary, measurement, functionality, …). */
export const consentPreferences = {
  type: 'object',
  propertyNames: purposeName,
  additionalProperties: { type: 'boolean' },
  maxProperties: 20,
} as const;

const consentMetadata = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 200 },
  maxProperties: 10,
} as const;

/** `POST /api/c15t/consent/set` (c15t 1.x). Unknown fields (e.g. externalSubjectId) are dropped, not stored. */
export const consentSetSchema = {
  $id: 'ConsentSet',
  type: 'object',
  properties: {
    type: consentType,
    domain,
    preferences: consentPreferences,
    // c15t adds { source: 'consent_widget', acceptanceMethod: 'all' | 'necessary' | 'custom' }.
    metadata: consentMetadata,
  },
  required: ['type', 'domain', 'preferences'],
  additionalProperties: false,
} as const;
export type ConsentSet = FromSchema<typeof consentSetSchema>;

/** What the c15t client keeps of the answer is `id` (stored as consentInfo.id); the rest is its type. */
export const consentSetResponseSchema = {
  $id: 'ConsentSetResponse',
  type: 'object',
  properties: {
    id: uuid,
    type: consentType,
    domain: { type: 'string' },
    /** There is no table of domains: the host name is its own id. */
    domainId: { type: 'string' },
    /** The stored record: one per consent given, so the same as `id`. */
    recordId: uuid,
    status: { const: 'active' },
    preferences: consentPreferences,
    givenAt: isoDateTime,
  },
  required: ['id', 'type', 'domain', 'domainId', 'recordId', 'status', 'preferences', 'givenAt'],
  additionalProperties: false,
} as const;
export type ConsentSetResponse = FromSchema<typeof consentSetResponseSchema>;

/**
 * `POST /api/c15t/subjects` (c15t 2.x `PostSubjectInput`): one consent given by the subject the
 * device made up. `givenAt` is when the person chose (a save queued while the server was down
 * arrives later; a time in the future counts as now). Kept besides type, domain and preferences:
 * how it was given (`uiSource`, `consentAction`), the jurisdiction and model the client applied, and
 * the metadata a save queued by c15t 1.x carries. Unknown fields (externalSubjectId,
 * policySnapshotToken, …) are dropped, not stored.
 */
export const subjectConsentSchema = {
  $id: 'SubjectConsent',
  type: 'object',
  properties: {
    subjectId,
    type: consentType,
    domain,
    preferences: consentPreferences,
    givenAt: { type: 'integer', minimum: 1_577_836_800_000, maximum: 8_640_000_000_000_000, description: 'epoch milliseconds' },
    uiSource: { type: 'string', minLength: 1, maxLength: 40 },
    consentAction: { type: 'string', enum: ['all', 'necessary', 'custom'] },
    jurisdiction: { type: 'string', pattern: '^[A-Z0-9_]{1,20}$' },
    jurisdictionModel: { type: 'string', enum: ['opt-in', 'opt-out', 'iab', 'none'] },
    metadata: consentMetadata,
  },
  required: ['subjectId', 'type', 'domain', 'preferences'],
  additionalProperties: false,
} as const;
export type SubjectConsent = FromSchema<typeof subjectConsentSchema>;

/** c15t 2.x's `PostSubjectOutput`; the client keeps nothing of it (the device made the subject id). */
export const subjectConsentResponseSchema = {
  $id: 'SubjectConsentResponse',
  type: 'object',
  properties: {
    subjectId,
    /** The stored record. */
    consentId: uuid,
    /** There is no table of domains: the host name is its own id. */
    domainId: { type: 'string' },
    domain: { type: 'string' },
    type: consentType,
    appliedPreferences: consentPreferences,
    uiSource: { type: 'string' },
    givenAt: isoDateTime,
  },
  required: ['subjectId', 'consentId', 'domainId', 'domain', 'type', 'appliedPreferences', 'givenAt'],
  additionalProperties: false,
} as const;
export type SubjectConsentResponse = FromSchema<typeof subjectConsentResponseSchema>;

/**
 * `POST /api/c15t/consent/verify`: is there a consent of this type on this domain, from this device
 * (`subjectId`: the subject c15t 2.x made, or a record id /consent/set returned to c15t 1.x; else
 * the caller's address), granting every purpose in `preferences` (a list of purposes; a map of
 * purpose → true is accepted too)?
 */
export const consentVerifySchema = {
  $id: 'ConsentVerify',
  type: 'object',
  properties: {
    type: consentType,
    domain,
    preferences: {
      oneOf: [{ type: 'array', items: purposeName, maxItems: 20 }, consentPreferences],
    },
    subjectId: { anyOf: [uuid, subjectId] },
  },
  required: ['type', 'domain'],
  additionalProperties: false,
} as const;
export type ConsentVerify = FromSchema<typeof consentVerifySchema>;

export const consentVerifyResponseSchema = {
  $id: 'ConsentVerifyResponse',
  type: 'object',
  properties: {
    isValid: { type: 'boolean' },
    reasons: { type: 'array', items: { type: 'string' } },
    consent: {
      type: 'object',
      properties: { id: uuid, purposeIds: { type: 'array', items: { type: 'string' } }, givenAt: isoDateTime },
      required: ['id', 'purposeIds', 'givenAt'],
      additionalProperties: false,
    },
  },
  required: ['isValid'],
  additionalProperties: false,
} as const;
export type ConsentVerifyResponse = FromSchema<typeof consentVerifyResponseSchema>;

/**
 * `GET /api/c15t/show-consent-banner` (docs/requirements.md §3 banner info). `translations` and `branding` are what
 * the c15t 1.x store reads besides the spec's three fields: it takes `translations.language` without
 * a check, so an answer without them would stop the banner. The app words the banner itself (Lingui),
 * so the translations are left empty and c15t keeps its English defaults.
 */
export const showConsentBannerSchema = {
  $id: 'ShowConsentBanner',
  type: 'object',
  properties: {
    showConsentBanner: { type: 'boolean' },
    jurisdiction: {
      type: 'object',
      properties: { code: { type: 'string', enum: JURISDICTION_CODES }, message: { type: 'string' } },
      required: ['code', 'message'],
      additionalProperties: false,
    },
    location: {
      type: 'object',
      properties: { countryCode: { type: ['string', 'null'] }, regionCode: { type: ['string', 'null'] } },
      required: ['countryCode', 'regionCode'],
      additionalProperties: false,
    },
    translations: {
      type: 'object',
      properties: { language: { type: 'string' }, translations: { type: 'object', additionalProperties: false } },
      required: ['language', 'translations'],
      additionalProperties: false,
    },
    branding: { const: 'none' },
  },
  required: ['showConsentBanner', 'jurisdiction', 'location', 'translations', 'branding'],
  additionalProperties: false,
} as const;
export type ShowConsentBanner = FromSchema<typeof showConsentBannerSchema>;

const emptyObject = { type: 'object', additionalProperties: false } as const;
const policyAction = { type: 'string', enum: ['accept', 'reject', 'customize'] } as const;
const policySurface = {
  type: 'object',
  properties: {
    allowedActions: { type: 'array', items: policyAction },
    layout: { type: 'array', items: { anyOf: [policyAction, { type: 'array', items: policyAction }] } },
    direction: { type: 'string', enum: ['row', 'column'] },
    primaryActions: { type: 'array', items: policyAction },
    uiProfile: { type: 'string', enum: ['balanced', 'compact', 'strict'] },
  },
  required: ['allowedActions', 'layout', 'direction', 'primaryActions', 'uiProfile'],
  additionalProperties: false,
} as const;

/**
 * `GET /api/c15t/init` (c15t 2.x `InitOutput`; docs/requirements.md §3 banner info: the jurisdiction and the location,
 * and the banner decision as a policy, OPT_IN_BANNER_POLICY). The app words the banner itself (Lingui), so the
 * translations are left empty and c15t keeps its English defaults.
 */
export const consentInitSchema = {
  $id: 'ConsentInit',
  type: 'object',
  properties: {
    jurisdiction: { type: 'string', enum: JURISDICTION_CODES },
    location: {
      type: 'object',
      properties: { countryCode: { type: ['string', 'null'] }, regionCode: { type: ['string', 'null'] } },
      required: ['countryCode', 'regionCode'],
      additionalProperties: false,
    },
    translations: {
      type: 'object',
      properties: {
        language: { type: 'string' },
        translations: {
          type: 'object',
          properties: { common: emptyObject, cookieBanner: emptyObject, consentManagerDialog: emptyObject, consentTypes: emptyObject },
          required: ['common', 'cookieBanner', 'consentManagerDialog', 'consentTypes'],
          additionalProperties: false,
        },
      },
      required: ['language', 'translations'],
      additionalProperties: false,
    },
    branding: { const: 'none' },
    policy: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        model: { const: 'opt-in' },
        consent: { type: 'object', properties: { expiryDays: { type: 'integer' } }, required: ['expiryDays'], additionalProperties: false },
        ui: {
          type: 'object',
          properties: { mode: { const: 'banner' }, banner: policySurface, dialog: policySurface },
          required: ['mode', 'banner', 'dialog'],
          additionalProperties: false,
        },
      },
      required: ['id', 'model', 'consent', 'ui'],
      additionalProperties: false,
    },
  },
  required: ['jurisdiction', 'location', 'translations', 'branding', 'policy'],
  additionalProperties: false,
} as const;
export type ConsentInit = FromSchema<typeof consentInitSchema>;

/**
 * The policy every answer of `GET /api/c15t/init` carries: opt-in, the banner shown while nothing is
 * saved. Without a policy c15t 2.x would decide from the jurisdiction alone, and grant every purpose
 * by itself where there is none (NONE) or where the law is opt-out (AU, PIPEDA). Its consent-relevant
 * fields (model, consent, ui) are those of c15t's own offline policy (`offline_opt_in_banner`), which
 * the client also applies in offline mode and when this server cannot be reached: c15t asks again when
 * a saved choice was made under a materially different policy, so the two must stay the same
 * (src/features/consent/consent-config.dom.test.ts checks it against the installed c15t).
 */
export const OPT_IN_BANNER_POLICY: ConsentInit['policy'] = {
  id: 'eddy_opt_in_banner',
  model: 'opt-in',
  consent: { expiryDays: 365 },
  ui: {
    mode: 'banner',
    banner: {
      allowedActions: ['accept', 'reject', 'customize'],
      layout: [['reject', 'accept'], 'customize'],
      direction: 'row',
      primaryActions: ['customize'],
      uiProfile: 'compact',
    },
    dialog: {
      allowedActions: ['accept', 'reject', 'customize'],
      layout: [['reject', 'accept'], 'customize'],
      direction: 'row',
      primaryActions: ['customize'],
      uiProfile: 'compact',
    },
  },
};
