import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTokens } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface UserJson {
  name: string;
  hospNum: string;
  notificationTimings: { breakfast: string; lunch: string; dinner: string };
  glucometerAlerts: string[];
}

let h: Harness;
let fx: Fixture;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

async function me(): Promise<UserJson> {
  const res = await call(h.app, 'GET', '/api/users/', { token });
  expect(res.status).toBe(200);
  return res.json['user'] as UserJson;
}

describe('profile', () => {
  it.each(['/api/users/', '/api/users'])('GET %s returns the user', async (url) => {
    const res = await call(h.app, 'GET', url, { token });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const user = res.json['user'] as UserJson;
    expect(user.name).toBe('Alice Able');
    expect(user.hospNum).toBe(fx.patientA.hospNo);
    expect(Object.keys(user.notificationTimings).sort()).toEqual(['breakfast', 'dinner', 'lunch']);
    for (const t of Object.values(user.notificationTimings)) expect(t).toMatch(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
    expect(user.glucometerAlerts).toEqual([]);
    expect(JSON.stringify(res.json)).not.toMatch(/passwordHash|password_hash|"password"|scrypt/i);
  });

  it('shows staff the patient named by X-Hosp-No and nobody else', async () => {
    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const res = await call(h.app, 'GET', '/api/users/', { token: adminToken, headers: { 'x-hosp-no': fx.patientA2.hospNo } });
    expect(res.status).toBe(200);
    expect((res.json['user'] as UserJson).hospNum).toBe(fx.patientA2.hospNo);
    const otherHospital = await call(h.app, 'GET', '/api/users/', { token: adminToken, headers: { 'x-hosp-no': fx.patientB.hospNo } });
    expect(otherHospital.status).toBe(404);
    const noHeader = await call(h.app, 'GET', '/api/users/', { token: adminToken });
    expect(noHeader.status).toBe(400);
    // A patient's X-Hosp-No is ignored.
    const patient = await call(h.app, 'GET', '/api/users/', { token, headers: { 'x-hosp-no': fx.patientA2.hospNo } });
    expect((patient.json['user'] as UserJson).hospNum).toBe(fx.patientA.hospNo);
    const anon = await call(h.app, 'GET', '/api/users/');
    expect(anon.status).toBe(401);
    expect(anon.json['message']).toBe('Session Expired. Please login again.');
  });
});

describe('notification timings', () => {
  it('saves and persists the timings', async () => {
    const res = await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: { breakfast: '07:15', lunch: '13:00', dinner: '20:45' } });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Notification timings saved successfully');
    expect((await me()).notificationTimings).toEqual({ breakfast: '07:15', lunch: '13:00', dinner: '20:45' });
  });

  it.each([
    [{ breakfast: '25:00', lunch: '13:00', dinner: '20:00' }, 'breakfast must be a time in 24-hour HH:MM format'],
    [{ breakfast: '07:00', lunch: '12:60', dinner: '20:00' }, 'lunch must be a time in 24-hour HH:MM format'],
    [{ breakfast: '07:00', lunch: '13:00', dinner: '8pm' }, 'dinner must be a time in 24-hour HH:MM format'],
    [{}, 'The request must include at least one of breakfast, lunch or dinner'],
    [{ baseVersion: 3, mutationId: 'device-1:1' }, 'The request must include at least one of breakfast, lunch or dinner'],
    [{ lunch: '13:00', baseVersion: -1 }, 'baseVersion must be between 0 and 999999999999999'],
    [{ lunch: '13:00', mutationId: 'no-sequence' }, 'mutationId must be <deviceId>:<sequence number> (letters, digits and -, a colon, then up to 15 digits)'],
    ['07:00', 'The request body must be a JSON object'],
  ])('rejects %j with a message naming the field', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/users/notificationTimings', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
    expect((await me()).notificationTimings).toEqual({ breakfast: '07:15', lunch: '13:00', dinner: '20:45' });
  });
});

