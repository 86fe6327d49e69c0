// The second factor of a staff login (issue 48; ASVS 5.0 V6.3): a TOTP authenticator app
// (RFC 6238 through `otpauth`: 6 digits, 30 s, one step of clock drift either way, each code good
// once) and ten recovery codes, each good once. An admin sets it up when they choose, or at the
// first login after a hospital of theirs has asked for it (hospitals.require_staff_mfa): the
// password, then the authenticator's QR code, then its first code, which signs them in and shows
// the recovery codes once. Doctors sign in with a link an admin made (a bearer secret of at most 90
// days), which has no password to add a factor to.
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { AppContext } from '../context.ts';
import { randomBytes } from 'node:crypto';
import { MFA_INVALID_CODE, MFA_REQUIRED_CODE, MFA_SETUP_REQUIRED_CODE, RECOVERY_CODE_COUNT } from '../../schemas/auth.ts';
import { conflict, HttpError } from '../http/errors.ts';
import { sha256 } from '../lib/crypto.ts';
import type { AdminRow } from '../repositories/staff.ts';
import { staffRepo } from '../repositories/staff.ts';
import { staffMfaRepo } from '../repositories/staff-mfa.ts';

export const MFA_MSG = {
  required: 'Enter the 6-digit code from your authenticator app.',
  setupRequired: 'Your hospital asks staff to sign in with a second step. Set up an authenticator app to continue.',
  invalid: 'That code is not right, or was used already. Enter the code your authenticator app shows now.',
  invalidRecovery: 'That recovery code is not right, or was used already.',
  alreadySetUp: 'Two-step sign-in is already set up for this account. To set it up again, ask the server’s operator to reset it.',
} as const;

const PERIOD_S = 30;
const ISSUER = 'Eddy';

const totpOf = (admin: Pick<AdminRow, 'email'>, secret: string) =>
  new OTPAuth.TOTP({ issuer: ISSUER, label: admin.email, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: OTPAuth.Secret.fromBase32(secret) });

/** The time step a code belongs to (now, or one step before or after), or undefined when it is none of them. */
export function totpStep(admin: Pick<AdminRow, 'email'>, secret: string, code: string, now: Date): number | undefined {
  const delta = totpOf(admin, secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** A recovery code as typed: letters and digits only, lower case ("ABCDE-12345" and "abcde12345" are one code). */
export const normaliseRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Ten codes of 10 base-32 characters (50 bits each), written `xxxxx-xxxxx`. */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => alphabet[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

const refuse = (code: string, message: string) => new HttpError(401, message, { code });

/** Whether any hospital of the admin asks its staff for a second factor. */
export async function secondFactorRequired(ctx: Pick<AppContext, 'db'>, adminId: string): Promise<boolean> {
  return (await staffRepo.hospitalsOfAdmin(ctx.db, adminId)).some((h) => h.requireStaffMfa);
}

export interface SecondFactor {
  /** The session's method: 'password', 'password+totp' or 'password+recovery-code'. */
  method: string;
  /** The codes made when this login confirmed the setup: shown once. */
  recoveryCodes?: string[];
  recoveryCodesLeft?: number;
}

/**
 * The second step of an admin's login, after the password was right: what the session opens with,
 * or a 401 saying what is missing (MFA_REQUIRED_CODE, MFA_SETUP_REQUIRED_CODE, MFA_INVALID_CODE).
 */
export async function secondFactor(
  ctx: Pick<AppContext, 'db'>,
  admin: AdminRow,
  given: { code?: string | undefined; recoveryCode?: string | undefined },
  now: Date,
): Promise<SecondFactor> {
  const secret = admin.totpSecret;
  if (secret && admin.totpEnabledAt) {
    if (given.recoveryCode !== undefined) {
      const left = await staffMfaRepo.useRecoveryCode(ctx.db, admin.id, sha256(normaliseRecoveryCode(given.recoveryCode)), now);
      if (left === undefined) throw refuse(MFA_INVALID_CODE, MFA_MSG.invalidRecovery);
      return { method: 'password+recovery-code', recoveryCodesLeft: left };
    }
    if (given.code === undefined) throw refuse(MFA_REQUIRED_CODE, MFA_MSG.required);
    const step = totpStep(admin, secret, given.code, now);
    if (step === undefined || !(await staffMfaRepo.useStep(ctx.db, admin.id, step))) throw refuse(MFA_INVALID_CODE, MFA_MSG.invalid);
    return { method: 'password+totp' };
  }
  // A setup under way is confirmed by its first code.
  if (secret && given.code !== undefined) {
    const step = totpStep(admin, secret, given.code, now);
    if (step === undefined || !(await staffMfaRepo.useStep(ctx.db, admin.id, step))) throw refuse(MFA_INVALID_CODE, MFA_MSG.invalid);
    const recoveryCodes = newRecoveryCodes();
    await staffMfaRepo.enable(
      ctx.db,
      admin.id,
      now,
      recoveryCodes.map((c) => sha256(normaliseRecoveryCode(c))),
    );
    return { method: 'password+totp', recoveryCodes };
  }
  if (await secondFactorRequired(ctx, admin.id)) throw refuse(MFA_SETUP_REQUIRED_CODE, MFA_MSG.setupRequired);
  return { method: 'password' };
}

/** A new secret for the admin's authenticator app, with its otpauth:// URI and that URI as a QR code (a PNG data URL). */
export async function startSetup(ctx: Pick<AppContext, 'db'>, admin: AdminRow): Promise<{ secret: string; uri: string; qrCode: string }> {
  if (admin.totpEnabledAt) throw conflict(MFA_MSG.alreadySetUp);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await staffMfaRepo.startSetup(ctx.db, admin.id, secret);
  const uri = totpOf(admin, secret).toString();
  return { secret, uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
}
