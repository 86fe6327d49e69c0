// Issue 48, item 2: a second factor for staff — an authenticator app (TOTP) with recovery codes,
// set up when an admin chooses or at the first login after their hospital asks for it.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_INVALID_CODE, MFA_REQUIRED_CODE, MFA_SETUP_REQUIRED_CODE, RECOVERY_CODE_COUNT } from '../../schemas/auth.ts';
import { hashPassword } from '../lib/crypto.ts';
import { staffRepo } from '../repositories/staff.ts';
import { call, createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
const nurse = { email: 'nurse.admin@test.hospital', password: 'Nurse-admin-pass-7' };

/** The code an authenticator app with this secret shows `offsetS` seconds from now. */
const codeOf = (secret: string, offsetS = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetS * 1000 });
const login = (body: Record<string, unknown>) => call(h.app, 'POST', '/api/admin/login', { body });
const setup = (email: string, password: string) => call(h.app, 'POST', '/api/admin/mfa/setup', { body: { email, password } });
const hospitalsWith = (token: string) => call(h.app, 'GET', '/api/admin/hospitals', { token });

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  const admin = await staffRepo.insertAdmin(h.db, { email: nurse.email, name: 'Nurse Admin', passwordHash: await hashPassword(nurse.password) });
  await staffRepo.grantHospitals(h.db, admin.id, [fx.hospitalA.id]);
});
afterAll(() => h.close());

describe('an admin who sets up an authenticator app', () => {
  let secret = '';
  let firstCode = '';
  let recoveryCodes: string[] = [];

  it('signs in with the password alone before, and the answer says there is no second factor', async () => {
    const res = await login({ email: fx.adminEmail, password: fx.adminPassword });
    expect(res.status).toBe(200);
    expect((res.json['admin'] as { mfa: boolean }).mfa).toBe(false);
  });

  it('starts the setup with the password: a secret, its otpauth URI and a QR code; a wrong password gets nothing', async () => {
    expect((await setup(fx.adminEmail, 'wrong-password')).status).toBe(401);
    const res = await setup(fx.adminEmail, fx.adminPassword);
    expect(res.status).toBe(200);
    secret = String(res.json['secret']);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(String(res.json['uri'])).toMatch(/^otpauth:\/\/totp\/Eddy:admin%40test\.hospital\?/);
    expect(String(res.json['qrCode'])).toMatch(/^data:image\/png;base64,/);
    // Not confirmed yet: the password alone still signs in.
    expect((await login({ email: fx.adminEmail, password: fx.adminPassword })).status).toBe(200);
  });

  it('confirms it with the first code: a wrong one is refused, the right one signs in with ten recovery codes and ends the other sessions', async () => {
    const before = String((await login({ email: fx.adminEmail, password: fx.adminPassword })).json['token']);
    const wrong = await login({ email: fx.adminEmail, password: fx.adminPassword, code: codeOf(secret, 300) });
    expect(wrong.status).toBe(401);
    expect(wrong.json['code']).toBe(MFA_INVALID_CODE);
    firstCode = codeOf(secret);
    const res = await login({ email: fx.adminEmail, password: fx.adminPassword, code: firstCode });
    expect(res.status).toBe(200);
    recoveryCodes = res.json['recoveryCodes'] as string[];
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((res.json['admin'] as { mfa: boolean }).mfa).toBe(true);
    expect((await hospitalsWith(String(res.json['token']))).status).toBe(200);
    expect((await hospitalsWith(before)).status).toBe(401);
  });

  it('then needs the code at every login; a code is good once; the next one signs in', async () => {
    const bare = await login({ email: fx.adminEmail, password: fx.adminPassword });
    expect(bare.status).toBe(401);
    expect(bare.json['code']).toBe(MFA_REQUIRED_CODE);
    expect(bare.json['token']).toBeUndefined();
    // The password is checked first: a wrong one says nothing of a second factor.
    const wrongPassword = await login({ email: fx.adminEmail, password: 'not-it', code: codeOf(secret, 30) });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.json['code']).toBeUndefined();
    const replay = await login({ email: fx.adminEmail, password: fx.adminPassword, code: firstCode });
    expect(replay.status).toBe(401);
    expect(replay.json['code']).toBe(MFA_INVALID_CODE);
    const next = await login({ email: fx.adminEmail, password: fx.adminPassword, code: codeOf(secret, 30) });
    expect(next.status).toBe(200);
    expect(next.json['recoveryCodes']).toBeUndefined();
  });

  it('signs in with a recovery code once, however it is typed, and is told how many are left', async () => {
    const typed = (recoveryCodes[0] ?? '').toUpperCase().replace('-', ' ');
    const res = await login({ email: fx.adminEmail, password: fx.adminPassword, recoveryCode: typed });
    expect(res.status).toBe(200);
    expect(res.json['recoveryCodesLeft']).toBe(RECOVERY_CODE_COUNT - 1);
    const again = await login({ email: fx.adminEmail, password: fx.adminPassword, recoveryCode: recoveryCodes[0] });
    expect(again.status).toBe(401);
    expect(again.json['code']).toBe(MFA_INVALID_CODE);
    expect((await login({ email: fx.adminEmail, password: fx.adminPassword, recoveryCode: 'aaaaa-bbbbb' })).status).toBe(401);
  });

  it('cannot start a second setup over the first (409): the operator resets it', async () => {
    expect((await setup(fx.adminEmail, fx.adminPassword)).status).toBe(409);
  });
});

