import type { FromSchema } from 'json-schema-to-ts';
import { hospNo } from './common.ts';

export const PASSWORD_MIN_LENGTH = 8;
const password = { type: 'string', minLength: 1, maxLength: 200 } as const;
/** NIST SP 800-63B asks for at least 64; a passphrase of a few sentences fits. */
export const PASSWORD_MAX_LENGTH = 200;
export const newPassword = { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH } as const;
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
