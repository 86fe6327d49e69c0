// The consent set-up, and that the c15t 2.x client it configures behaves as docs/requirements.md §7–§9 say: the
// endpoints (served by server/routes/consent.ts), X-Request-ID, credentials, the retry policy, the
// error codes, the offline fallback and the queue of failed saves resubmitted on the next load. The
// client and store are c15t's own, as consent-root.tsx makes them from these options; only fetch
// (the network) is replaced.
import * as c15t from 'c15t';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPT_IN_BANNER_POLICY } from '../../../schemas/consent.ts';
import { getOrCreateConsentRuntime } from './c15t.ts';
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
  it('offline: no backend, the spec storage key, essential + analytics + functional, no reload, no iframe watching', () => {
    const options = consentOptions({ mode: 'offline', scripts: [] });
    expect(options).toMatchObject({
      mode: 'offline',
      storageConfig: { storageKey: 'c15t-consent' },
      consentCategories: ['necessary', 'measurement', 'functionality'],
      reloadOnConsentRevoked: false,
      store: { namespace: 'eddyConsentStore', iframeBlockerConfig: { disableAutomaticBlocking: true } },
    });
    expect(options).not.toHaveProperty('backendURL');
  });

  it('remote: hosted mode on /api/c15t, with the scripts and callbacks given', () => {
    const onConsentSet = () => undefined;
    const scripts = [{ id: 'test', src: '/test.js', category: 'measurement' as const }];
    expect(consentOptions({ mode: 'remote', scripts, callbacks: { onConsentSet } })).toMatchObject({
      mode: 'hosted',
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
  init(): Promise<Result>;
  $fetch(path: string, o?: { method?: string; body?: unknown }): Promise<Result>;
}
const { C15tClient, OfflineClient, clearConsentRuntimeCache } = c15t as unknown as {
  C15tClient: new (o: { backendURL: string; storageConfig: { storageKey: string } }) => Client;
  OfflineClient: new (storageConfig: { storageKey: string }) => Client;
  clearConsentRuntimeCache(): void;
};

type Call = { url: string; init: RequestInit };
let calls: Call[];
let answers: (() => Response | Promise<Response>)[];

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const down = () => () => Promise.reject(new TypeError('Failed to fetch'));
const headerOf = (c: Call, name: string) => (c.init.headers as Record<string, string>)[name];
const storedChoice = () =>
  JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? 'null') as { consents: Record<string, boolean>; consentInfo: Record<string, unknown> } | null;

/** The client exactly as c15t makes it from the remote-mode options. */
function remoteClient(): Client {
  const options = consentOptions({ mode: 'remote', scripts: [] });
  if (options.mode !== 'hosted') throw new Error('not remote');
  return new C15tClient({ backendURL: options.backendURL, storageConfig: options.storageConfig });
}

const subjectId = 'sub_2jv6z8n4q9AbCdEf';
const body = {
  type: 'cookie_banner',
  domain: 'localhost',
  preferences: { necessary: true, measurement: true, functionality: false },
  subjectId,
  givenAt: 1_790_000_000_000,
};
/** What GET /api/c15t/init answers (server/services/consent-service.ts, consentInit). */
const serverInit = {
  jurisdiction: 'NONE',
  location: { countryCode: null, regionCode: null },
  translations: { language: 'en', translations: { common: {}, cookieBanner: {}, consentManagerDialog: {}, consentTypes: {} } },
  branding: 'none',
  policy: OPT_IN_BANNER_POLICY,
};

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  document.cookie = `${C15T_STORAGE_KEY}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  clearConsentRuntimeCache();
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
  // c15t narrates its retries and fallbacks on the console.
  for (const level of ['log', 'debug', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the remote client', () => {
  it('saves with POST /subjects, retrying 500/502/503/504 three times after 100 ms then ×2, each try with its own X-Request-ID and credentials', async () => {
    answers = [json(503, { message: 'busy' }), json(502, {}), json(200, { subjectId, consentId: 'c1f0e2d4-0000-4000-8000-000000000001' })];
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
      expect(c.url).toBe(`${location.origin}${CONSENT_BACKEND_URL}/subjects`);
      expect(c.init).toMatchObject({ method: 'POST', credentials: 'include' });
      expect(JSON.parse(String(c.init.body))).toEqual(body);
      expect(headerOf(c, 'X-Request-ID')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(calls.map((c) => headerOf(c, 'X-Request-ID'))).size).toBe(3);
    // The choice is kept on the device with the subject id the device made.
    expect(storedChoice()).toMatchObject({ consents: body.preferences, consentInfo: { subjectId } });
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBeNull();
  });

  it('does not retry 400, 401, 403 or 404', async () => {
    for (const status of [400, 401, 403, 404]) {
      calls = [];
      answers = [json(status, { message: 'no' })];
      const result = await remoteClient().$fetch('/subjects', { method: 'POST', body });
      expect(calls, String(status)).toHaveLength(1);
      expect(result.error).toMatchObject({ code: 'API_ERROR', status, message: 'no' });
    }
  });

  it('reports API_ERROR, PARSE_ERROR and NETWORK_ERROR as docs/requirements.md §8 names them', async () => {
    answers = [json(500, {}), json(500, {}), json(500, {}), json(500, {})];
    const api = remoteClient().$fetch('/init');
    await vi.advanceTimersByTimeAsync(1000);
    expect((await api).error).toMatchObject({ code: 'API_ERROR', status: 500, message: 'Request failed with status 500' });
    expect(calls).toHaveLength(4);

    answers = [() => new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } })];
    const parse = await remoteClient().$fetch('/init');
    expect(parse.error).toMatchObject({ code: 'PARSE_ERROR', message: 'Failed to parse response' });

    calls = [];
    answers = [down(), down(), down(), down()];
    const network = remoteClient().$fetch('/init');
    await vi.advanceTimersByTimeAsync(1000);
    expect((await network).error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(calls).toHaveLength(4); // network errors are retried too
  });

  it('asks GET /init, and falls back to offline mode when that fails: the banner shows unless a choice is stored', async () => {
    const remoteStore = () => getOrCreateConsentRuntime(consentOptions({ mode: 'remote', scripts: [] })).consentStore;
    answers = [json(200, serverInit)];
    const answered = remoteStore();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.url)).toEqual([`${location.origin}/api/c15t/init`]);
    // (c15t fingerprints the policy with WebCrypto, which no fake timer drives: hence waitFor.)
    await vi.waitFor(() =>
      expect(answered.getState()).toMatchObject({ activeUI: 'banner', isLoadingConsentInfo: false, locationInfo: { jurisdiction: 'NONE' } }),
    );

    clearConsentRuntimeCache();
    answers = [down(), down(), down(), down()];
    const fellBack = remoteStore();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(5);
    await vi.waitFor(() => expect(fellBack.getState()).toMatchObject({ activeUI: 'banner', isLoadingConsentInfo: false }));

    clearConsentRuntimeCache();
    localStorage.setItem(C15T_STORAGE_KEY, JSON.stringify({ consents: { necessary: true }, consentInfo: { time: 1, subjectId } }));
    answers = [json(503, {}), json(503, {}), json(503, {}), json(503, {})];
    const stored = remoteStore();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(stored.getState()).toMatchObject({ activeUI: 'none', isLoadingConsentInfo: false }));
  });

  it('keeps a save that cannot reach the server: stored on the device and queued', async () => {
    answers = [down(), down(), down(), down()];
    const saved = remoteClient().setConsent({ body });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await saved).ok).toBe(true);
    expect(calls).toHaveLength(4);
    expect(storedChoice()).toMatchObject({ consents: body.preferences, consentInfo: { subjectId } });
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
    expect(calls.every((c) => c.url.endsWith('/api/c15t/subjects') && JSON.parse(String(c.init.body)).subjectId === subjectId)).toBe(true);
    // Still not through: kept for the load after.
    expect(JSON.parse(localStorage.getItem(C15T_PENDING_KEY) ?? '[]')).toEqual([body]);

    calls = [];
    answers = [json(200, { subjectId, consentId: 'c1f0e2d4-0000-4000-8000-000000000002' })];
    remoteClient();
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(1);
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBeNull();
  });
});

describe("the server's policy", () => {
  /** What c15t fingerprints of a policy: everything but its name. */
  const material = (policy: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(policy ?? {}).filter(([k]) => k !== 'id'));

  it("is c15t's own offline policy, apart from its name", async () => {
    const offline = await new OfflineClient({ storageKey: C15T_STORAGE_KEY }).init();
    expect(material(offline.data?.['policy'] as Record<string, unknown>)).toEqual(material(OPT_IN_BANNER_POLICY));
  });

  it('keeps a choice made while the server was down once the server answers again (c15t asks again after a policy change)', async () => {
    const remoteStore = () => getOrCreateConsentRuntime(consentOptions({ mode: 'remote', scripts: [] })).consentStore;
    answers = [down(), down(), down(), down(), down(), down(), down(), down()];
    const first = remoteStore();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(first.getState().activeUI).toBe('banner'));
    // The save waits on WebCrypto, then on timers (its retries): both are let run until it is done.
    let saved = false;
    const saving = first
      .getState()
      .saveConsents('necessary')
      .then(() => (saved = true));
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(100);
      expect(saved).toBe(true);
    });
    await saving;
    await vi.waitFor(() => expect(localStorage.getItem(C15T_PENDING_KEY)).not.toBeNull());
    const savedUnder = storedChoice()?.consentInfo['materialPolicyFingerprint'];
    expect(savedUnder).toMatch(/^[0-9a-f]{64}$/);

    clearConsentRuntimeCache();
    calls = [];
    // The server answers /init, then the save queued while it was down (2 s after the load).
    answers = [json(200, serverInit), json(200, { subjectId: storedChoice()?.consentInfo['subjectId'], consentId: 'c1f0e2d4-0000-4000-8000-000000000003' })];
    const next = remoteStore();
    await vi.advanceTimersByTimeAsync(3000);
    await vi.waitFor(() =>
      expect(next.getState()).toMatchObject({ isLoadingConsentInfo: false, lastBannerFetchData: { policy: { id: 'eddy_opt_in_banner' } } }),
    );
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/c15t/init', '/api/c15t/subjects']);
    expect(next.getState()).toMatchObject({ activeUI: 'none', consentInfo: { materialPolicyFingerprint: savedUnder } });
    expect(storedChoice()?.consents).toMatchObject({ necessary: true, measurement: false });
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBeNull();
  });
});

describe('the offline client', () => {
  it('makes no request: the choice is stored on the device only', async () => {
    const options = consentOptions({ mode: 'offline', scripts: [] });
    const client = new OfflineClient(options.storageConfig);
    expect((await client.init()).data).toMatchObject({ policy: { model: 'opt-in', ui: { mode: 'banner' } } });
    expect((await client.setConsent({ body })).ok).toBe(true);
    expect(storedChoice()).toMatchObject({ consents: body.preferences, consentInfo: { subjectId } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
  });
});
