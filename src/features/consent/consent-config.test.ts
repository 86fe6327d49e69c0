// @vitest-environment jsdom
// The consent set-up, and that the c15t client it configures behaves as spec §7–§9 say: the
// endpoints, X-Request-ID, credentials, the retry policy, the error codes, the offline fallback and
// the queue of failed saves resubmitted on the next load. The client is c15t's own, as the provider
// builds it from these options; only fetch (the network) is replaced.
import * as c15t from 'c15t';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C15T_PENDING_KEY, C15T_STORAGE_KEY, CONSENT_BACKEND_URL, consentMode, consentOptions, OFFERED_PURPOSES } from './consent-config.ts';

describe('consentMode', () => {
  it('is offline unless the build says remote', () => {
    expect(consentMode(undefined)).toBe('offline');
    expect(consentMode('')).toBe('offline');
    expect(consentMode('yes')).toBe('offline');
    expect(consentMode('remote')).toBe('remote');
  });
});

describe('consentOptions', () => {
  it('offline: no backend, the spec storage key, essential + analytics + functional, no network patching', () => {
    const options = consentOptions({ mode: 'offline', scripts: [] });
    expect(options).toMatchObject({
      mode: 'offline',
      storageConfig: { storageKey: 'c15t-consent' },
      consentCategories: ['necessary', 'measurement', 'functionality'],
      trackingBlockerConfig: { disableAutomaticBlocking: true },
      store: { iframeBlockerConfig: { disableAutomaticBlocking: true } },
    });
    expect(options).not.toHaveProperty('backendURL');
  });

  it('remote: c15t mode on /api/c15t, with the scripts and callbacks given', () => {
    const onConsentSet = () => undefined;
    const scripts = [{ id: 'test', src: '/test.js', category: 'measurement' as const }];
    expect(consentOptions({ mode: 'remote', scripts, callbacks: { onConsentSet } })).toMatchObject({
      mode: 'c15t',
      backendURL: '/api/c15t',
      scripts,
      callbacks: { onConsentSet },
      consentCategories: OFFERED_PURPOSES,
    });
  });
});

// c15t exports its client classes, but its type declarations (index.d.ts re-exports './client' without
// an extension) do not reach them under NodeNext: typed here as far as the tests use them.
interface Result {
  ok: boolean;
  data: Record<string, unknown> | null;
  error: { code: string; status: number; message: string } | null;
}
interface Client {
  setConsent(o: { body: unknown }): Promise<Result>;
  verifyConsent(o: { body: unknown }): Promise<Result>;
  showConsentBanner(): Promise<Result>;
}
const { C15tClient, OfflineClient } = c15t as unknown as {
  C15tClient: new (o: { backendURL: string; storageConfig: { storageKey: string } }) => Client;
  OfflineClient: new (storageConfig: { storageKey: string }) => Client;
};

type Call = { url: string; init: RequestInit };
let calls: Call[];
let answers: (() => Response | Promise<Response>)[];

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const down = () => () => Promise.reject(new TypeError('Failed to fetch'));
const headerOf = (c: Call, name: string) => (c.init.headers as Record<string, string>)[name];

/** The client exactly as ConsentManagerProvider makes it in remote mode. */
function remoteClient(): Client {
  const options = consentOptions({ mode: 'remote', scripts: [] });
  if (options.mode !== 'c15t') throw new Error('not remote');
  return new C15tClient({ backendURL: options.backendURL, storageConfig: options.storageConfig });
}

