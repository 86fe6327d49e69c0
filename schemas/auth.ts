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

export const adminLoginSchema = {
  type: 'object',
  properties: { email: { type: 'string', format: 'email', maxLength: 254 }, password },
  required: ['email', 'password'],
} as const;
