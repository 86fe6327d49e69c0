import { createHash } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { HTTPMethods } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes } from '../../tests/fuzz/routes.ts';
import { valid, type Hints, type JsonSchema } from '../../tests/fuzz/schema-arbitrary.ts';
import { otps, sessions } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, outboxCodes, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

const DAY_MS = 24 * 3600_000;
const WEEK_MS = 7 * DAY_MS;
const SESSION_EXPIRED = 'Session Expired. Please login again.';
const OTP_SENT = "Please check admin's email for the OTP.";
const UNKNOWN_HOSP_NO = '999999';

let h: Harness;
let fx: Fixture;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
});
afterAll(() => h.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Moves every code of that number 61 s into the past, so the 60 s send throttle lets a new one through. */
async function ageOtps(hospNo: string): Promise<void> {
  await h.db
    .update(otps)
    .set({ createdAt: sql`${otps.createdAt} - interval '61 seconds'` })
    .where(eq(otps.hospNo, hospNo));
}

/** Sends a code and returns the one new mail that it produced in the outbox. */
async function sendAndRead(hospNo: string): Promise<{ code: string; text: string }> {
  const before = new Set((await outboxCodes(h.dataDir)).map((m) => m.file));
  const res = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo } });
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ message: OTP_SENT });
  const fresh = (await outboxCodes(h.dataDir)).filter((m) => !before.has(m.file));
  expect(fresh).toHaveLength(1);
  const mail = fresh[0];
  if (!mail) throw new Error('no mail in the outbox');
  return mail;
}

/** A 6-digit code that is certainly not `code`. */
const otherCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

/** An inject with `Content-Type: application/json` and an empty body, as the web client sends it. */
async function emptyJsonPost(url: string, token?: string) {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: '',
  });
  return { status: res.statusCode, json: res.json<Record<string, unknown>>() };
}

function expectSessionExpiry(expiresAt: unknown, ms: number, before: number, after: number): void {
  expect(typeof expiresAt).toBe('string');
  const t = Date.parse(String(expiresAt));
  expect(t).toBeGreaterThanOrEqual(before + ms - 1000);
  expect(t).toBeLessThanOrEqual(after + ms + 1000);
}

describe('password login', () => {
  it('returns a token that expires in about 7 days', async () => {
    const before = Date.now();
    const res = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: fx.patientA.hospNo, password: fx.patientA.password } });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(typeof res.json['token']).toBe('string');
    expect(String(res.json['token']).length).toBeGreaterThanOrEqual(22);
    expectSessionExpiry(res.json['expiresAt'], WEEK_MS, before, after);
    const glucose = await call(h.app, 'GET', '/api/glucose', { token: String(res.json['token']) });
    expect(glucose.status).toBe(200);
  });

  it('answers a wrong password and an unknown hospital number identically', async () => {
    const wrong = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: fx.patientA.hospNo, password: 'not-the-password' } });
    const unknown = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: UNKNOWN_HOSP_NO, password: fx.patientA.password } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ message: 'Invalid hospital number or password.' });
    expect(unknown.body).toBe(wrong.body);
  });

  it('stores only a hash of the token', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    const rows = await h.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.tokenHash).not.toBe(token);
      expect(r.tokenHash).not.toContain(token);
    }
    const [mine] = await h.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    expect(mine?.patientId).toBe(fx.patientA.id);
  });
});