describe('notification timings, one meal at a time', () => {
  it('changes only the meal times sent and answers the new profile version', async () => {
    const before = await call(h.app, 'GET', '/api/users/', { token });
    const version = (before.json['user'] as { version: number }).version;
    const res = await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: { dinner: '21:00' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      message: 'Notification timings saved successfully',
      notificationTimings: { breakfast: '07:15', lunch: '13:00', dinner: '21:00' },
      version: expect.any(Number) as number,
    });
    expect(res.json['version']).toBeGreaterThan(version);
    const after = (await call(h.app, 'GET', '/api/users/', { token })).json['user'] as UserJson & { version: number };
    expect(after.notificationTimings).toEqual({ breakfast: '07:15', lunch: '13:00', dinner: '21:00' });
    expect(after.version).toBe(res.json['version']);
    // Sending the times it already has changes nothing, not even the version.
    const same = await call(h.app, 'POST', '/api/users/notificationTimings', { token, body: { breakfast: '07:15', lunch: '13:00', dinner: '21:00' } });
    expect(same.json['version']).toBe(after.version);
  });
});

describe('glucometer alerts', () => {
  it('saves a weekday capitalised and only once', async () => {
    const res = await call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: 'monday' } });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Glucometer alert saved successfully');
    expect((await me()).glucometerAlerts).toEqual(['Monday']);
    const again = await call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: 'MONDAY' } });
    expect(again.status).toBe(200);
    expect(again.json['message']).toBe('Glucometer alert saved successfully');
    expect((await me()).glucometerAlerts).toEqual(['Monday']);
  });

  it('saves a calendar date', async () => {
    const res = await call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: '2026-12-01' } });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Glucometer alert saved successfully');
    expect((await me()).glucometerAlerts).toEqual(['Monday', '2026-12-01']);
  });

  it.each([
    [{ day: 'Funday' }, 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD'],
    [{ day: '2026-02-30' }, 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD'],
    [{ day: 'Mon' }, 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD'],
    [{ day: '' }, 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD'],
    [{}, 'day is required'],
  ])('rejects %j with 400', async (body, message) => {
    const res = await call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
    expect((await me()).glucometerAlerts).toEqual(['Monday', '2026-12-01']);
  });

  it('removes a day', async () => {
    const res = await call(h.app, 'POST', '/api/users/glucometerAlerts/remove', { token, body: { day: 'Monday' } });
    expect(res.status).toBe(200);
    expect(res.json['message']).toBe('Glucometer alert removed successfully');
    expect((await me()).glucometerAlerts).toEqual(['2026-12-01']);
    const lower = await call(h.app, 'POST', '/api/users/glucometerAlerts/remove', { token, body: { day: '2026-12-01' } });
    expect(lower.status).toBe(200);
    expect((await me()).glucometerAlerts).toEqual([]);
    const bad = await call(h.app, 'POST', '/api/users/glucometerAlerts/remove', { token, body: { day: 'Funday' } });
    expect(bad.status).toBe(400);
  });

  it('two concurrent adds keep both days', async () => {
    const [a, b] = await Promise.all([
      call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: 'tuesday' } }),
      call(h.app, 'POST', '/api/users/glucometerAlerts', { token, body: { day: 'friday' } }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect((await me()).glucometerAlerts.sort()).toEqual(['Friday', 'Tuesday']);
  });
});

/** Keys as a browser's PushSubscription carries them: a P-256 public key and a 16-byte secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  return { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('notification token', () => {
  const rowsOf = (patientId: string) => h.db.select().from(pushTokens).where(eq(pushTokens.patientId, patientId));

  it('stores a registration token string', async () => {
    const res = await call(h.app, 'POST', '/api/users/notificationToken', {
      token,
      body: { token: 'fcm-registration-token-123' },
      headers: { 'x-device-id': 'device-aaaa-1111' },
    });
    expect(res.status).toBe(200);
    expect(typeof res.json['message']).toBe('string');
    const rows = await rowsOf(fx.patientA.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'fcm', token: 'fcm-registration-token-123', deviceId: 'device-aaaa-1111' });
  });

  it('stores a Web Push subscription object', async () => {
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: browserKeys() };
    const res = await call(h.app, 'POST', '/api/users/notificationToken', { token, body: { token: subscription } });
    expect(res.status).toBe(200);
    expect(typeof res.json['message']).toBe('string');
    const webpush = (await rowsOf(fx.patientA.id)).filter((r) => r.provider === 'webpush');
    expect(webpush).toHaveLength(1);
    expect(JSON.parse(webpush[0]?.token ?? 'null')).toEqual(subscription);

    // Saving the same subscription again does not duplicate it.
    const again = await call(h.app, 'POST', '/api/users/notificationToken', { token, body: { token: subscription } });
    expect(again.status).toBe(200);
    expect((await rowsOf(fx.patientA.id)).filter((r) => r.provider === 'webpush')).toHaveLength(1);
  });

  it('accepts a subscription sent as its JSON text', async () => {
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/def', keys: browserKeys() };
    const res = await call(h.app, 'POST', '/api/users/notificationToken', { token, body: { token: JSON.stringify(subscription) } });
    expect(res.status).toBe(200);
    const rows = (await rowsOf(fx.patientA.id)).filter((r) => r.provider === 'webpush').map((r) => JSON.parse(r.token) as unknown);
    expect(rows).toContainEqual(subscription);
  });

  it.each([
    [{ token: {} }],
    [{ token: '' }],
    [{}],
    [{ token: { endpoint: 'http://push.example/insecure', keys: browserKeys() } }],
    [{ token: { endpoint: 'http://127.0.0.1:9/loopback-needs-the-test-setting', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://fcm.googleapis.com/fcm/send/short-key', keys: { ...browserKeys(), p256dh: 'x' } } }],
    [{ token: { endpoint: 'https://fcm.googleapis.com/fcm/send/short-auth', keys: { ...browserKeys(), auth: 'eQ' } } }],
    [
      {
        token: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/not-a-point',
          keys: { ...browserKeys(), p256dh: randomBytes(65).fill(5).toString('base64url') },
        },
      },
    ],
    [{ token: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc' } }],
    [{ token: '{"not":"a subscription"}' }],
    // Issue 17: no endpoint the server would POST to inside the network, or to anything but a push service.
    [{ token: { endpoint: 'https://10.0.0.5/fcm/send/internal', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://[::1]/send/x', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://intranet.hospital.example/api/admin', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://fcm.googleapis.com.evil.example/send/x', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://fcm.googleapis.com:8443/fcm/send/x', keys: browserKeys() } }],
    [{ token: { endpoint: 'https://user:pw@fcm.googleapis.com/fcm/send/x', keys: browserKeys() } }],
    [{ token: '   ' }],
  ])('rejects %j with 400 naming the token', async (body) => {
    const before = (await rowsOf(fx.patientA.id)).length;
    const res = await call(h.app, 'POST', '/api/users/notificationToken', { token, body });
    expect(res.status).toBe(400);
    expect(String(res.json['message'])).toMatch(/token/);
    expect((await rowsOf(fx.patientA.id)).length).toBe(before);
  });

  it('is the patient’s own write: staff get 403', async () => {
    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const res = await call(h.app, 'POST', '/api/users/notificationToken', {
      token: adminToken,
      headers: { 'x-hosp-no': fx.patientA.hospNo },
      body: { token: 'staff-token-xyz' },
    });
    expect(res.status).toBe(403);
    const rows = await h.db.select().from(pushTokens).where(eq(pushTokens.token, 'staff-token-xyz'));
    expect(rows).toHaveLength(0);
  });
});

describe('notification token: device time zone, language and removal', () => {
  const rowsOf = (patientId: string) => h.db.select().from(pushTokens).where(eq(pushTokens.patientId, patientId));
  let token2: string;
  beforeAll(async () => {
    token2 = await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password);
  });

  it('makes a valid device time zone the patient’s and keeps the device language with the token', async () => {
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/tz-1', keys: browserKeys() };
    const res = await call(h.app, 'POST', '/api/users/notificationToken', {
      token: token2,
      body: { token: subscription, timeZone: 'Asia/Kolkata', locale: 'es' },
    });
    expect(res.status).toBe(200);
    const user = (await call(h.app, 'GET', '/api/users/', { token: token2 })).json['user'] as { timeZone: string };
    expect(user.timeZone).toBe('Asia/Kolkata');
    const [row] = (await rowsOf(fx.patientA2.id)).filter((r) => r.token.includes('tz-1'));
    expect(row?.locale).toBe('es');
    // Saved again without a language: the device keeps the one it said before.
    await call(h.app, 'POST', '/api/users/notificationToken', { token: token2, body: { token: subscription } });
    expect((await rowsOf(fx.patientA2.id)).find((r) => r.token.includes('tz-1'))?.locale).toBe('es');
  });

  it.each([
    [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone must be an IANA time zone such as Europe/London or Asia/Kolkata'],
    [{ timeZone: '' }, 'timeZone must not be empty'],
    [{ locale: 'english please' }, 'locale must be a language code such as "en" or "es"'],
  ])('refuses %j with 400 and saves nothing', async (extra, message) => {
    const before = await rowsOf(fx.patientA2.id);
    const res = await call(h.app, 'POST', '/api/users/notificationToken', { token: token2, body: { token: 'fcm-token-for-bad-input', ...extra } });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
    expect(await rowsOf(fx.patientA2.id)).toEqual(before);
    const user = (await call(h.app, 'GET', '/api/users/', { token: token2 })).json['user'] as { timeZone: string };
    expect(user.timeZone).toBe('Asia/Kolkata');
  });

  it('removes this device’s subscription by endpoint or token, and only the patient’s own', async () => {
    const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/remove-me', keys: browserKeys() };
    await call(h.app, 'POST', '/api/users/notificationToken', { token: token2, body: { token: sub } });
    await call(h.app, 'POST', '/api/users/notificationToken', { token: token2, body: { token: 'fcm-remove-me' } });
    const count = async () => (await rowsOf(fx.patientA2.id)).length;
    const start = await count();

    // Another patient cannot remove them.
    for (const body of [{ endpoint: sub.endpoint }, { token: 'fcm-remove-me' }]) {
      const res = await call(h.app, 'POST', '/api/users/notificationToken/remove', { token, body });
      expect(res.status).toBe(200);
    }
    expect(await count()).toBe(start);

    const byEndpoint = await call(h.app, 'POST', '/api/users/notificationToken/remove', { token: token2, body: { endpoint: sub.endpoint } });
    expect(byEndpoint.status).toBe(200);
    expect(byEndpoint.json['message']).toBe('Notification token removed');
    expect(await count()).toBe(start - 1);
    const byToken = await call(h.app, 'POST', '/api/users/notificationToken/remove', { token: token2, body: { token: 'fcm-remove-me' } });
    expect(byToken.status).toBe(200);
    expect(await count()).toBe(start - 2);
    // A subscription's JSON text as the token works too, and removing twice is fine.
    await call(h.app, 'POST', '/api/users/notificationToken', { token: token2, body: { token: sub } });
    const byJson = await call(h.app, 'POST', '/api/users/notificationToken/remove', { token: token2, body: { token: JSON.stringify(sub) } });
    expect(byJson.status).toBe(200);
    expect(await count()).toBe(start - 2);

    const nothing = await call(h.app, 'POST', '/api/users/notificationToken/remove', { token: token2, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.json['message']).toBe('endpoint (of a push subscription) or token is required');
    expect((await call(h.app, 'POST', '/api/users/notificationToken/remove', { body: { token: 'x' } })).status).toBe(401);
  });
});
