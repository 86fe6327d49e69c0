// Patient and staff authentication (docs/requirements.md §11). Every failure for a hospital number answers
// exactly as it would for an unknown one, so the API cannot be used to find out who is a patient.
import type { AppContext } from '../context.ts';
import { randomBytes } from 'node:crypto';
import { hashPassword, otpCode, randomToken, sameDigest, sha256, verifyPassword } from '../lib/crypto.ts';
import { normaliseAccessKey } from '../lib/access-key.ts';
import { PASSWORD_PROBLEM_MESSAGES, passwordProblem } from '../lib/password-policy.ts';
import { DOCTOR_LINK_CODE, WEAK_PASSWORD_CODE } from '../../schemas/auth.ts';
import { badRequest, forbidden, HttpError, tooManyRequests, unauthorized } from '../http/errors.ts';
import { accessKeyRepo } from '../repositories/access-keys.ts';
import { otpRepo } from '../repositories/otps.ts';
import { patientRepo } from '../repositories/patients.ts';
import { sessionRepo } from '../repositories/sessions.ts';
import { staffRepo } from '../repositories/staff.ts';
import { hospitalDto } from './dto.ts';
import { resolvePrincipal, TEMPORARY_PASSWORD_METHOD } from './principal.ts';
import { PATIENT_SESSION_MS } from './session-policy.ts';
import { secondFactor, startSetup } from './staff-mfa.ts';
import { staffMfaRepo } from '../repositories/staff-mfa.ts';

export { PATIENT_SESSION_MAX_MS, PATIENT_SESSION_MS } from './session-policy.ts';
export const ADMIN_SESSION_MS = 24 * 3600_000;
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_MS = 60_000;

export const MSG = {
  otpSent: "Please check admin's email for the OTP.",
  badOtp: 'Invalid hospital number or one-time code.',
  deadOtp: 'This code has expired or was tried too many times. Please request a new code.',
  badAccessKey: 'Invalid hospital number or access key.',
  badPassword: 'Invalid hospital number or password.',
  passwordReset: 'You have successfully reset your password.',
  samePassword: 'The new password must be different from the current one.',
  loggedOut: 'You have successfully logged out.',
  doctorLinkStays: 'A doctor link is not ended by logging out: it stays valid until it expires or an admin revokes it. This device forgets it.',
  patientsOnly: 'This is for patients only. Staff log out in the staff area.',
  staffOnly: 'This is for hospital staff only.',
  badAdmin: 'Invalid email or password',
  doctorOk: 'You have successfully logged in as doctor.',
  badDoctor: 'Invalid or expired doctor token. Contact admin.',
  mailFailed: 'The code could not be sent right now. Please try again in a minute.',
} as const;

export interface IssuedToken {
  token: string;
  expiresAt: string;
}

async function issuePatientSession(
  ctx: AppContext,
  patientId: string,
  method: string,
  deviceId: string | undefined,
  expiresAt: Date,
  accessKeyExpiresAt: Date | null = null,
): Promise<IssuedToken> {
  const token = randomToken();
  await sessionRepo.insert(ctx.db, { tokenHash: sha256(token), kind: 'patient', patientId, method, deviceId: deviceId ?? null, expiresAt, accessKeyExpiresAt });
  return { token, expiresAt: expiresAt.toISOString() };
}

const otpDigest = (salt: string, code: string) => sha256(`${salt}:${code}`);

export async function sendOtp(ctx: AppContext, hospNo: string, now = new Date()): Promise<{ message: string }> {
  // Serialise sends per hospital number so that two parallel requests cannot both pass the throttle.
  const mail = await ctx.db.transaction(async (tx) => {
    await otpRepo.lockSends(tx, hospNo);
    const latest = await otpRepo.latest(tx, hospNo);
    if (latest) {
      const wait = OTP_RESEND_MS - (now.getTime() - latest.createdAt.getTime());
      if (wait > 0) throw tooManyRequests(`Please wait ${Math.ceil(wait / 1000)} seconds before requesting another code.`);
    }
    const patient = await patientRepo.byHospNo(tx, hospNo);
    const code = otpCode();
    const salt = randomBytes(16).toString('hex');
    await otpRepo.insert(tx, {
      hospNo,
      patientId: patient?.id ?? null,
      codeHash: `${salt}$${otpDigest(salt, code)}`,
      expiresAt: new Date(now.getTime() + OTP_TTL_MS),
      createdAt: now,
    });
    return patient ? { patient, code } : undefined;
  });
  if (mail) {
    const to = await staffRepo.adminEmailsOfHospital(ctx.db, mail.patient.hospitalId);
    if (to.length === 0) {
      ctx.log.warn({ hospitalId: mail.patient.hospitalId }, 'OTP requested but the hospital has no admin e-mail to send it to');
    } else {
      try {
        await ctx.mailer.send({
          to,
          subject: `One-time code for patient ${hospNo}`,
          text:
            `Patient ${hospNo} (${mail.patient.name}) asked for a one-time code to log in to Eddy.\n\n` +
            `Code: ${mail.code}\n\nIt is valid for 10 minutes and can be used once. ` +
            `Give it to the patient only after checking who they are.\n`,
        });
      } catch (err) {
        ctx.log.error({ err }, 'sending the OTP mail failed');
        throw new HttpError(503, MSG.mailFailed);
      }
    }
  }
  return { message: MSG.otpSent };
}

