// Cookie consent (spec §3 consent record and banner info, §7 consent client): the payloads of the
// three endpoints the c15t 1.x client calls in remote mode, under /api/c15t. Field names are the
// client's (its `SetConsentRequestBody`, `VerifyConsentRequestBody` and response types), so an
// unmodified c15t client talks to this server.
import type { FromSchema } from 'json-schema-to-ts';
import { isoDateTime, uuid } from './common.ts';

/** The consent kinds a c15t client may send; the banner sends `cookie_banner` (spec §3 default). */
export const CONSENT_TYPES = ['cookie_banner', 'privacy_policy', 'dpa', 'terms_and_conditions', 'marketing_communications', 'age_verification', 'other'] as const;

/** c15t's jurisdiction codes (its `JurisdictionCodeSchema`). */
export const JURISDICTION_CODES = ['GDPR', 'CH', 'BR', 'PIPEDA', 'AU', 'APPI', 'PIPA', 'NONE'] as const;

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

/** `POST /api/c15t/consent/set`. Unknown fields (e.g. externalSubjectId) are dropped, not stored. */
export const consentSetSchema = {
  $id: 'ConsentSet',
  type: 'object',
  properties: {
    type: consentType,
    domain,
    preferences: consentPreferences,
    // c15t adds { source: 'consent_widget', acceptanceMethod: 'all' | 'necessary' | 'custom' }.
    metadata: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 200 },
      maxProperties: 10,
    },
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
 * `POST /api/c15t/consent/verify`: is there a consent of this type on this domain, from this device
 * (the record `subjectId` names, as /consent/set returned its id, or else the caller's address),
 * granting every purpose in `preferences` (c15t sends a list of purposes; a map of purpose → true
 * is accepted too)?
 */
export const consentVerifySchema = {
  $id: 'ConsentVerify',
  type: 'object',
  properties: {
    type: consentType,
    domain,
    preferences: {
      oneOf: [
        { type: 'array', items: purposeName, maxItems: 20 },
        consentPreferences,
      ],
    },
    subjectId: uuid,
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
 * `GET /api/c15t/show-consent-banner` (spec §3 banner info). `translations` and `branding` are what
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
