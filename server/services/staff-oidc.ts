// Staff sign-in through the hospital's identity provider (issue 48): OpenID Connect, authorization
// code with PKCE, through openid-client (a certified relying party). The server is the client: the
// provider's tokens never reach the page. The flow:
//   1. start: a state, a nonce and a PKCE verifier kept (hashed where they are secrets), a cookie that
//      binds the sign-in to this browser, and the provider's authorization URL to go to;
//   2. callback: the code exchanged (state, nonce, PKCE and the ID token checked by the library), the
//      role and hospitals read from the provider's claims, and a one-time handoff code for the page;
//   3. redeem: the page trades the handoff code (in the address's fragment, which no server or log
//      sees) for a staff session, as a password login would give.
// Admins are linked to a provider's person by its subject; a doctor gets a doctor session that ends
// at logout. Local staff accounts sign in as before.
import * as oidc from 'openid-client';
import type { AppContext } from '../context.ts';
import type { OidcProvider } from '../oidc-providers.ts';
import { isLoopbackUrl } from '../oidc-providers.ts';
import { hashPassword, randomToken, sha256 } from '../lib/crypto.ts';
import { errorMessage } from '../lib/errors.ts';
import { HttpError } from '../http/errors.ts';
import { oidcLoginRepo, type OidcOutcome } from '../repositories/oidc-logins.ts';
import { sessionRepo } from '../repositories/sessions.ts';
import { staffRepo } from '../repositories/staff.ts';
import { plainText } from '../../schemas/common.ts';
import { OIDC_HANDOFF_INVALID_CODE, type OidcFailure } from '../../schemas/auth.ts';
import { hospitalDto } from './dto.ts';

/** A sign-in must come back from the provider within this. */
export const OIDC_LOGIN_TTL_MS = 10 * 60_000;
/** The page must redeem its handoff code within this. */
export const OIDC_HANDOFF_TTL_MS = 2 * 60_000;
/** A session opened through a provider, admin's or doctor's. */
export const OIDC_SESSION_MS = 12 * 3600_000;
/** The session method of a sign-in through a provider: its own policy gave the second factor. */
export const OIDC_METHOD = 'oidc';
export const OIDC_CALLBACK_PATH = '/api/admin/oidc/callback';
/** The cookie that binds a sign-in to the browser that started it (HttpOnly, this path only). */
export const OIDC_BROWSER_COOKIE = 'eddy_oidc';
export const OIDC_COOKIE_PATH = '/api/admin/oidc';

const MSG = {
  unknownProvider: 'There is no identity provider with that id.',
  unreachable: "The hospital's identity provider cannot be reached. Try again, or sign in with your staff account's password.",
  handoffInvalid: 'This sign-in has expired or was used already. Sign in again.',
};

/** The providers' discovered metadata, once per server (a failed discovery is tried again next time). */
const discovered = new Map<string, Promise<oidc.Configuration>>();