describe('one-time code', () => {
  it('answers the same for known and unknown numbers and mails the code only to the hospital admin', async () => {
    const before = (await outboxCodes(h.dataDir)).length;
    const known = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: fx.patientA.hospNo } });
    const unknown = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: UNKNOWN_HOSP_NO } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.json).toEqual({ message: OTP_SENT });
    expect(unknown.body).toBe(known.body);

    const mails = (await outboxCodes(h.dataDir)).slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.code).toMatch(/^\d{6}$/);
    expect(mail?.text).toMatch(/^To: .*admin@test\.hospital/m);
    expect(mail?.text).toContain(fx.patientA.hospNo);
    expect(mail?.text).not.toContain(UNKNOWN_HOSP_NO);

    // The code works exactly once.
    const t0 = Date.now();
    const login = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: mail?.code } });
    expect(login.status).toBe(200);
    expect(typeof login.json['token']).toBe('string');
    expectSessionExpiry(login.json['expiresAt'], WEEK_MS, t0, Date.now());
    expect((await call(h.app, 'GET', '/api/glucose', { token: String(login.json['token']) })).status).toBe(200);

    const again = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: mail?.code } });
    expect(again.status).toBe(401);
    expect(typeof again.json['message']).toBe('string');
    expect(again.json['token']).toBeUndefined();
  });

  it('throttles a second request within 60 s, for unknown numbers too', async () => {
    // Both numbers were sent a code by the previous test a moment ago.
    const known = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: fx.patientA.hospNo } });
    const unknown = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: UNKNOWN_HOSP_NO } });
    expect(known.status).toBe(429);
    expect(unknown.status).toBe(429);
    expect(String(known.json['message'])).toMatch(/^Please wait \d+ seconds before requesting another code\.$/);
    expect(String(unknown.json['message'])).toMatch(/^Please wait \d+ seconds before requesting another code\.$/);
    // A fresh number is throttled after its first request as well.
    const first = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: 'UNKNOWN-2' } });
    const second = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: 'UNKNOWN-2' } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
  });

  it('answers a wrong code for a known number like any code for an unknown one', async () => {
    await ageOtps(fx.patientA.hospNo);
    await ageOtps(UNKNOWN_HOSP_NO);
    const { code } = await sendAndRead(fx.patientA.hospNo);
    expect((await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: UNKNOWN_HOSP_NO } })).status).toBe(200);
    const wrong = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: otherCode(code) } });
    const unknown = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: UNKNOWN_HOSP_NO, otp: code } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ message: 'Invalid hospital number or one-time code.' });
    expect(unknown.body).toBe(wrong.body);
    // One wrong try does not kill the code.
    const ok = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: code } });
    expect(ok.status).toBe(200);
  });

  it('kills the code after 5 wrong tries', async () => {
    await ageOtps(fx.patientA.hospNo);
    const { code } = await sendAndRead(fx.patientA.hospNo);
    for (let i = 1; i <= 5; i++) {
      const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: otherCode(code, i) } });
      expect(res.status).toBe(401);
      expect(typeof res.json['message']).toBe('string');
    }
    const right = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: code } });
    expect(right.status).toBe(401);
    expect(right.json).toEqual({ message: 'This code has expired or was tried too many times. Please request a new code.' });
    expect(right.json['token']).toBeUndefined();
  });

  it('refuses an expired code', async () => {
    await ageOtps(fx.patientA.hospNo);
    const { code } = await sendAndRead(fx.patientA.hospNo);
    const [latest] = await h.db.select().from(otps).where(eq(otps.hospNo, fx.patientA.hospNo)).orderBy(desc(otps.createdAt)).limit(1);
    if (!latest) throw new Error('no code row');
    // A fresh code lives 10 minutes.
    expect(latest.expiresAt.getTime() - latest.createdAt.getTime()).toBe(10 * 60_000);
    // The code itself is not stored.
    expect(latest.codeHash).not.toContain(code);
    await h.db
      .update(otps)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(otps.id, latest.id));
    const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: code } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: 'This code has expired or was tried too many times. Please request a new code.' });
  });

  it('only the newest code counts', async () => {
    await ageOtps(fx.patientA.hospNo);
    const first = await sendAndRead(fx.patientA.hospNo);
    await ageOtps(fx.patientA.hospNo);
    const second = await sendAndRead(fx.patientA.hospNo);
    if (first.code !== second.code) {
      const old = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: first.code } });
      expect(old.status).toBe(401);
    }
    const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: second.code } });
    expect(res.status).toBe(200);
  });

  it('accepts only a 6-digit code', async () => {
    for (const otp of ['12345', '1234567', 'abcdef']) {
      const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: 'otp must be the 6-digit code' });
    }
    const none = await call(h.app, 'POST', '/api/auth/sendOtp', { body: {} });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ message: 'hospNo is required' });
  });
});

