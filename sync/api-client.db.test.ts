import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { ApiError, createApiClient, MSG_REQUEST_FAILED, MSG_SESSION_EXPIRED } from './api-client.ts';

// Against the real server on loopback: the headers and error mapping are what the API expects.
let h: Harness;
let fx: Fixture;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => h.close());

describe('api client', () => {
  it('logs in, sends the bearer token and device id, and reports activity', async () => {
    const auth: { token?: string } = {};
    const activity: number[] = [];
    const api = createApiClient({ baseUrl, getToken: () => auth.token, getDeviceId: () => 'device-1234-abcd', onActivity: (d) => activity.push(d) });
    const login = await api.post<{ token: string }>('/auth/loginWithPassword', { hospNo: fx.patientA.hospNo, password: fx.patientA.password });
    auth.token = login.token;
    const profile = await api.get<{ user: { hospNum: string } }>('/users/');
    expect(profile.user.hospNum).toBe(fx.patientA.hospNo);
    expect(activity).toEqual([1, -1, 1, -1]);
    await api.get('/glucose', { quiet: true });
    expect(activity).toHaveLength(4);
  });

  it('maps errors: server message, 401 to the session handler, no answer to the retry message', async () => {
    let unauthorized = 0;
    const ended: (string | undefined)[] = [];
    const api = createApiClient({
      baseUrl,
      getToken: () => 'x'.repeat(43),
      onUnauthorized: (token) => {
        unauthorized++;
        ended.push(token);
      },
    });
    const err401 = await api.get('/glucose').catch((e: unknown) => e);
    expect(err401).toBeInstanceOf(ApiError);
    expect((err401 as ApiError).status).toBe(401);
    expect((err401 as ApiError).message).toBe(MSG_SESSION_EXPIRED);
    expect(unauthorized).toBe(1);
    // The handler is told which token was refused: a late answer to an ended session is not the current one's.
    expect(ended).toEqual(['x'.repeat(43)]);
    // A wrong current password is the call's own answer, not the end of the session.
    const wrongPassword = await api
      .post('/auth/updatePassword', { hospNo: fx.patientA.hospNo, currPassword: 'not-the-password', password: 'a-new-password-1' }, { checksCredentials: true })
      .catch((e: unknown) => e);
    expect((wrongPassword as ApiError).status).toBe(401);
    expect(unauthorized).toBe(1);

    const bad = await createApiClient({ baseUrl, getToken: () => undefined })
      .post('/auth/loginWithPassword', { hospNo: '', password: 'x' })
      .catch((e: unknown) => e);
    expect((bad as ApiError).status).toBe(400);
    expect((bad as ApiError).message).toBe('hospNo must not be empty');

    const offline = await createApiClient({ baseUrl: 'http://127.0.0.1:9', getToken: () => undefined })
      .get('/health')
      .catch((e: unknown) => e);
    expect(offline).toMatchObject({ status: 0, message: MSG_REQUEST_FAILED });
  });

  it('sends nothing once the session is stopped, and still sends calls with credentials of their own', async () => {
    let stopped = false;
    let fetched = 0;
    const api = createApiClient({
      baseUrl,
      getToken: () => 'x'.repeat(43),
      isStopped: () => stopped,
      fetchImpl: (...args) => {
        fetched += 1;
        return fetch(...args);
      },
    });
    expect((await api.get('/glucose').catch((e: unknown) => e)) as ApiError).toMatchObject({ status: 401 });
    expect(fetched).toBe(1);
    stopped = true;
    expect((await api.get('/glucose').catch((e: unknown) => e)) as ApiError).toMatchObject({ status: 401, message: MSG_SESSION_EXPIRED });
    expect(fetched).toBe(1);
    // A login, or a call with a token of its own, is not the stopped session's.
    expect(
      await api.post<{ token: string }>('/auth/loginWithPassword', { hospNo: fx.patientA.hospNo, password: fx.patientA.password }, { checksCredentials: true }),
    ).toHaveProperty('token');
    expect((await api.post('/admin/verifyToken', undefined, { token: 'y'.repeat(43) }).catch((e: unknown) => e)) as ApiError).toMatchObject({ status: 401 });
    expect(fetched).toBe(3);
  });

  it('counts a success whose body is cut off or broken as no answer, never as an empty one', async () => {
    const cutOff = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"valid":tr'));
          c.error(new TypeError('network error'));
        },
      });
    const answers: (() => Response)[] = [
      () => new Response(cutOff(), { status: 200, headers: { 'content-type': 'application/json' } }),
      () => new Response('{"valid":tr', { status: 200, headers: { 'content-type': 'application/json' } }),
    ];
    for (const answer of answers) {
      const api = createApiClient({ baseUrl, getToken: () => undefined, fetchImpl: async () => answer() });
      const err = await api.post('/auth/validate').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(0);
      expect((err as ApiError).message).toBe(MSG_REQUEST_FAILED);
    }
    // A refusal without a readable body still says the server refused.
    const api = createApiClient({ baseUrl, getToken: () => undefined, fetchImpl: async () => new Response('<html>', { status: 502 }) });
    await expect(api.get('/glucose')).rejects.toMatchObject({ status: 502 });
  });

  it("a captive portal's page is no answer, whatever its status: never a session that ended", async () => {
    // Issue 44: hospital Wi-Fi before its login answers every request with its own HTML page.
    for (const status of [200, 401, 403, 511]) {
      let ended = 0;
      const api = createApiClient({
        baseUrl,
        getToken: () => 'token',
        onUnauthorized: () => ended++,
        fetchImpl: async () => new Response('<!doctype html><title>Hospital Wi-Fi</title>', { status, headers: { 'content-type': 'text/html' } }),
      });
      await expect(api.get('/glucose')).rejects.toMatchObject({ status: 0, message: MSG_REQUEST_FAILED });
      expect(ended).toBe(0);
    }
  });
});