const body = { type: 'cookie_banner', domain: 'localhost', preferences: { necessary: true, measurement: true, functionality: false } };

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  document.cookie = `${C15T_STORAGE_KEY}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  calls = [];
  answers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const next = answers.shift();
      if (!next) throw new Error(`unexpected request ${url}`);
      return next();
    }),
  );
  // c15t narrates its retries on the console.
  for (const level of ['log', 'debug', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the remote client', () => {
  it('retries 500/502/503/504 three times, after 100 ms then ×2, each try with its own X-Request-ID and credentials', async () => {
    answers = [json(503, { message: 'busy' }), json(502, {}), json(200, { id: 'c1f0e2d4-0000-4000-8000-000000000001' })];
    const saved = remoteClient().setConsent({ body });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    const result = await saved;
    expect(result.ok).toBe(true);

    for (const c of calls) {
      expect(c.url).toBe(`${location.origin}${CONSENT_BACKEND_URL}/consent/set`);
      expect(c.init).toMatchObject({ method: 'POST', credentials: 'include' });
      expect(JSON.parse(String(c.init.body))).toEqual(body);
      expect(headerOf(c, 'X-Request-ID')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(calls.map((c) => headerOf(c, 'X-Request-ID'))).size).toBe(3);
    // The server's id is kept with the choice.
    expect(JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? '{}')).toMatchObject({ consents: body.preferences, consentInfo: { id: 'c1f0e2d4-0000-4000-8000-000000000001' } });
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBeNull();
  });

  it('does not retry 400, 401, 403 or 404', async () => {
    for (const status of [400, 401, 403, 404]) {
      calls = [];
      answers = [json(status, { message: 'no' })];
      const result = await remoteClient().verifyConsent({ body: { type: 'cookie_banner', domain: 'localhost' } });
      expect(calls, String(status)).toHaveLength(1);
      expect(result.error).toMatchObject({ code: 'API_ERROR', status, message: 'no' });
    }
  });

  it('reports API_ERROR, PARSE_ERROR and NETWORK_ERROR as spec §8 names them', async () => {
    answers = [json(500, {}), json(500, {}), json(500, {}), json(500, {})];
    const api = remoteClient().verifyConsent({ body: { type: 'cookie_banner', domain: 'localhost' } });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await api).error).toMatchObject({ code: 'API_ERROR', status: 500, message: 'Request failed with status 500' });
    expect(calls).toHaveLength(4);

    answers = [() => new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } })];
    const parse = await remoteClient().verifyConsent({ body: { type: 'cookie_banner', domain: 'localhost' } });
    expect(parse.error).toMatchObject({ code: 'PARSE_ERROR', message: 'Failed to parse response' });

    calls = [];
    answers = [down(), down(), down(), down()];
    const network = remoteClient().verifyConsent({ body: { type: 'cookie_banner', domain: 'localhost' } });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await network).error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(calls).toHaveLength(4); // network errors are retried too
  });

  it('falls back to offline mode when the banner question fails: show unless a choice is stored', async () => {
    answers = [down(), down(), down(), down()];
    const first = remoteClient().showConsentBanner();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await first).data).toMatchObject({ showConsentBanner: true, jurisdiction: { code: 'NONE' } });

    localStorage.setItem(C15T_STORAGE_KEY, JSON.stringify({ consents: { necessary: true }, consentInfo: { time: 1 } }));
    answers = [json(503, {}), json(503, {}), json(503, {}), json(503, {})];
    const second = remoteClient().showConsentBanner();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await second).data).toMatchObject({ showConsentBanner: false });
  });

  it('keeps a save that cannot reach the server: stored on the device and queued', async () => {
    answers = [down(), down(), down(), down()];
    const saved = remoteClient().setConsent({ body });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await saved).ok).toBe(true);
    expect(calls).toHaveLength(4);
    expect(JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? '{}')).toMatchObject({ consents: body.preferences });
    expect(JSON.parse(localStorage.getItem(C15T_PENDING_KEY) ?? '[]')).toEqual([body]);
  });

  it('resubmits queued saves 2 s after the next load, in 3 rounds with pauses of 1 s and 2 s', async () => {
    localStorage.setItem(C15T_PENDING_KEY, JSON.stringify([body]));
    answers = [json(400, {}), json(400, {}), json(400, {})];
    remoteClient(); // the next page load
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.url.endsWith('/api/c15t/consent/set') && JSON.parse(String(c.init.body)).domain === 'localhost')).toBe(true);
    // Still not through: kept for the load after.
    expect(JSON.parse(localStorage.getItem(C15T_PENDING_KEY) ?? '[]')).toEqual([body]);

    calls = [];
    answers = [json(200, { id: 'c1f0e2d4-0000-4000-8000-000000000002' })];
    remoteClient();
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(1);
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBeNull();
  });
});

describe('the offline client', () => {
  it('makes no request: the choice is stored on the device only', async () => {
    const options = consentOptions({ mode: 'offline', scripts: [] });
    const client = new OfflineClient(options.storageConfig);
    expect((await client.showConsentBanner()).data).toMatchObject({ showConsentBanner: true });
    expect((await client.setConsent({ body })).ok).toBe(true);
    expect(JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? '{}')).toMatchObject({ consents: body.preferences });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
  });
});
