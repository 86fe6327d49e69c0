// A patient session in use slides forward (so an active patient is not logged out with writes
// unsent), never past 30 days from its login and never past the access key it was opened with.
// Time passing is simulated by moving the session's own timestamps into the past.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema.ts';
import { sha256 } from '../lib/crypto.ts';
import { PATIENT_SESSION_MAX_MS, PATIENT_SESSION_MS } from '../services/auth-service.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

const DAY = 24 * 3600_000;

let h: Harness;
let fx: Fixture;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
});
afterAll(() => h.close());

/** Sets the session's login time and end relative to now: as if that much time had passed. */
async function age(token: string, times: { loggedInAgo: number; endsIn: number }): Promise<void> {
  const now = Date.now();
  await h.db
    .update(sessions)
    .set({ createdAt: new Date(now - times.loggedInAgo), expiresAt: new Date(now + times.endsIn) })
    .where(eq(sessions.tokenHash, sha256(token)));
}

async function storedEnd(token: string): Promise<number> {
  const [row] = await h.db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, sha256(token)));
  return row?.expiresAt.getTime() ?? Number.NaN;
}

async function validate(token: string): Promise<{ valid: boolean; expiresAt?: string }> {
  const res = await call(h.app, 'POST', '/api/auth/validate', { token });
  expect(res.status).toBe(200);
  return res.json as { valid: boolean; expiresAt?: string };
}

const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(60_000);

describe('sliding patient sessions', () => {
  it('states the hard maximum: 30 days from login', () => {
    expect(PATIENT_SESSION_MAX_MS).toBe(30 * DAY);
    expect(PATIENT_SESSION_MS).toBe(7 * DAY);
  });

  it('renews a session in use once less than 6 days are left, to 7 days from now', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await age(token, { loggedInAgo: 2 * DAY, endsIn: 5 * DAY });
    const v = await validate(token);
    expect(v.valid).toBe(true);
    near(Date.parse(String(v.expiresAt)), Date.now() + 7 * DAY);
    near(await storedEnd(token), Date.now() + 7 * DAY);
  });

  it('renews on any patient request, not only validate', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await age(token, { loggedInAgo: 9 * DAY, endsIn: 12 * 3600_000 });
    expect((await call(h.app, 'GET', '/api/glucose', { token })).status).toBe(200);
    near(await storedEnd(token), Date.now() + 7 * DAY);
  });

  it('does not write while more than 6 days are left', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await age(token, { loggedInAgo: 12 * 3600_000, endsIn: 6.5 * DAY });
    const before = await storedEnd(token);
    await validate(token);
    expect(await storedEnd(token)).toBe(before);
  });

  it('never goes beyond 30 days from login, and then ends', async () => {
    const token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
    await age(token, { loggedInAgo: 27 * DAY, endsIn: 3600_000 });
    const v = await validate(token);
    near(Date.parse(String(v.expiresAt)), Date.now() + 3 * DAY);
    // Days later, at the very end of the 30 days, there is nothing more to renew.
    await age(token, { loggedInAgo: 30 * DAY - 60_000, endsIn: 60_000 });
    const last = await validate(token);
    near(Date.parse(String(last.expiresAt)), Date.now() + 60_000);
    await age(token, { loggedInAgo: 30 * DAY + 60_000, endsIn: -60_000 });
    expect(await validate(token)).toEqual({ valid: false });
    expect((await call(h.app, 'GET', '/api/glucose', { token })).status).toBe(401);
  });

  it('never outlives the access key it was opened with', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const issued = await call(h.app, 'POST', `/api/admin/patients/${fx.patientA2.hospNo}/access-key`, { token: admin, body: { expiresInDays: 4 } });
    const keyEnd = Date.parse(String(issued.json['expiresAt']));
    const login = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA2.hospNo, accessKey: String(issued.json['accessKey']) } });
    const token = String(login.json['token']);
    // A day left: renewal would reach 7 days from now, past the key's end in 4 days.
    await age(token, { loggedInAgo: DAY, endsIn: DAY });
    const v = await validate(token);
    expect(Date.parse(String(v.expiresAt))).toBeLessThanOrEqual(keyEnd);
    near(Date.parse(String(v.expiresAt)), keyEnd);
  });

  it('leaves staff sessions as they are', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    await age(admin, { loggedInAgo: 20 * 3600_000, endsIn: 4 * 3600_000 });
    const before = await storedEnd(admin);
    await validate(admin);
    expect(await storedEnd(admin)).toBe(before);
  });
});
