// The auth calls as the device makes them, the patient's and the staff's (docs/api.md): one function per
// call, its path written once, its body typed from the JSON Schema the server validates with
// (schemas/auth.ts) and its answer from the one the server answers through (schemas/api.ts). The
// sessions (sync/session.ts, sync/staff-session.ts) and the auth forms call these; none spells a URL. The answer is
// what the server promises, not checked here: a reader that must not trust it says so (session.ts).
import type { FromSchema } from 'json-schema-to-ts';
import type {
  adminLogin,
  adminMfaSetup,
  Answer,
  doctorVerified,
  message,
  oidcProviders,
  oidcSignIn,
  passwordLogin,
  patientLogin,
  validation,
} from '../schemas/api.ts';
import type {
  adminLoginSchema,
  adminMfaSetupSchema,
  LoginInput,
  oidcRedeemSchema,
  passwordLoginSchema,
  sendOtpSchema,
  updatePasswordSchema,
} from '../schemas/auth.ts';
import type { ApiClient } from './api-client.ts';

export function patientAuthApi(api: ApiClient) {
  return {
    /** A one-time code or an access key for a session token. */
    login: (body: LoginInput) => api.post<Answer<typeof patientLogin>>('/auth/login', body),
    loginWithPassword: (body: FromSchema<typeof passwordLoginSchema>) => api.post<Answer<typeof passwordLogin>>('/auth/loginWithPassword', body),
    /** Mails a one-time code to the patient's care team. */
    sendOtp: (body: FromSchema<typeof sendOtpSchema>) => api.post<Answer<typeof message>>('/auth/sendOtp', body),
    /** A wrong current password is a 401 about the credentials, not an ended session. */
    updatePassword: (body: FromSchema<typeof updatePasswordSchema>, token?: string) =>
      api.post<Answer<typeof message>>('/auth/updatePassword', body, { checksCredentials: true, ...(token ? { token } : {}) }),
    /** Whether `token` is a live session; quiet: a failure here is the caller's verdict, not a toast. */
    validate: (token: string) => api.post<Answer<typeof validation>>('/auth/validate', undefined, { quiet: true, token }),
    /** Ends the current token's session; quiet, as the device logs out whatever the server says. */
    logout: (token?: string) => api.post<Answer<typeof message>>('/auth/logout', undefined, { quiet: true, ...(token ? { token } : {}) }),
  };
}

/**
 * The staff sign-in with the hospital account (issue 48): the identity providers the login offers
 * (quiet: without them the page offers the password), and the handoff code the provider's sign-in
 * left in the address, for a staff session, once. Apart from staffAuthApi: only the staff login's
 * own chunk carries these, not every page's.
 */
export function staffProviderApi(api: ApiClient) {
  return {
    identityProviders: () => api.get<Answer<typeof oidcProviders>>('/admin/oidc/providers', { quiet: true }),
    redeemSignIn: (body: FromSchema<typeof oidcRedeemSchema>) => api.post<Answer<typeof oidcSignIn>>('/admin/oidc/redeem', body, { checksCredentials: true }),
  };
}

/** The staff's: they check credentials of their own, so a 401 is "wrong", never "session over". */
export function staffAuthApi(api: ApiClient) {
  return {
    loginAdmin: (body: FromSchema<typeof adminLoginSchema>) => api.post<Answer<typeof adminLogin>>('/admin/login', body, { checksCredentials: true }),
    /** A new authenticator secret for the admin, after their password (issue 48); a login with its first code confirms it. */
    mfaSetup: (body: FromSchema<typeof adminMfaSetupSchema>) => api.post<Answer<typeof adminMfaSetup>>('/admin/mfa/setup', body, { checksCredentials: true }),
    /** Who holds the doctor token `token`, until when, for which hospitals. */
    verifyDoctorToken: (token: string) => api.post<Answer<typeof doctorVerified>>('/admin/verifyToken', undefined, { token, checksCredentials: true }),
    /** Ends the session of `token`; quiet, as the device logs out whatever the server says. */
    logout: (token: string) => api.post<Answer<typeof message>>('/admin/logout', undefined, { token, quiet: true, checksCredentials: true }),
  };
}