describe('access key', () => {
  let adminToken: string;
  beforeAll(async () => {
    adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  });

  const issue = async (hospNo: string, body: object = {}) => {
    const res = await call(h.app, 'POST', `/api/admin/patients/${hospNo}/access-key`, { token: adminToken, body });
    expect(res.status).toBe(200);
    const accessKey = res.json['accessKey'];
    const expiresAt = res.json['expiresAt'];
    if (typeof accessKey !== 'string' || typeof expiresAt !== 'string') throw new Error(`bad access-key answer: ${res.body}`);
    return { accessKey, expiresAt };
  };

  it('logs in with the key; the session never outlives the key', async () => {
    const key = await issue(fx.patientA.hospNo, { expiresInDays: 1 });
    expect(Date.parse(key.expiresAt)).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: key.accessKey } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(typeof res.json['token']).toBe('string');
    const sessionEnd = Date.parse(String(res.json['expiresAt']));
    expect(sessionEnd).toBeLessThanOrEqual(Date.parse(key.expiresAt));
    expect(sessionEnd).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    expect((await call(h.app, 'GET', '/api/glucose', { token: String(res.json['token']) })).status).toBe(200);
  });

  it('caps a long-lived key at the 7-day session', async () => {
    const key = await issue(fx.patientA.hospNo, { expiresInDays: 30 });
    const t0 = Date.now();
    const res = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: key.accessKey } });
    expect(res.status).toBe(200);
    expectSessionExpiry(res.json['expiresAt'], WEEK_MS, t0, Date.now());
    expect(Date.parse(String(res.json['expiresAt']))).toBeLessThanOrEqual(Date.parse(key.expiresAt));
  });

  it('accepts the key in lower case and without dashes, refuses a wrong one', async () => {
    const key = await issue(fx.patientA.hospNo);
    const sloppy = key.accessKey.toLowerCase().replaceAll('-', '');
    expect(sloppy).not.toBe(key.accessKey);
    const ok = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: sloppy } });
    expect(ok.status).toBe(200);
    expect(typeof ok.json['token']).toBe('string');

    const wrong = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: 'AAAAA-BBBBB-CCCCC-DDDDD' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ message: 'Invalid hospital number or access key.' });
    // Another patient's number with this key, or an unknown number: the same answer.
    const otherPatient = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA2.hospNo, accessKey: key.accessKey } });
    const unknown = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: UNKNOWN_HOSP_NO, accessKey: key.accessKey } });
    expect(otherPatient.status).toBe(401);
    expect(otherPatient.body).toBe(wrong.body);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toBe(wrong.body);
  });

  it('a new key revokes the old one', async () => {
    const oldKey = await issue(fx.patientA.hospNo);
    const newKey = await issue(fx.patientA.hospNo);
    expect(newKey.accessKey).not.toBe(oldKey.accessKey);
    const old = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: oldKey.accessKey } });
    expect(old.status).toBe(401);
    expect(old.json).toEqual({ message: 'Invalid hospital number or access key.' });
    const fresh = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, accessKey: newKey.accessKey } });
    expect(fresh.status).toBe(200);
  });
});