export async function loginWithOtp(ctx: AppContext, hospNo: string, code: string, deviceId: string | undefined, now = new Date()): Promise<IssuedToken> {
  const latest = await otpRepo.latest(ctx.db, hospNo);
  if (!latest || latest.usedAt) throw unauthorized(MSG.badOtp);
  if (latest.expiresAt <= now || latest.attempts >= OTP_MAX_ATTEMPTS) throw unauthorized(MSG.deadOtp);
  const [salt = '', digest = ''] = latest.codeHash.split('$');
  if (!sameDigest(otpDigest(salt, code), digest)) {
    await otpRepo.recordFailure(ctx.db, latest.id);
    throw unauthorized(latest.attempts + 1 >= OTP_MAX_ATTEMPTS ? MSG.deadOtp : MSG.badOtp);
  }
  // Rows for unknown numbers can never match a code: none was mailed, and patientId is null.
  if (!latest.patientId || !(await otpRepo.consume(ctx.db, latest.id, OTP_MAX_ATTEMPTS))) throw unauthorized(MSG.badOtp);
  return issuePatientSession(ctx, latest.patientId, 'otp', deviceId, new Date(now.getTime() + PATIENT_SESSION_MS));
}

export async function loginWithAccessKey(
  ctx: AppContext,
  hospNo: string,
  accessKey: string,
  deviceId: string | undefined,
  now = new Date(),
): Promise<IssuedToken> {
  const patient = await patientRepo.byHospNo(ctx.db, hospNo);
  const key = patient && (await accessKeyRepo.live(ctx.db, patient.id, sha256(normaliseAccessKey(accessKey)), now));
  if (!patient || !key) throw unauthorized(MSG.badAccessKey);
  // The session never outlives the key it was opened with.
  const expiresAt = new Date(Math.min(now.getTime() + PATIENT_SESSION_MS, key.expiresAt.getTime()));
  return issuePatientSession(ctx, patient.id, 'access-key', deviceId, expiresAt, key.expiresAt);
}

export async function loginWithPassword(
  ctx: AppContext,
  hospNo: string,
  password: string,
  deviceId: string | undefined,
  now = new Date(),
): Promise<IssuedToken & { mustChangePassword: boolean }> {
  const patient = await patientRepo.byHospNo(ctx.db, hospNo);
  const ok = await verifyPassword(password, patient?.passwordHash);
  if (!patient || !ok) throw unauthorized(MSG.badPassword);
  // A temporary password opens a session that may only change it (guards.ts patientAccess), until it is changed.
  const issued = await issuePatientSession(
    ctx,
    patient.id,
    patient.mustChangePassword ? TEMPORARY_PASSWORD_METHOD : 'password',
    deviceId,
    new Date(now.getTime() + PATIENT_SESSION_MS),
  );
  return { ...issued, mustChangePassword: patient.mustChangePassword };
}

export async function updatePassword(
  ctx: AppContext,
  input: { hospNo: string; currPassword: string; password: string },
  currentToken: string | undefined,
): Promise<{ message: string }> {
  const patient = await patientRepo.byHospNo(ctx.db, input.hospNo);
  const ok = await verifyPassword(input.currPassword, patient?.passwordHash);
  if (!patient || !ok) throw unauthorized(MSG.badPassword);
  if (input.currPassword === input.password) throw badRequest(MSG.samePassword);
  // Asked only of the patient who proved the current password: nobody else learns what it refuses.
  const problem = passwordProblem(input.password, [patient.hospNo, patient.name]);
  if (problem) throw new HttpError(400, PASSWORD_PROBLEM_MESSAGES[problem], { code: WEAK_PASSWORD_CODE, reason: problem });
  await patientRepo.update(ctx.db, patient.id, { passwordHash: await hashPassword(input.password), mustChangePassword: false });
  // Other devices that knew the old password lose their sessions; the one asking keeps its own.
  const current = await resolvePrincipal(ctx.db, currentToken);
  const own = current?.kind === 'patient' && current.patientId === patient.id ? current : undefined;
  await sessionRepo.revokeAllOfPatient(ctx.db, patient.id, own?.sessionId);
  // The session that asked, opened with the temporary password, is a full one now.
  if (own?.passwordChangeRequired) await sessionRepo.setMethod(ctx.db, own.sessionId, 'password');
  return { message: MSG.passwordReset };
}

