// Cookie consent in remote mode (docs/requirements.md §3, §7): the banner decision, proof of consent, verification.
// Consent is given before anyone logs in, so nothing here knows a patient; a device is told apart
// only by the subject id c15t 2.x made on it, the record id c15t 1.x was given, or an HMAC of its
// address.
import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { consentRepo, type ConsentRow } from '../repositories/consents.ts';
import { settingsRepo } from '../repositories/settings.ts';
import {
  OPT_IN_BANNER_POLICY,
  type ConsentInit,
  type ConsentSet,
  type ConsentSetResponse,
  type ConsentVerify,
  type ConsentVerifyResponse,
  type ShowConsentBanner,
  type SubjectConsent,
  type SubjectConsentResponse,
} from '../../schemas/consent.ts';

type Jurisdiction = ShowConsentBanner['jurisdiction'];
type Headers = Record<string, string | string[] | undefined>;

// The regions c15t's own backend names (its jurisdiction codes and messages), by ISO country code.
const EU_EEA_UK = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS NO LI GB'.split(' ');
const JURISDICTIONS: Record<string, Jurisdiction> = {
  ...Object.fromEntries(EU_EEA_UK.map((c) => [c, { code: 'GDPR', message: 'GDPR or equivalent regulations require a cookie banner.' }])),
  CH: { code: 'CH', message: 'Switzerland requires similar data protection measures.' },
  BR: { code: 'BR', message: "Brazil's LGPD requires consent for cookies." },
  CA: { code: 'PIPEDA', message: 'PIPEDA requires consent for data collection.' },
  AU: { code: 'AU', message: "Australia's Privacy Act mandates transparency about data collection." },
  JP: { code: 'APPI', message: "Japan's APPI requires consent for data collection." },
  KR: { code: 'PIPA', message: "South Korea's PIPA requires consent for data collection." },
};

// Country and region as a CDN or proxy in front of the server reports them (the headers c15t's
// backend reads). There is no geo database: without these headers the location is unknown.
const COUNTRY_HEADERS = ['x-c15t-country', 'cf-ipcountry', 'x-vercel-ip-country', 'x-amz-cf-ipcountry', 'x-country-code'];
const REGION_HEADERS = ['x-c15t-region', 'x-vercel-ip-country-region', 'x-region-code'];
const COUNTRY = /^[A-Z]{2}$/;
const REGION = /^[A-Z0-9]{1,3}$/;