describe('validate and logout', () => {
  it('validates a live token, and not after logout', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    const v = await call(h.app, 'POST', '/api/auth/validate', { token });
    expect(v.status).toBe(200);
    expect(v.headers['cache-control']).toBe('no-store');
    expect(v.json['valid']).toBe(true);
    expect(Date.parse(String(v.json['expiresAt']))).toBeGreaterThan(Date.now() + WEEK_MS - 60_000);

    const out = await call(h.app, 'POST', '/api/auth/logout', { token });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ message: 'You have successfully logged out.' });

    const after = await call(h.app, 'POST', '/api/auth/validate', { token });
    expect(after.status).toBe(200);
    expect(after.json).toEqual({ valid: false });
    const data = await call(h.app, 'GET', '/api/glucose', { token });
    expect(data.status).toBe(401);
    expect(data.json).toEqual({ message: SESSION_EXPIRED });
    // Logging out twice answers the same.
    const twice = await call(h.app, 'POST', '/api/auth/logout', { token });
    expect(twice.status).toBe(200);
    expect(twice.json).toEqual({ message: 'You have successfully logged out.' });
  });

  it('says not valid without a token or with a forged one', async () => {
    const none = await call(h.app, 'POST', '/api/auth/validate');
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ valid: false });
    const forged = await call(h.app, 'POST', '/api/auth/validate', { token: 'x'.repeat(43) });
    expect(forged.status).toBe(200);
    expect(forged.json).toEqual({ valid: false });
  });

  it('treats an expired session as logged out', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    expect((await call(h.app, 'GET', '/api/glucose', { token })).status).toBe(200);
    const updated = await h.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)))
      .returning({ id: sessions.id });
    expect(updated).toHaveLength(1);
    const v = await call(h.app, 'POST', '/api/auth/validate', { token });
    expect(v.status).toBe(200);
    expect(v.json).toEqual({ valid: false });
    const data = await call(h.app, 'GET', '/api/glucose', { token });
    expect(data.status).toBe(401);
    expect(data.json).toEqual({ message: SESSION_EXPIRED });
  });

  it('accepts Content-Type: application/json with an empty body', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    const v = await emptyJsonPost('/api/auth/validate', token);
    expect(v.status).toBe(200);
    expect(v.json['valid']).toBe(true);
    const anonymous = await emptyJsonPost('/api/auth/validate');
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toEqual({ valid: false });
    const out = await emptyJsonPost('/api/auth/logout', token);
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ message: 'You have successfully logged out.' });
    expect((await emptyJsonPost('/api/auth/validate', token)).json).toEqual({ valid: false });
  });
});

describe('updatePassword', () => {
  it('changes the password and revokes the other sessions, but not the asking one', async () => {
    const { hospNo, password: oldPassword } = fx.patientA2;
    const newPassword = 'A-brand-new-secret-9';
    const asking = await loginPatient(h.app, hospNo, oldPassword);
    const other = await loginPatient(h.app, hospNo, oldPassword);
    const bystander = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);

    const res = await call(h.app, 'POST', '/api/auth/updatePassword', { token: asking, body: { hospNo, currPassword: oldPassword, password: newPassword } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'You have successfully reset your password.' });

    const oldLogin = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: oldPassword } });
    expect(oldLogin.status).toBe(401);
    expect(oldLogin.json).toEqual({ message: 'Invalid hospital number or password.' });
    const newLogin = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: newPassword } });
    expect(newLogin.status).toBe(200);

    expect((await call(h.app, 'POST', '/api/auth/validate', { token: asking })).json['valid']).toBe(true);
    expect((await call(h.app, 'GET', '/api/glucose', { token: asking })).status).toBe(200);
    expect((await call(h.app, 'POST', '/api/auth/validate', { token: other })).json).toEqual({ valid: false });
    const otherData = await call(h.app, 'GET', '/api/glucose', { token: other });
    expect(otherData.status).toBe(401);
    expect(otherData.json).toEqual({ message: SESSION_EXPIRED });
    // Another patient's sessions are untouched.
    expect((await call(h.app, 'POST', '/api/auth/validate', { token: bystander })).json['valid']).toBe(true);

    fx.patientA2.password = newPassword;
  });

  it('refuses a wrong current password', async () => {
    const { hospNo, password } = fx.patientA2;
    const res = await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: 'wrong-password', password: 'Another-secret-77' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: 'Invalid hospital number or password.' });
    const unknown = await call(h.app, 'POST', '/api/auth/updatePassword', {
      body: { hospNo: UNKNOWN_HOSP_NO, currPassword: password, password: 'Another-secret-77' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toBe(res.body);
    // The password did not change.
    expect((await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password } })).status).toBe(200);
  });

  it('refuses a too-short new password with a message naming the field', async () => {
    const { hospNo, password } = fx.patientA2;
    const res = await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: password, password: 'short' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'password must be at least 8 characters long' });
    expect((await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password } })).status).toBe(200);
  });

  it('refuses a common, sequential or own-context new password (NIST SP 800-63B) with its reason, and changes nothing', async () => {
    const { hospNo, password } = fx.patientA2;
    for (const [tried, reason] of [
      ['password', 'common'],
      ['Password1', 'common'],
      ['12345678', 'common'],
      ['abcdefghij', 'repetitive'],
      [`my-${hospNo}-pass`, 'context'],
    ] as const) {
      const res = await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: password, password: tried } });
      expect(res.status, tried).toBe(400);
      expect(res.json, tried).toMatchObject({ code: 'weak-password', reason });
      expect(res.json['message'], tried).toMatch(/Choose another one/);
    }
    expect((await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password } })).status).toBe(200);
    // A wrong current password is told as before: the list is asked only of the account's owner.
    const wrong = await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: 'not-the-password', password: 'password' } });
    expect(wrong.status).toBe(401);
    // 64 characters and more are taken, spaces and all.
    const long = 'a sentence a patient can remember, with spaces, longer than sixty-four characters';
    expect((await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: password, password: long } })).status).toBe(200);
    expect((await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: long } })).status).toBe(200);
    expect((await call(h.app, 'POST', '/api/auth/updatePassword', { body: { hospNo, currPassword: long, password } })).status).toBe(200);
  });
});

