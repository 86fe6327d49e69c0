import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { ApiError, createApiClient } from './api-client.ts';
import { createStaffSession, MSG_DOCTOR_INVALID, type StaffVault, type StoredStaff } from './staff-session.ts';

// Against the real server on loopback: the session keeps exactly what the server vouched for.
let h: Harness;
let fx: Fixture;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => h.close());

function setup(now: () => number = Date.now) {
  let stored: StoredStaff | undefined;
  let ended = 0;
  const vault: StaffVault = { load: async () => stored, save: async (s) => void (stored = s), clear: async () => void (stored = undefined) };
  const holder: { token: () => string | undefined } = { token: () => undefined };
  const api = createApiClient({ baseUrl, getToken: () => holder.token() });
  const session = createStaffSession({ api, vault, onEnded: async () => void ended++, now });
  holder.token = session.token;
  return { session, vault, api, stored: () => stored, ended: () => ended };
}

async function doctorToken(expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString()): Promise<string> {
  const admin = setup();
  await admin.session.loginAdmin(fx.adminEmail, fx.adminPassword);
  const res = await admin.api.post<{ token: string }>('/admin/doctor-tokens', { doctorName: 'Dr Test', hospitalIds: [fx.hospitalA.id], expiresAt });
  return res.token;
}

describe('staff session', () => {
  it('an admin login stores the session, with its hospitals, for at most 24 hours', async () => {
    const s = setup();
    const { staff } = await s.session.loginAdmin(fx.adminEmail, fx.adminPassword);
    expect(staff).toMatchObject({ role: 'admin', email: fx.adminEmail, hospitals: [{ _id: fx.hospitalA.id, name: fx.hospitalA.name }] });
    expect(s.stored()).toEqual(staff);
    expect(s.session.state).toEqual({ status: 'logged-in', staff });
    expect(Date.parse(staff.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    // The token is a real one: a staff call with it succeeds.
    const users = await s.api.get<{ total: number }>('/admin/users');
    expect(users.total).toBe(2);
  });

  it('a wrong password gives the server message and leaves nobody logged in', async () => {
    const s = setup();
    await s.session.restore();
    const err = await s.session.loginAdmin(fx.adminEmail, 'not-the-password').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, message: 'Invalid email or password' });
    expect(s.session.state).toEqual({ status: 'logged-out' });
    expect(s.stored()).toBeUndefined();
  });

  it('a login that needs the second factor says so by its code, logs nobody in, and logs in with the code (issue 48)', async () => {
    const { staffRepo } = await import('../server/repositories/staff.ts');
    const { hashPassword } = await import('../server/lib/crypto.ts');
    const OTPAuth = await import('otpauth');
    const who = { email: 'second.step@test.hospital', password: 'Second-step-pass-9' };
    const admin = await staffRepo.insertAdmin(h.db, { email: who.email, name: 'Second Step', passwordHash: await hashPassword(who.password) });
    await staffRepo.grantHospitals(h.db, admin.id, [fx.hospitalA.id]);
    const s = setup();
    await s.session.restore();
    const started = await s.session.mfaSetup(who.email, who.password);
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(started.secret) }).generate();
    const set = await s.session.loginAdmin(who.email, who.password, { code });
    expect(set.recoveryCodes).toHaveLength(10);
    await s.session.logout();
    const err = await s.session.loginAdmin(who.email, who.password).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, code: 'mfa-required' });
    expect(s.session.state).toEqual({ status: 'logged-out' });
    const recovered = await s.session.loginAdmin(who.email, who.password, { recoveryCode: set.recoveryCodes?.[0] ?? '' });
    expect(recovered.recoveryCodesLeft).toBe(9);
    expect(s.session.state.status).toBe('logged-in');
  });

  it('a doctor token the server verifies logs in a doctor', async () => {
    const token = await doctorToken();
    const s = setup();
    const staff = await s.session.loginDoctor(token);
    expect(staff).toMatchObject({ role: 'doctor', name: 'Dr Test', token, hospitals: [{ _id: fx.hospitalA.id }] });
    expect(s.stored()).toEqual(staff);
    expect((await s.api.get<{ total: number }>(`/admin/users?hospitalId=${fx.hospitalA.id}`)).total).toBe(2);
  });

  it('an invalid doctor token gives the spec message and ends a doctor session present before', async () => {
    const s = setup();
    await s.session.loginDoctor(await doctorToken());
    const err = await s.session.loginDoctor('x'.repeat(43)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(MSG_DOCTOR_INVALID);
    expect(s.session.state).toEqual({ status: 'logged-out' });
    expect(s.stored()).toBeUndefined();
    expect(s.ended()).toBe(1);
  });

  it('restoring a stored session past its expiry ends it; a current one comes back', async () => {
    let clock = Date.now();
    const first = setup(() => clock);
    const { staff } = await first.session.loginAdmin(fx.adminEmail, fx.adminPassword);

    const again = setup(() => clock);
    await again.vault.save(staff);
    expect(await again.session.restore()).toEqual({ status: 'logged-in', staff });

    clock = Date.parse(staff.expiresAt) + 1;
    const later = setup(() => clock);
    await later.vault.save(staff);
    expect(await later.session.restore()).toEqual({ status: 'logged-out' });
    expect(later.stored()).toBeUndefined();
    expect(later.ended()).toBe(1);
  });

  it('logout clears the vault and the server forgets the token', async () => {
    const s = setup();
    const { staff } = await s.session.loginAdmin(fx.adminEmail, fx.adminPassword);
    await s.session.logout();
    expect(s.stored()).toBeUndefined();
    expect(s.session.state).toEqual({ status: 'logged-out' });
    const stale = await createApiClient({ baseUrl, getToken: () => staff.token })
      .get('/admin/users')
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({ status: 401 });
  });
});
