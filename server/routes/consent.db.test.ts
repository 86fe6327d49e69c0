// The cookie-consent endpoints of remote mode (docs/requirements.md §3, §7) on a real server and database, checked
// against the schemas the c15t clients' answers are written to: GET /init and POST /subjects for
// c15t 2.x, GET /show-consent-banner and POST /consent/set for a c15t 1.x build still installed, and
// POST /consent/verify for both.
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentRecords } from '../db/schema.ts';
import {
  consentInitSchema,
  consentSetResponseSchema,
  consentVerifyResponseSchema,
  OPT_IN_BANNER_POLICY,
  showConsentBannerSchema,
  subjectConsentResponseSchema,
} from '../../schemas/consent.ts';
import { call, createHarness, type Harness } from '../testing/harness.ts';

const ajv = new Ajv({ strict: false });
ajvFormats.default(ajv);
const matches = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : validate.errors;
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Json = Record<string, unknown>;
/** A call from a given client address (inject's remoteAddress), as req.ip sees it. */
async function from(address: string, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.inject({
    method,
    url,
    remoteAddress: address,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, headers: res.headers, json: res.json<Json>() };
}

const choice = (analytics: boolean, functional: boolean) => ({
  necessary: true,
  measurement: analytics,
  functionality: functional,
  experience: false,
  marketing: false,
});

describe('GET /api/c15t/init (c15t 2.x)', () => {
  it('answers the opt-in banner policy everywhere, with the jurisdiction and location as the CDN reports them', async () => {
    const res = await call(h.app, 'GET', '/api/c15t/init', { headers: { 'x-request-id': 'req-init-1' } });
    expect(res.status).toBe(200);
    expect(matches(consentInitSchema, res.json)).toEqual([]);
    expect(res.json).toEqual({
      jurisdiction: 'NONE',
      location: { countryCode: null, regionCode: null },
      translations: { language: 'en', translations: { common: {}, cookieBanner: {}, consentManagerDialog: {}, consentTypes: {} } },
      branding: 'none',
      policy: OPT_IN_BANNER_POLICY,
    });
    expect(res.headers['x-request-id']).toBe('req-init-1');
    expect(res.headers['cache-control']).toBe('no-store');

    const de = await call(h.app, 'GET', '/api/c15t/init', { headers: { 'cf-ipcountry': 'DE', 'x-vercel-ip-country-region': 'BY' } });
    expect(de.json).toMatchObject({
      jurisdiction: 'GDPR',
      location: { countryCode: 'DE', regionCode: 'BY' },
      policy: { model: 'opt-in', ui: { mode: 'banner' } },
    });
    // Opt-out laws and no law at all: c15t would grant every purpose by itself without the policy.
    for (const country of ['AU', 'CA', 'US']) {
      const res = await call(h.app, 'GET', '/api/c15t/init', { headers: { 'cf-ipcountry': country } });
      expect(res.json['policy'], country).toEqual(OPT_IN_BANNER_POLICY);
    }
  });
});

describe('POST /api/c15t/subjects (c15t 2.x)', () => {
  const subject = 'sub_2jv6z8n4q9AbCdEf';
  const body = {
    type: 'cookie_banner',
    domain: 'Eddy.Hospital.Example',
    preferences: choice(true, false),
    subjectId: subject,
    givenAt: 1_790_000_000_000,
    jurisdiction: 'NONE',
    jurisdictionModel: 'opt-in',
    uiSource: 'api',
    consentAction: 'custom',
    policySnapshotToken: 'not kept',
    externalSubjectId: 'not kept either',
  };

  it('stores proof of consent under the subject: preferences, the time chosen, how, the request id and a keyed hash of the address', async () => {
    const res = await from('203.0.113.8', 'POST', '/api/c15t/subjects', body, { 'x-request-id': 'req-subject-1' });
    expect(res.status).toBe(200);
    expect(matches(subjectConsentResponseSchema, res.json)).toEqual([]);
    expect(res.json).toMatchObject({
      subjectId: subject,
      domain: 'eddy.hospital.example',
      domainId: 'eddy.hospital.example',
      type: 'cookie_banner',
      appliedPreferences: body.preferences,
      uiSource: 'api',
      givenAt: new Date(body.givenAt).toISOString(),
    });
    const [row] = await h.db
      .select()
      .from(consentRecords)
      .where(eq(consentRecords.id, String(res.json['consentId'])));
    expect(row).toMatchObject({
      subjectId: subject,
      type: 'cookie_banner',
      domain: 'eddy.hospital.example',
      preferences: body.preferences,
      metadata: { uiSource: 'api', consentAction: 'custom', jurisdiction: 'NONE', jurisdictionModel: 'opt-in' },
      requestId: 'req-subject-1',
    });
    expect(row!.givenAt.getTime()).toBe(body.givenAt);
    expect(row!.addressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain('not kept');
  });

  it('takes a time in the future as now, and a save without one (queued by c15t 1.x, with its metadata) as now', async () => {
    const before = Date.now();
    const future = await call(h.app, 'POST', '/api/c15t/subjects', { body: { ...body, givenAt: Date.now() + 86_400_000 } });
    expect(Date.parse(String(future.json['givenAt']))).toBeLessThanOrEqual(Date.now());
    const queued = await call(h.app, 'POST', '/api/c15t/subjects', {
      body: {
        type: 'cookie_banner',
        domain: 'localhost',
        preferences: choice(false, false),
        subjectId: subject,
        metadata: { source: 'consent_widget', acceptanceMethod: 'necessary' },
      },
    });
    expect(queued.status).toBe(200);
    const [row] = await h.db
      .select()
      .from(consentRecords)
      .where(eq(consentRecords.id, String(queued.json['consentId'])));
    expect(row).toMatchObject({ subjectId: subject, metadata: { source: 'consent_widget', acceptanceMethod: 'necessary' } });
    expect(row!.givenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers 400 {message} for what is not a consent', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...body, subjectId: undefined }, /subjectId is required/],
      [{ ...body, subjectId: 'user-1' }, /subjectId/],
      [{ ...body, subjectId: 'sub_0OIl' }, /subjectId/],
      [{ ...body, preferences: undefined }, /preferences is required/],
      [{ ...body, preferences: { measurement: 'yes' } }, /preferences\.measurement must be a boolean/],
      [{ ...body, givenAt: 'yesterday' }, /givenAt/],
      [{ ...body, consentAction: 'some' }, /consentAction/],
      [{ ...body, type: 'cookies' }, /type must be one of/],
    ];
    for (const [payload, message] of cases) {
      const res = await call(h.app, 'POST', '/api/c15t/subjects', { body: payload });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.json['message'], JSON.stringify(payload)).toMatch(message);
    }
  });
});

describe('GET /api/c15t/show-consent-banner (c15t 1.x)', () => {
  it('shows the banner with the location unknown when no proxy reports one', async () => {
    const res = await call(h.app, 'GET', '/api/c15t/show-consent-banner');
    expect(res.status).toBe(200);
    expect(matches(showConsentBannerSchema, res.json)).toEqual([]);
    expect(res.json).toMatchObject({
      showConsentBanner: true,
      jurisdiction: { code: 'NONE' },
      location: { countryCode: null, regionCode: null },
      translations: { language: 'en', translations: {} },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('takes country and region from the CDN headers, and still shows the banner outside consent laws', async () => {
    const de = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'cf-ipcountry': 'de', 'x-vercel-ip-country-region': 'BY' } });
    expect(de.json).toMatchObject({ showConsentBanner: true, jurisdiction: { code: 'GDPR' }, location: { countryCode: 'DE', regionCode: 'BY' } });
    const br = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'x-vercel-ip-country': 'BR' } });
    expect(br.json['jurisdiction']).toEqual({ code: 'BR', message: "Brazil's LGPD requires consent for cookies." });
    // c15t would grant every purpose by itself on "NONE and no banner": never answered.
    const us = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'cf-ipcountry': 'US' } });
    expect(us.json).toMatchObject({
      showConsentBanner: true,
      jurisdiction: { code: 'NONE', message: 'No specific requirements' },
      location: { countryCode: 'US' },
    });
    for (const bogus of ['XX', 'T1', 'Germany', '<script>']) {
      const res = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'cf-ipcountry': bogus } });
      expect(res.json['location'], bogus).toEqual({ countryCode: null, regionCode: null });
    }
  });

  it("echoes the client's X-Request-ID, and gives one when it is missing or malformed", async () => {
    const mine = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'x-request-id': '6b1f0c9e-2d7a-4c1b-9e0f-1a2b3c4d5e6f' } });
    expect(mine.headers['x-request-id']).toBe('6b1f0c9e-2d7a-4c1b-9e0f-1a2b3c4d5e6f');
    const none = await call(h.app, 'GET', '/api/c15t/show-consent-banner');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await call(h.app, 'GET', '/api/c15t/show-consent-banner', { headers: { 'x-request-id': 'a b\tc' } });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST /api/c15t/consent/set (c15t 1.x)', () => {
  it('stores proof of consent: type, domain, preferences, time, request id and a keyed hash of the address', async () => {
    const body = {
      type: 'cookie_banner',
      domain: 'Eddy.Hospital.Example',
      preferences: choice(true, false),
      metadata: { source: 'consent_widget', acceptanceMethod: 'custom' },
    };
    const before = Date.now();
    const res = await from('203.0.113.7', 'POST', '/api/c15t/consent/set', body, { 'x-request-id': 'req-set-1' });
    expect(res.status).toBe(200);
    expect(matches(consentSetResponseSchema, res.json)).toEqual([]);
    expect(res.json).toMatchObject({ type: 'cookie_banner', domain: 'eddy.hospital.example', status: 'active', preferences: body.preferences });
    expect(res.json['recordId']).toBe(res.json['id']);
    expect(res.headers['x-request-id']).toBe('req-set-1');

    const [row] = await h.db
      .select()
      .from(consentRecords)
      .where(eq(consentRecords.id, String(res.json['id'])));
    expect(row).toMatchObject({
      type: 'cookie_banner',
      domain: 'eddy.hospital.example',
      preferences: body.preferences,
      metadata: body.metadata,
      requestId: 'req-set-1',
    });
    expect(row!.givenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row!.addressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.addressHash).not.toContain('203.0.113.7');

    // The same address hashes the same (so verify finds it); another address does not.
    const again = await from('203.0.113.7', 'POST', '/api/c15t/consent/set', body);
    const other = await from('198.51.100.1', 'POST', '/api/c15t/consent/set', body);
    const hashOf = async (id: unknown) =>
      (
        await h.db
          .select()
          .from(consentRecords)
          .where(eq(consentRecords.id, String(id)))
      )[0]?.addressHash;
    expect(await hashOf(again.json['id'])).toBe(row!.addressHash);
    expect(await hashOf(other.json['id'])).not.toBe(row!.addressHash);
  });

  it('needs no login, and drops the fields it does not keep', async () => {
    const res = await call(h.app, 'POST', '/api/c15t/consent/set', {
      body: { type: 'cookie_banner', domain: 'localhost', preferences: { necessary: true }, externalSubjectId: 'someone', identityProvider: 'x' },
    });
    expect(res.status).toBe(200);
    const [row] = await h.db
      .select()
      .from(consentRecords)
      .where(eq(consentRecords.id, String(res.json['id'])));
    expect(JSON.stringify(row)).not.toContain('someone');
  });

  it('answers 400 {message} for what is not a consent', async () => {
    const cases: [unknown, RegExp][] = [
      [{ domain: 'localhost', preferences: {} }, /type is required/],
      [{ type: 'cookie_banner', domain: 'localhost' }, /preferences is required/],
      [{ type: 'cookies', domain: 'localhost', preferences: {} }, /type must be one of/],
      [{ type: 'cookie_banner', domain: 'localhost', preferences: { analytics: 'yes' } }, /preferences\.analytics must be a boolean/],
      [{ type: 'cookie_banner', domain: 'local host', preferences: {} }, /domain/],
      [{ type: 'cookie_banner', domain: 'localhost', preferences: { 'not a purpose': true } }, /preferences/],
      [[], /must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await call(h.app, 'POST', '/api/c15t/consent/set', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json['message'], JSON.stringify(body)).toMatch(message);
    }
    const notJson = await h.app.inject({ method: 'POST', url: '/api/c15t/consent/set', headers: { 'content-type': 'application/json' }, payload: '{"type":' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toHaveProperty('message');
  });
});

describe('POST /api/c15t/consent/verify', () => {
  it('answers from the newest consent this device gave on that domain, purpose by purpose', async () => {
    const domain = 'verify.example';
    const ip = '192.0.2.44';
    const first = await from(ip, 'POST', '/api/c15t/consent/verify', { type: 'cookie_banner', domain, preferences: ['necessary'] });
    expect(first.status).toBe(200);
    expect(first.json['isValid']).toBe(false);
    expect(matches(consentVerifyResponseSchema, first.json)).toEqual([]);

    await from(ip, 'POST', '/api/c15t/consent/set', { type: 'cookie_banner', domain, preferences: choice(true, true) });
    await new Promise((r) => setTimeout(r, 5)); // a later givenAt
    const set = await from(ip, 'POST', '/api/c15t/consent/set', { type: 'cookie_banner', domain, preferences: choice(true, false) });

    const ok = await from(ip, 'POST', '/api/c15t/consent/verify', { type: 'cookie_banner', domain, preferences: ['necessary', 'measurement'] });
    expect(matches(consentVerifyResponseSchema, ok.json)).toEqual([]);
    expect(ok.json).toMatchObject({ isValid: true, consent: { id: set.json['id'], purposeIds: ['necessary', 'measurement'] } });

    // The newer choice withdrew "functionality"; the map form of preferences asks the same way.
    const withdrawn = await from(ip, 'POST', '/api/c15t/consent/verify', {
      type: 'cookie_banner',
      domain,
      preferences: { necessary: true, functionality: true, marketing: false },
    });
    expect(withdrawn.json).toMatchObject({ isValid: false, reasons: ['Not consented to: functionality'] });

    const elsewhere = await from('192.0.2.45', 'POST', '/api/c15t/consent/verify', { type: 'cookie_banner', domain, preferences: ['necessary'] });
    expect(elsewhere.json['isValid']).toBe(false);
    const otherType = await from(ip, 'POST', '/api/c15t/consent/verify', { type: 'privacy_policy', domain });
    expect(otherType.json['isValid']).toBe(false);

    // By the record id the client was given, from any address.
    const byId = await from('192.0.2.99', 'POST', '/api/c15t/consent/verify', {
      type: 'cookie_banner',
      domain,
      subjectId: set.json['id'],
      preferences: ['measurement'],
    });
    expect(byId.json).toMatchObject({ isValid: true, consent: { id: set.json['id'] } });
  });

  it('answers by the subject c15t 2.x made, from any address: its newest choice', async () => {
    const domain = 'subject.example';
    const subjectId = 'sub_3kW7x9m2p4QrStUv';
    const other = 'sub_3kW7x9m2p4QrStUw';
    const save = (preferences: Record<string, boolean>, givenAt: number, id = subjectId) =>
      from('198.51.100.20', 'POST', '/api/c15t/subjects', { type: 'cookie_banner', domain, preferences, subjectId: id, givenAt });
    await save(choice(true, true), 1_790_000_000_000);
    const newest = await save(choice(false, true), 1_790_000_060_000);
    // Queued and sent late: an older choice does not become the newest.
    await save(choice(true, false), 1_790_000_030_000);
    await save(choice(true, true), 1_790_000_090_000, other);

    const asked = (preferences: string[], id = subjectId) =>
      from('192.0.2.100', 'POST', '/api/c15t/consent/verify', { type: 'cookie_banner', domain, subjectId: id, preferences });
    expect((await asked(['functionality'])).json).toMatchObject({
      isValid: true,
      consent: { id: newest.json['consentId'], purposeIds: ['necessary', 'functionality'] },
    });
    expect((await asked(['measurement'])).json).toMatchObject({ isValid: false, reasons: ['Not consented to: measurement'] });
    expect((await asked(['measurement'], other)).json['isValid']).toBe(true);
    expect((await asked(['necessary'], 'sub_4nobody')).json['isValid']).toBe(false);
  });

  it('answers 400 {message} for a malformed question', async () => {
    for (const body of [
      { domain: 'x' },
      { type: 'cookie_banner' },
      { type: 'cookie_banner', domain: 'x', subjectId: 'nope' },
      { type: 'cookie_banner', domain: 'x', subjectId: 'sub_' },
      { type: 'cookie_banner', domain: 'x', preferences: 'all' },
    ]) {
      const res = await call(h.app, 'POST', '/api/c15t/consent/verify', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json['message']).toBe('string');
    }
  });
});

describe('rate limit', () => {
  it('limits each consent route per client address (CONSENT_RATE_LIMIT a minute)', async () => {
    const limited = await createHarness({ CONSENT_RATE_LIMIT: '2' });
    try {
      const get = () => limited.app.inject({ method: 'GET', url: '/api/c15t/init', remoteAddress: '203.0.113.50' });
      expect((await get()).statusCode).toBe(200);
      expect((await get()).statusCode).toBe(200);
      const third = await get();
      expect(third.statusCode).toBe(429);
      expect(third.json()['message']).toMatch(/Too many attempts/);
      const otherAddress = await limited.app.inject({ method: 'GET', url: '/api/c15t/init', remoteAddress: '203.0.113.51' });
      expect(otherAddress.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