describe('admin and doctor authentication', () => {
  it('logs an admin in and refuses a bad password or unknown e-mail the same way', async () => {
    const ok = await call(h.app, 'POST', '/api/admin/login', { body: { email: fx.adminEmail, password: fx.adminPassword } });
    expect(ok.status).toBe(200);
    expect(typeof ok.json['token']).toBe('string');
    expect(ok.json['admin']).toMatchObject({ email: fx.adminEmail, role: 'admin' });
    const hospitals = (ok.json['admin'] as { hospitals: { _id: string }[] }).hospitals.map((x) => x._id);
    expect(hospitals).toEqual([fx.hospitalA.id]);

    const bad = await call(h.app, 'POST', '/api/admin/login', { body: { email: fx.adminEmail, password: 'wrong-password' } });
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ message: 'Invalid email or password' });
    const unknown = await call(h.app, 'POST', '/api/admin/login', { body: { email: 'nobody@test.hospital', password: fx.adminPassword } });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toBe(bad.body);
  });

  it('an admin token stops working after logout', async () => {
    const token = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect((await call(h.app, 'GET', '/api/admin/users', { token })).status).toBe(200);
    const out = await call(h.app, 'POST', '/api/admin/logout', { token });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ message: 'You have successfully logged out.' });
    const after = await call(h.app, 'GET', '/api/admin/users', { token });
    expect(after.status).toBe(401);
    expect(after.json).toEqual({ message: SESSION_EXPIRED });
  });

  it('each logout ends only its own kind of session and says so for any other (issue 48)', async () => {
    const patient = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const patientAtStaff = await call(h.app, 'POST', '/api/admin/logout', { token: patient });
    expect(patientAtStaff.status).toBe(403);
    expect(patientAtStaff.json['message']).toBe('This is for hospital staff only.');
    const adminAtPatient = await call(h.app, 'POST', '/api/auth/logout', { token: admin });
    expect(adminAtPatient.status).toBe(403);
    expect(adminAtPatient.json['message']).toBe('This is for patients only. Staff log out in the staff area.');
    // Neither ended.
    expect((await call(h.app, 'POST', '/api/auth/validate', { token: patient })).json['valid']).toBe(true);
    expect((await call(h.app, 'GET', '/api/admin/users', { token: admin })).status).toBe(200);

    // A doctor link is no session: the staff logout says it stays valid, and it does.
    const created = await call(h.app, 'POST', '/api/admin/doctor-tokens', {
      token: admin,
      body: { doctorName: 'Dr. Stays', hospitalIds: [fx.hospitalA.id], expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const doctor = String(created.json['token']);
    const out = await call(h.app, 'POST', '/api/admin/logout', { token: doctor });
    expect(out.status).toBe(400);
    expect(out.json).toEqual({
      code: 'doctor-link',
      message: 'A doctor link is not ended by logging out: it stays valid until it expires or an admin revokes it. This device forgets it.',
    });
    expect((await call(h.app, 'POST', '/api/admin/verifyToken', { token: doctor })).status).toBe(200);
    expect((await call(h.app, 'POST', '/api/auth/logout', { token: doctor })).status).toBe(403);
  });

  it('verifies a doctor token until it is revoked', async () => {
    const badMessage = { message: 'Invalid or expired doctor token. Contact admin.' };
    const forged = await call(h.app, 'POST', '/api/admin/verifyToken', { token: 'y'.repeat(43) });
    expect(forged.status).toBe(401);
    expect(forged.json).toEqual(badMessage);
    const none = await call(h.app, 'POST', '/api/admin/verifyToken');
    expect(none.status).toBe(401);
    expect(none.json).toEqual(badMessage);

    const adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    // An admin session is not a doctor token.
    const asAdmin = await call(h.app, 'POST', '/api/admin/verifyToken', { token: adminToken });
    expect(asAdmin.status).toBe(401);
    expect(asAdmin.json).toEqual(badMessage);

    const created = await call(h.app, 'POST', '/api/admin/doctor-tokens', {
      token: adminToken,
      body: { doctorName: 'Dr. Test', hospitalIds: [fx.hospitalA.id], expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() },
    });
    expect(created.status).toBe(201);
    const doctorToken = created.json['token'];
    const id = (created.json['data'] as { _id?: unknown } | undefined)?._id;
    if (typeof doctorToken !== 'string' || typeof id !== 'string') throw new Error(`bad doctor-token answer: ${created.body}`);

    const ok = await call(h.app, 'POST', '/api/admin/verifyToken', { token: doctorToken });
    expect(ok.status).toBe(200);
    expect(ok.json['message']).toBe('You have successfully logged in as doctor.');
    expect(ok.json['doctor']).toMatchObject({ name: 'Dr. Test', role: 'doctor' });

    const revoked = await call(h.app, 'POST', `/api/admin/doctor-tokens/${id}/revoke`, { token: adminToken });
    expect(revoked.status).toBe(200);
    const after = await call(h.app, 'POST', '/api/admin/verifyToken', { token: doctorToken });
    expect(after.status).toBe(401);
    expect(after.json).toEqual(badMessage);
  });
});

describe('rate limiting', () => {
  let limited: Harness;
  let lfx: Fixture;
  beforeAll(async () => {
    limited = await createHarness({ AUTH_RATE_LIMIT: '3' });
    lfx = await seedFixture(limited.db);
  });
  afterAll(() => limited.close());

  it('answers the 4th login attempt within a minute from the same client with 429', async () => {
    const attempt = (remoteAddress?: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/loginWithPassword',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        payload: JSON.stringify({ hospNo: lfx.patientA.hospNo, password: 'wrong-password' }),
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const fourth = await attempt();
    expect(fourth.statusCode).toBe(429);
    expect(String(fourth.json<{ message: unknown }>().message)).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    // Even the right password is refused while the limit holds.
    const right = await call(limited.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: lfx.patientA.hospNo, password: lfx.patientA.password } });
    expect(right.status).toBe(429);
    // Another client is not affected.
    expect((await attempt('10.1.2.3')).statusCode).toBe(401);
  });
});