function firstHeader(headers: Headers, names: string[], shape: RegExp): string | null {
  for (const name of names) {
    const raw = headers[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
    // Cloudflare answers XX for "unknown" and T1 for Tor: neither is a place.
    if (value && shape.test(value) && value !== 'XX' && value !== 'T1') return value;
  }
  return null;
}

function locate(headers: Headers): { jurisdiction: Jurisdiction; location: ShowConsentBanner['location'] } {
  const countryCode = firstHeader(headers, COUNTRY_HEADERS, COUNTRY);
  const regionCode = countryCode ? firstHeader(headers, REGION_HEADERS, REGION) : null;
  const jurisdiction: Jurisdiction = countryCode
    ? (JURISDICTIONS[countryCode] ?? { code: 'NONE', message: 'No specific requirements' })
    : { code: 'NONE', message: 'Location unknown: consent is asked everywhere' };
  return { jurisdiction, location: { countryCode, regionCode } };
}

/**
 * c15t 1.x: the banner shows wherever the device has no saved consent (docs/requirements.md §4): the location only
 * informs. It is never "no banner", which would make the c15t client grant every purpose by itself.
 */
export function bannerInfo(headers: Headers): ShowConsentBanner {
  const { jurisdiction, location } = locate(headers);
  return { showConsentBanner: true, jurisdiction, location, translations: { language: 'en', translations: {} }, branding: 'none' };
}

/**
 * c15t 2.x: the same decision, as its policy (opt-in, the banner while nothing is saved) beside the
 * jurisdiction code and the location, which only inform.
 */
export function consentInit(headers: Headers): ConsentInit {
  const { jurisdiction, location } = locate(headers);
  return {
    jurisdiction: jurisdiction.code,
    location,
    translations: { language: 'en', translations: { common: {}, cookieBanner: {}, consentManagerDialog: {}, consentTypes: {} } },
    branding: 'none',
    policy: structuredClone(OPT_IN_BANNER_POLICY),
  };
}

const ADDRESS_KEY_SETTING = 'consentAddressKey';
const addressKeys = new WeakMap<Db, Promise<Buffer>>();

/** A random key made once per database and shared by every instance (first writer wins). */
function addressKey(db: Db): Promise<Buffer> {
  let key = addressKeys.get(db);
  if (!key) {
    key = (async () => {
      await settingsRepo.setIfAbsent(db, ADDRESS_KEY_SETTING, randomBytes(32).toString('base64url'));
      const stored = await settingsRepo.get<string>(db, ADDRESS_KEY_SETTING);
      if (!stored) throw new Error('the consent address key could not be stored');
      return Buffer.from(stored, 'base64url');
    })();
    key.catch(() => addressKeys.delete(db));
    addressKeys.set(db, key);
  }
  return key;
}

/**
 * An IPv4 address has only 2^32 values, so a plain hash of it could be reversed by trying them all;
 * an HMAC under a key kept in the database cannot, without that key.
 */
export async function hashAddress(db: Db, address: string): Promise<string> {
  return createHmac('sha256', await addressKey(db))
    .update(address)
    .digest('hex');
}

export async function recordConsent(ctx: AppContext, body: ConsentSet, request: { address: string; requestId: string }): Promise<ConsentSetResponse> {
  const row = await consentRepo.insert(ctx.db, {
    type: body.type,
    domain: body.domain.toLowerCase(),
    preferences: body.preferences,
    metadata: body.metadata ?? null,
    requestId: request.requestId,
    addressHash: await hashAddress(ctx.db, request.address),
  });
  return {
    id: row.id,
    type: body.type,
    domain: row.domain,
    domainId: row.domain,
    recordId: row.id,
    status: 'active',
    preferences: row.preferences,
    givenAt: row.givenAt.toISOString(),
  };
}

/**
 * c15t 2.x's `POST /subjects`: one consent given by the subject the device made. `givenAt` is the
 * client's (a queued save arrives after the choice), never later than now; without it, now.
 */
export async function recordSubjectConsent(
  ctx: AppContext,
  body: SubjectConsent,
  request: { address: string; requestId: string; now?: number },
): Promise<SubjectConsentResponse> {
  const now = request.now ?? Date.now();
  const how = Object.entries({
    uiSource: body.uiSource,
    consentAction: body.consentAction,
    jurisdiction: body.jurisdiction,
    jurisdictionModel: body.jurisdictionModel,
  }).filter((e): e is [string, string] => e[1] !== undefined);
  const metadata = { ...body.metadata, ...Object.fromEntries(how) };
  const row = await consentRepo.insert(ctx.db, {
    type: body.type,
    domain: body.domain.toLowerCase(),
    preferences: body.preferences,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    givenAt: new Date(Math.min(body.givenAt ?? now, now)),
    requestId: request.requestId,
    addressHash: await hashAddress(ctx.db, request.address),
    subjectId: body.subjectId,
  });
  return {
    subjectId: body.subjectId,
    consentId: row.id,
    domainId: row.domain,
    domain: row.domain,
    type: body.type,
    appliedPreferences: row.preferences,
    ...(body.uiSource !== undefined ? { uiSource: body.uiSource } : {}),
    givenAt: row.givenAt.toISOString(),
  };
}

export async function verifyConsent(ctx: AppContext, body: ConsentVerify, address: string): Promise<ConsentVerifyResponse> {
  const where = { type: body.type, domain: body.domain.toLowerCase() };
  const row: ConsentRow | undefined = body.subjectId
    ? await consentRepo.latest(ctx.db, body.subjectId.startsWith('sub_') ? { ...where, subjectId: body.subjectId } : { ...where, id: body.subjectId })
    : await consentRepo.latest(ctx.db, { ...where, addressHash: await hashAddress(ctx.db, address) });
  if (!row) return { isValid: false, reasons: [`No ${body.type} consent found for ${where.domain} from this device`] };
  const required = Array.isArray(body.preferences)
    ? body.preferences
    : Object.entries(body.preferences ?? {}).flatMap(([purpose, wanted]) => (wanted ? [purpose] : []));
  const missing = required.filter((purpose) => row.preferences[purpose] !== true);
  const consent = {
    id: row.id,
    purposeIds: Object.entries(row.preferences).flatMap(([purpose, granted]) => (granted ? [purpose] : [])),
    givenAt: row.givenAt.toISOString(),
  };
  if (missing.length > 0) return { isValid: false, reasons: [`Not consented to: ${missing.join(', ')}`], consent };
  return { isValid: true, consent };
}