function configOf(p: OidcProvider): Promise<oidc.Configuration> {
  const key = `${p.id} ${p.issuer} ${p.clientId}`;
  let config = discovered.get(key);
  if (!config) {
    const issuer = new URL(p.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
    config = oidc.discovery(issuer, p.clientId, undefined, p.clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(p.clientSecret), {
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    discovered.set(key, config);
    config.catch(() => discovered.delete(key));
  }
  return config;
}

function providerOf(ctx: AppContext, id: string): OidcProvider {
  const p = ctx.config.oidcProviders.find((x) => x.id === id);
  if (!p) throw new HttpError(404, MSG.unknownProvider);
  return p;
}

/** The providers staff may sign in with, as the login page lists them. */
export function listProviders(ctx: AppContext): { providers: { id: string; name: string }[] } {
  return { providers: ctx.config.oidcProviders.map((p) => ({ id: p.id, name: p.name })) };
}

/** Where the provider sends the browser back: PUBLIC_URL's, or this request's own origin. */
export const callbackUrl = (ctx: AppContext, origin: string): string => new URL(OIDC_CALLBACK_PATH, ctx.config.publicUrl ?? origin).href;

/** Step 1: the provider's authorization URL, and the secret of the cookie that binds the sign-in to this browser. */
export async function startSignIn(ctx: AppContext, providerId: string, origin: string, now = new Date()): Promise<{ url: string; browserSecret: string }> {
  const p = providerOf(ctx, providerId);
  let config: oidc.Configuration;
  try {
    config = await configOf(p);
  } catch (err) {
    ctx.log.warn({ provider: p.id, err: errorMessage(err) }, 'the identity provider could not be discovered');
    throw new HttpError(502, MSG.unreachable);
  }
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const browserSecret = randomToken();
  await oidcLoginRepo.start(
    ctx.db,
    {
      providerId: p.id,
      stateHash: sha256(state),
      browserHash: sha256(browserSecret),
      codeVerifier,
      nonce,
      expiresAt: new Date(now.getTime() + OIDC_LOGIN_TTL_MS),
    },
    now,
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(ctx, origin),
    scope: p.scopes.join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, browserSecret };
}

/**
 * Step 2: the provider's answer at the callback (`currentUrl`, with this server's public origin), in
 * the browser holding `browserSecret`. A handoff code for the page, or why nobody is signed in.
 */
export async function finishSignIn(
  ctx: AppContext,
  currentUrl: URL,
  browserSecret: string | undefined,
  now = new Date(),
): Promise<{ handoff: string } | { failure: OidcFailure }> {
  const state = currentUrl.searchParams.get('state');
  const login = state ? await oidcLoginRepo.takeByState(ctx.db, sha256(state), now) : undefined;
  if (!state || !login) return { failure: 'expired' };
  const p = ctx.config.oidcProviders.find((x) => x.id === login.providerId);
  const fail = async (failure: OidcFailure, detail?: string) => {
    await oidcLoginRepo.drop(ctx.db, login.id);
    ctx.log.warn({ provider: login.providerId, failure, detail }, 'a staff sign-in through the identity provider failed');
    return { failure };
  };
  if (!p) return fail('expired', 'the provider is no longer configured');
  if (!browserSecret || sha256(browserSecret) !== login.browserHash) return fail('other-browser');
  if (currentUrl.searchParams.has('error')) return fail('denied', currentUrl.searchParams.get('error') ?? undefined);
  let claims: Record<string, unknown>;
  try {
    const config = await configOf(p);
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return await fail('failed', 'no ID token');
    // Some providers put groups and e-mail only in the ID token, others only at userinfo: both read,
    // the ID token's word final (the library checks userinfo's subject is the ID token's).
    const info = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
    claims = { ...info, ...idClaims };
  } catch (err) {
    return fail('failed', errorMessage(err));
  }
  const outcome = await staffOf(ctx, p, claims);
  if ('failure' in outcome) return fail(outcome.failure);
  const handoff = randomToken();
  await oidcLoginRepo.settle(ctx.db, login.id, sha256(handoff), outcome, new Date(now.getTime() + OIDC_HANDOFF_TTL_MS));
  return { handoff };
}

/** A claim's values: a string, or the strings of a list. */
function valuesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  return Array.isArray(claim) ? claim.filter((v): v is string => typeof v === 'string') : [];
}

const textClaim = (claims: Record<string, unknown>, key: string): string | undefined => {
  const v = claims[key];
  return typeof v === 'string' && plainText(v).trim() !== '' ? plainText(v).trim().slice(0, 120) : undefined;
};

/**
 * The person's role and hospitals by the provider's claims; an admin found by subject, or linked.
 * The provider's word on the hospitals it signs staff into is the whole word, at every sign-in: an
 * admin it no longer names for one of them, or no longer calls an admin, loses that hospital (their
 * sessions with it, since a session's hospitals are read at each call). Hospitals granted on this
 * server that the provider does not cover stay as they are.
 */
async function staffOf(ctx: AppContext, p: OidcProvider, claims: Record<string, unknown>): Promise<OidcOutcome | { failure: OidcFailure }> {
  const subject = String(claims['sub']);
  const covered = (await Promise.all(p.hospitals.map((n) => staffRepo.hospitalByName(ctx.db, n)))).flatMap((h) => (h ? [h] : []));
  const linked = await oidcLoginRepo.adminOfSubject(ctx.db, p.id, subject);
  const keepOnly = async (hospitalIds: string[]) => {
    if (linked)
      await staffRepo.setHospitalsWithin(
        ctx.db,
        linked,
        covered.map((h) => h.id),
        hospitalIds,
      );
  };
  const roles = valuesOf(claims[p.roleClaim]);
  const role = roles.some((v) => p.adminValues.includes(v)) ? 'admin' : roles.some((v) => p.doctorValues.includes(v)) ? 'doctor' : undefined;
  if (!role) {
    await keepOnly([]);
    return { failure: 'no-role' };
  }
  const claimed = p.hospitalClaim === undefined ? undefined : valuesOf(claims[p.hospitalClaim]);
  const hospitalIds = covered.filter((h) => claimed === undefined || claimed.includes(h.name)).map((h) => h.id);
  if (hospitalIds.length === 0) {
    await keepOnly([]);
    return { failure: 'no-hospital' };
  }
  const email = textClaim(claims, 'email')?.toLowerCase();
  const given = [textClaim(claims, 'given_name'), textClaim(claims, 'family_name')].filter(Boolean).join(' ');
  const name = textClaim(claims, 'name') ?? (given || undefined) ?? textClaim(claims, 'preferred_username') ?? email ?? subject;
  if (role === 'doctor') {
    // Once an admin by this provider, a doctor now: the admin account keeps none of its hospitals.
    await keepOnly([]);
    return { role, name, hospitalIds };
  }

  let adminId = linked;
  if (!adminId) {
    if (!email) return { failure: 'no-email' };
    const existing = await staffRepo.adminByEmail(ctx.db, email);
    if (existing) {
      // A local account becomes this person's only on the provider's word that the address is theirs.
      if (claims['email_verified'] !== true) return { failure: 'email-taken' };
      adminId = existing.id;
    } else {
      // Never signs in with a password: its hash is of a secret nobody knows.
      adminId = (await staffRepo.insertAdmin(ctx.db, { email, name, passwordHash: await hashPassword(randomToken()) })).id;
    }
    await oidcLoginRepo.link(ctx.db, p.id, subject, adminId);
  }
  await staffRepo.setHospitalsWithin(
    ctx.db,
    adminId,
    covered.map((h) => h.id),
    hospitalIds,
  );
  return { role, adminId };
}

/** Step 3: the page's handoff code for a staff session, once. */
export async function redeemSignIn(ctx: AppContext, handoff: string, now = new Date()) {
  const login = await oidcLoginRepo.redeem(ctx.db, sha256(handoff), now);
  const outcome = login?.outcome;
  const invalid = () => new HttpError(401, MSG.handoffInvalid, { code: OIDC_HANDOFF_INVALID_CODE });
  if (!login || !outcome) throw invalid();
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + OIDC_SESSION_MS);
  if (outcome.role === 'doctor') {
    await staffRepo.insertDoctorToken(ctx.db, {
      tokenHash: sha256(token),
      doctorName: outcome.name,
      hospitalIds: outcome.hospitalIds,
      expiresAt,
      providerId: login.providerId,
    });
    const hospitals = await staffRepo.hospitalsByIds(ctx.db, outcome.hospitalIds);
    return { token, expiresAt: expiresAt.toISOString(), staff: { role: 'doctor' as const, name: outcome.name, hospitals: hospitals.map(hospitalDto) } };
  }
  // The admin may have been removed between the callback and now.
  const admin = await staffRepo.adminById(ctx.db, outcome.adminId);
  if (!admin) throw invalid();
  await sessionRepo.insert(ctx.db, { tokenHash: sha256(token), kind: 'admin', adminId: admin.id, method: OIDC_METHOD, expiresAt });
  const hospitals = await staffRepo.hospitalsOfAdmin(ctx.db, admin.id);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    staff: { role: 'admin' as const, name: admin.name, email: admin.email, hospitals: hospitals.map(hospitalDto) },
  };
}