describe('a temporary password (issue 48)', () => {
  let t: Harness;
  let tfx: Fixture;
  beforeAll(async () => {
    t = await createHarness();
    tfx = await seedFixture(t.db);
  });
  afterAll(() => t.close());

  it('opens a session that may only change the password: every record is refused (403) until then, and nothing is written', async () => {
    const { hospNo } = tfx.patientA;
    const admin = await loginAdmin(t.app, tfx.adminEmail, tfx.adminPassword);
    // A session of the patient's own from before keeps working: only the temporary one is confined.
    const before = await loginPatient(t.app, hospNo, tfx.patientA.password);
    const set = await call(t.app, 'POST', `/api/admin/patients/${hospNo}/temporary-password`, { token: admin });
    expect(set.status).toBe(200);
    const temporary = String(set.json['temporaryPassword']);

    const login = await call(t.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: temporary } });
    expect(login.status).toBe(200);
    expect(login.json['mustChangePassword']).toBe(true);
    const token = String(login.json['token']);

    const reading = { _id: '018f0000-0000-7000-8000-00000000a001', type: 'Fasting', value: 120 };
    for (const [method, url, body] of [
      ['GET', '/api/glucose', undefined],
      ['GET', '/api/users', undefined],
      ['GET', '/api/user/medicines/taken', undefined],
      ['POST', '/api/glucose/add', reading],
      ['POST', '/api/batch', { mutations: [{ path: '/glucose/add', body: reading }] }],
    ] as const) {
      const res = await call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });
      expect({ url, method, status: res.status, code: res.json['code'] }).toEqual({ url, method, status: 403, code: 'password-change-required' });
      expect(res.json['message']).toMatch(/temporary password/);
    }
    expect((await call(t.app, 'GET', '/api/glucose', { token: before })).json).not.toContainEqual(expect.objectContaining({ _id: reading._id }));
    // What it may do: ask whether it is live, change the password, log out.
    expect((await call(t.app, 'POST', '/api/auth/validate', { token })).json['valid']).toBe(true);

    const changed = await call(t.app, 'POST', '/api/auth/updatePassword', {
      token,
      body: { hospNo, currPassword: temporary, password: 'a password of my own choosing' },
    });
    expect(changed.status).toBe(200);
    // The same session is a full one now; the other sessions ended with the old password.
    expect((await call(t.app, 'GET', '/api/glucose', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/glucose/add', { token, body: reading })).status).toBe(201);
    expect((await call(t.app, 'GET', '/api/glucose', { token: before })).status).toBe(401);
    // Logging in with the new password opens a full session at once.
    const again = await call(t.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: 'a password of my own choosing' } });
    expect(again.json['mustChangePassword']).toBe(false);
    expect((await call(t.app, 'GET', '/api/glucose', { token: String(again.json['token']) })).status).toBe(200);
  });

  it('is confined on every route that checks a token, found from the routes themselves: each answers 403 to a well-formed call', async () => {
    const { hospNo } = tfx.patientA;
    const admin = await loginAdmin(t.app, tfx.adminEmail, tfx.adminPassword);
    const set = await call(t.app, 'POST', `/api/admin/patients/${hospNo}/temporary-password`, { token: admin });
    const temporary = String(set.json['temporaryPassword']);
    const login = await call(t.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password: temporary } });
    expect(login.json['mustChangePassword']).toBe(true);
    const token = String(login.json['token']);
    // Well-formed calls (each body, query and path drawn from the route's own schemas), so that each
    // passes validation and meets the route's guard: a new route is tried without a line here.
    const hints: Hints = { byName: { hospNo: [hospNo] }, byFormat: {}, now: Date.now() };
    const sample = (schema: JsonSchema) => fc.sample(valid(schema, hints), { numRuns: 1, seed: 48 })[0];
    const answers: string[] = [];
    for (const r of discoverRoutes().filter((x) => x.guarded)) {
      const params = (r.params ? sample(r.params) : {}) as Record<string, unknown>;
      const path = r.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? hospNo)));
      const query = r.querystring
        ? new URLSearchParams(Object.entries(sample(r.querystring) as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
        : undefined;
      const url = query && query.size > 0 ? `${path}?${query}` : path;
      const res = await call(t.app, r.method as HTTPMethods, url, {
        token,
        headers: { accept: 'application/json, text/event-stream' },
        ...(r.body ? { body: sample(r.body) } : {}),
      });
      // The patient's own routes say why; the staff's refuse any patient.
      const why = res.json['code'] === 'password-change-required' ? 'password-change-required' : String(res.json['message']);
      answers.push(`${r.method} ${r.path}: ${res.status} ${res.status === 403 ? why : JSON.stringify(res.json).slice(0, 120)}`);
    }
    const reached = answers.filter((a) => !/: 403 (password-change-required|This is for hospital staff only\.)$/.test(a));
    expect(reached).toEqual([]);
    expect(answers.filter((a) => a.endsWith('password-change-required')).length).toBeGreaterThan(25);
  });
});