export async function validate(ctx: AppContext, token: string | undefined): Promise<{ valid: boolean; expiresAt?: string }> {
  const principal = await resolvePrincipal(ctx.db, token);
  if (!principal) return { valid: false };
  return { valid: true, expiresAt: principal.expiresAt.toISOString() };
}

/** Revokes the session of this token, if any. Logging out twice answers the same. */
/**
 * Ends the session of `token` at the patients' logout (`as` 'patient') or the staff's ('staff'): each
 * ends only its own kind, and says so for any other. A doctor token is no session: it stays valid
 * until it expires or an admin revokes it (unless the doctor signed in through an identity provider), and the answer says that instead of a logout that did not
 * happen. An unknown or ended token is logged out already.
 */
export async function logout(ctx: AppContext, token: string | undefined, as: 'patient' | 'staff'): Promise<{ message: string }> {
  const principal = await resolvePrincipal(ctx.db, token);
  if (!principal) return { message: MSG.loggedOut };
  // A doctor signed in through the hospital's identity provider holds a session, not a link: it ends here.
  if (principal.kind === 'doctor' && principal.providerId !== null && as === 'staff') {
    await staffRepo.revokeDoctorToken(ctx.db, principal.doctorTokenId);
    return { message: MSG.loggedOut };
  }
  if (principal.kind === 'doctor')
    throw new HttpError(
      as === 'staff' ? 400 : 403,
      as === 'staff' ? MSG.doctorLinkStays : MSG.patientsOnly,
      as === 'staff' ? { code: DOCTOR_LINK_CODE } : undefined,
    );
  if ((principal.kind === 'patient') !== (as === 'patient')) throw forbidden(as === 'patient' ? MSG.patientsOnly : MSG.staffOnly);
  await sessionRepo.revoke(ctx.db, principal.sessionId);
  return { message: MSG.loggedOut };
}

/** An admin's password, checked: the admin, or the same 401 whether the e-mail or the password was wrong. */
async function checkedAdmin(ctx: AppContext, email: string, password: string) {
  const admin = await staffRepo.adminByEmail(ctx.db, email);
  const ok = await verifyPassword(password, admin?.passwordHash);
  if (!admin || !ok) throw unauthorized(MSG.badAdmin);
  return admin;
}

/**
 * Admin login: the password, then the second factor where the admin has one or a hospital of
 * theirs asks for one (staff-mfa.ts). A login that sets the factor up ends the admin's other sessions.
 */
export async function adminLogin(
  ctx: AppContext,
  body: { email: string; password: string; code?: string | undefined; recoveryCode?: string | undefined },
  now = new Date(),
) {
  const admin = await checkedAdmin(ctx, body.email, body.password);
  const second = await secondFactor(ctx, admin, body, now);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + ADMIN_SESSION_MS);
  const session = await sessionRepo.insert(ctx.db, { tokenHash: sha256(token), kind: 'admin', adminId: admin.id, method: second.method, expiresAt });
  if (second.recoveryCodes) await staffMfaRepo.endOtherSessions(ctx.db, admin.id, session.id);
  const hospitals = await staffRepo.hospitalsOfAdmin(ctx.db, admin.id);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    admin: {
      _id: admin.id,
      email: admin.email,
      name: admin.name,
      role: 'admin' as const,
      hospitals: hospitals.map(hospitalDto),
      mfa: second.method !== 'password' || admin.totpEnabledAt !== null,
    },
    ...(second.recoveryCodes ? { recoveryCodes: second.recoveryCodes } : {}),
    ...(second.recoveryCodesLeft !== undefined ? { recoveryCodesLeft: second.recoveryCodesLeft } : {}),
  };
}

/** Starts setting up an admin's authenticator app, after their password (a login may not be possible before it). */
export async function adminMfaSetup(ctx: AppContext, email: string, password: string) {
  return startSetup(ctx, await checkedAdmin(ctx, email, password));
}

export async function verifyDoctorToken(ctx: AppContext, token: string | undefined) {
  const principal = await resolvePrincipal(ctx.db, token);
  if (principal?.kind !== 'doctor') throw unauthorized(MSG.badDoctor);
  const hospitals = await staffRepo.hospitalsByIds(ctx.db, principal.hospitalIds);
  return {
    message: MSG.doctorOk,
    doctor: { name: principal.label, role: 'doctor' as const, expiresAt: principal.expiresAt.toISOString(), hospitals: hospitals.map(hospitalDto) },
  };
}
