import type { FromSchema } from 'json-schema-to-ts';
import { hospNo } from './common.ts';

export const PASSWORD_MIN_LENGTH = 8;
const password = { type: 'string', minLength: 1, maxLength: 200 } as const;
/** NIST SP 800-63B asks for at least 64; a passphrase of a few sentences fits. */
export const PASSWORD_MAX_LENGTH = 200;
export const newPassword = { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH } as const;

// The `code` of the auth refusals a device acts on (issue 48), beside the server's English message.
/** 400: a new password easy to guess; `reason` is a PasswordProblem (server/lib/password-policy.ts). */
export const WEAK_PASSWORD_CODE = 'weak-password';
export type PasswordProblem = 'too-short' | 'common' | 'repetitive' | 'context';
/** 403: a session opened with a temporary password asked for more than changing it. */
export const PASSWORD_CHANGE_REQUIRED_CODE = 'password-change-required';
/** 400 at the staff logout: a doctor link is not a session, and stays valid. */
export const DOCTOR_LINK_CODE = 'doctor-link';
const otp = { type: 'string', pattern: '^[0-9]{6}$', description: 'the 6-digit code' } as const;
const accessKey = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** `POST /auth/login` takes either a one-time code or an access key. */
export const loginSchema = {
  type: 'object',
  properties: { hospNo, otp, accessKey },
  required: ['hospNo'],
  oneOf: [{ required: ['otp'] }, { required: ['accessKey'] }],
} as const;
export type LoginInput = FromSchema<typeof loginSchema>;

export const passwordLoginSchema = {
  type: 'object',
  properties: { hospNo, password },
  required: ['hospNo', 'password'],
} as const;

export const sendOtpSchema = {
  type: 'object',
  properties: { hospNo },
  required: ['hospNo'],
} as const;

export const updatePasswordSchema = {
  type: 'object',
  properties: { hospNo, currPassword: password, password: newPassword },
  required: ['hospNo', 'currPassword', 'password'],
} as const;

const adminEmail = { type: 'string', format: 'email', maxLength: 254 } as const;

/**
 * The second factor of a staff login (issue 48): a 6-digit code from the authenticator app (RFC 6238
 * TOTP), or one of the recovery codes given when it was set up. A login that needs one and has
 * none is answered 401 with one of these codes; the device asks for the code and sends the login again.
 */
export const MFA_REQUIRED_CODE = 'mfa-required';
/** The admin's hospital asks for a second factor and none is set up: set one up (POST /api/admin/mfa/setup) and confirm it with its first code. */
export const MFA_SETUP_REQUIRED_CODE = 'mfa-setup-required';
/** The code or recovery code given is not right, or was used already. */
export const MFA_INVALID_CODE = 'mfa-invalid';
export const TOTP_CODE_PATTERN = '^[0-9]{6}$';
export const RECOVERY_CODE_COUNT = 10;

export const adminLoginSchema = {
  type: 'object',
  properties: {
    email: adminEmail,
    password,
    code: { type: 'string', pattern: TOTP_CODE_PATTERN, description: 'the 6-digit code of the authenticator app' },
    recoveryCode: { type: 'string', minLength: 1, maxLength: 40, description: 'a recovery code, in place of the authenticator code' },
  },
  required: ['email', 'password'],
} as const;

/** Starts setting up the authenticator app: the password again, as at login (a login may not have happened yet). */
/** A sign-in through the hospital's identity provider (issue 48): the page's handoff code was used or is too old. */
export const OIDC_HANDOFF_INVALID_CODE = 'oidc-handoff-invalid';
/**
 * Why a sign-in through the identity provider signed nobody in, as the callback tells the page
 * (`/admin#oidc-failure=<code>`): the provider cannot be reached; too slow or started elsewhere; refused at the provider; the provider's
 * answer did not check out; the person has no staff role or no hospital here; no e-mail address to
 * make an admin with; or a local account with that address the provider does not vouch for.
 */
export const OIDC_FAILURES = ['unreachable', 'expired', 'other-browser', 'denied', 'failed', 'no-role', 'no-hospital', 'no-email', 'email-taken'] as const;
export type OidcFailure = (typeof OIDC_FAILURES)[number];
/** The handoff code is 32 random bytes, base64url. */
export const oidcRedeemSchema = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
  required: ['code'],
  additionalProperties: false,
} as const;

export const adminMfaSetupSchema = {
  type: 'object',
  properties: { email: adminEmail, password },
  required: ['email', 'password'],
} as const;