describe('a hospital that asks its staff for a second factor', () => {
  it('ends the sessions its admins opened without one (not the caller’s), and their next login sets one up', async () => {
    const nurseToken = String((await login(nurse)).json['token']);
    expect((await hospitalsWith(nurseToken)).status).toBe(200);
    const adminCode = await call(h.app, 'POST', '/api/admin/mfa/setup', { body: { email: fx.adminEmail, password: fx.adminPassword } });
    expect(adminCode.status).toBe(409);
    // The first admin has a second factor (above): signs in with a recovery code here.
    const adminLogin = await login({ email: fx.adminEmail, password: fx.adminPassword, recoveryCode: await freshRecoveryCode() });
    const adminToken = String(adminLogin.json['token']);
    const patch = await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: adminToken, body: { requireStaffMfa: true } });
    expect(patch.status).toBe(200);
    expect((patch.json['data'] as { requireStaffMfa: boolean }).requireStaffMfa).toBe(true);
    expect((await hospitalsWith(nurseToken)).status).toBe(401);
    expect((await hospitalsWith(adminToken)).status).toBe(200);

    const refused = await login(nurse);
    expect(refused.status).toBe(401);
    expect(refused.json['code']).toBe(MFA_SETUP_REQUIRED_CODE);
    expect(refused.json['token']).toBeUndefined();
    const started = await setup(nurse.email, nurse.password);
    const secret = String(started.json['secret']);
    const res = await login({ ...nurse, code: codeOf(secret) });
    expect(res.status).toBe(200);
    expect(res.json['recoveryCodes']).toHaveLength(RECOVERY_CODE_COUNT);
  });
});

/** A recovery code of the first admin not used yet: sets up a new set through the operator's reset. */
async function freshRecoveryCode(): Promise<string> {
  const { staffMfaRepo } = await import('../repositories/staff-mfa.ts');
  const admin = await staffRepo.adminByEmail(h.db, fx.adminEmail);
  if (!admin) throw new Error('no admin');
  await staffMfaRepo.reset(h.db, admin.id);
  const secret = String((await setup(fx.adminEmail, fx.adminPassword)).json['secret']);
  const res = await login({ email: fx.adminEmail, password: fx.adminPassword, code: codeOf(secret) });
  return (res.json['recoveryCodes'] as string[])[0] ?? '';
}
