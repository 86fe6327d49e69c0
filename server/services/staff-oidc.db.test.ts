// Issue 48, item 1: staff sign in with the hospital's identity provider — OpenID Connect, authorization
// code with PKCE — tried against a real provider (oidc-provider, OpenID Certified) on loopback. The
// browser is played here: the provider's own cookies and login form, this server's callback.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_HANDOFF_INVALID_CODE } from '../../schemas/auth.ts';
import { hashPassword } from '../lib/crypto.ts';
import { staffRepo } from '../repositories/staff.ts';
import { call, createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { providerEntry, startTestIdentityProvider, type TestIdentityProvider } from '../testing/oidc-provider.ts';

const PUBLIC_URL = 'http://eddy.test';
const HOSPITAL_A = 'Test Hospital A';
const HOSPITAL_B = 'Test Hospital B';

let h: Harness;
let fx: Fixture;
let idp: TestIdentityProvider;
let dir: string;

beforeAll(async () => {
  idp = await startTestIdentityProvider({
    redirectUris: [`${PUBLIC_URL}/api/admin/oidc/callback`],
    accounts: {
      'ward-admin': {
        email: 'Ward.Admin@hospital.example',
        email_verified: true,
        name: 'Wanda Ward',
        groups: ['eddy-admins', 'everyone'],
        hospitals: [HOSPITAL_A],
      },
      'dr-who': { email: 'dr.who@hospital.example', name: 'Dr Who', groups: ['eddy-doctors'], hospitals: [HOSPITAL_A, HOSPITAL_B] },
      porter: { email: 'porter@hospital.example', name: 'Pat Porter', groups: ['everyone'], hospitals: [HOSPITAL_A] },
      elsewhere: { email: 'elsewhere@hospital.example', name: 'Ellis Where', groups: ['eddy-admins'], hospitals: ['Another Hospital'] },
      'same-address': { email: 'admin@test.hospital', email_verified: false, name: 'Not The Admin', groups: ['eddy-admins'], hospitals: [HOSPITAL_A] },
      'no-address': { name: 'Nobody Mailed', groups: ['eddy-admins'], hospitals: [HOSPITAL_A] },
    },
  });
  dir = await mkdtemp(path.join(tmpdir(), 'eddy-oidc-'));
  const file = path.join(dir, 'providers.json');
  await writeFile(
    file,
    JSON.stringify({
      providers: [
        providerEntry(idp, { id: 'test-idp', name: 'Hospital staff account', hospitals: [HOSPITAL_A, HOSPITAL_B], secretEnv: 'TEST_IDP_SECRET' }),
        { id: 'gone', name: 'A provider that is down', issuer: 'http://127.0.0.1:9/', clientId: 'x', hospitals: [HOSPITAL_A], doctorValues: ['d'] },
      ],
    }),
  );
  h = await createHarness({ OIDC_PROVIDERS: file, TEST_IDP_SECRET: idp.clientSecret, PUBLIC_URL });
  fx = await seedFixture(h.db);
});
afterAll(async () => {
  await h.close();
  await idp.close();
  await rm(dir, { recursive: true, force: true });
});

/** Cookies per host, as a browser keeps them (names and values only: enough for these flows). */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();
  take(url: URL, setCookies: string[]): void {
    const jar = this.byHost.get(url.host) ?? new Map<string, string>();
    for (const c of setCookies) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(c) || /max-age=0/i.test(c) || value === '') jar.delete(pair.slice(0, eq));
      else jar.set(pair.slice(0, eq), value);
    }
    this.byHost.set(url.host, jar);
  }
  header(url: URL): string {
    return [...(this.byHost.get(url.host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const setCookiesOf = (header: string | string[] | number | undefined): string[] =>
  Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];

/**
 * A staff member's browser: the staff login's button, the provider's login form (as `login`), and
 * back to this server's callback. `beforeCallback` may stand in for an attacker. The address the
 * browser ends at.
 */
async function signIn(
  login: string,
  opts: { jar?: CookieJar; beforeCallback?: (callback: URL, jar: CookieJar) => void } = {},
): Promise<{ landing: string; callback: URL; jar: CookieJar }> {
  const jar = opts.jar ?? new CookieJar();
  const app = new URL(PUBLIC_URL);
  const start = await h.app.inject({ method: 'GET', url: '/api/admin/oidc/test-idp/start', headers: { host: app.host, cookie: jar.header(app) } });
  expect(start.statusCode).toBe(302);
  jar.take(app, setCookiesOf(start.headers['set-cookie']));
  let url = new URL(String(start.headers.location));
  let init: RequestInit = {};
  for (let hop = 0; hop < 12; hop += 1) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header(url) },
    });
    jar.take(url, res.headers.getSetCookie());
    init = {};
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location') ?? '', url);
      if (url.origin === app.origin) break;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="login"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
    };
  }
  expect(url.pathname).toBe('/api/admin/oidc/callback');
  opts.beforeCallback?.(url, jar);
  const back = await h.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { host: app.host, cookie: jar.header(app) } });
  expect(back.statusCode).toBe(302);
  expect(back.headers['cache-control']).toBe('no-store');
  jar.take(app, setCookiesOf(back.headers['set-cookie']));
  return { landing: String(back.headers.location), callback: url, jar };
}

const handoffOf = (landing: string): string => {
  const m = /^\/admin#oidc=([A-Za-z0-9_-]{43})$/.exec(landing);
  if (!m?.[1]) throw new Error(`no handoff code in ${landing}`);
  return m[1];
};
const redeem = (code: string) => call(h.app, 'POST', '/api/admin/oidc/redeem', { body: { code } });

describe('staff sign-in through the hospital identity provider', () => {
  it('lists the providers for the login page: id and name, nothing of their configuration', async () => {
    const res = await call(h.app, 'GET', '/api/admin/oidc/providers');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      providers: [
        { id: 'test-idp', name: 'Hospital staff account' },
        { id: 'gone', name: 'A provider that is down' },
      ],
    });
  });

  it('sends the browser to the provider with PKCE (S256), a state and a nonce, bound to the browser by an HttpOnly cookie', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/admin/oidc/test-idp/start', headers: { host: 'eddy.test' } });
    expect(res.statusCode).toBe(302);
    const to = new URL(String(res.headers.location));
    expect(to.origin).toBe(new URL(idp.issuer).origin);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(to.searchParams.get('state')).toBeTruthy();
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/admin/oidc/callback`);
    expect(to.searchParams.get('client_secret')).toBeNull();
    const cookie = setCookiesOf(res.headers['set-cookie']).join('\n');
    expect(cookie).toMatch(/^eddy_oidc=[A-Za-z0-9_-]+;.*HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/admin\/oidc/);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('signs an admin in by their group: a staff account made from the claims, only the hospitals their claim names', async () => {
    const { landing } = await signIn('ward-admin');
    const res = await redeem(handoffOf(landing));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const staff = res.json['staff'] as { role: string; name: string; email: string; hospitals: { name: string }[] };
    expect(staff).toMatchObject({ role: 'admin', name: 'Wanda Ward', email: 'ward.admin@hospital.example' });
    expect(staff.hospitals.map((x) => x.name)).toEqual([HOSPITAL_A]);
    const token = String(res.json['token']);
    const hospitals = await call(h.app, 'GET', '/api/admin/hospitals', { token });
    expect(hospitals.status).toBe(200);
    // The account has no password anybody knows.
    expect((await call(h.app, 'POST', '/api/admin/login', { body: { email: 'ward.admin@hospital.example', password: 'any password' } })).status).toBe(401);
  });

  it('redeems a handoff code once: a second try is refused and opens nothing', async () => {
    const code = handoffOf((await signIn('ward-admin')).landing);
    expect((await redeem(code)).status).toBe(200);
    const again = await redeem(code);
    expect(again.status).toBe(401);
    expect(again.json['code']).toBe(OIDC_HANDOFF_INVALID_CODE);
  });

  it('finds the same admin by the provider subject at the next sign-in, also after their address changed', async () => {
    const first = await redeem(handoffOf((await signIn('ward-admin')).landing));
    idp.setAccount('ward-admin', {
      email: 'wanda.ward@hospital.example',
      email_verified: true,
      name: 'Wanda Ward',
      groups: ['eddy-admins'],
      hospitals: [HOSPITAL_A],
    });
    const second = await redeem(handoffOf((await signIn('ward-admin')).landing));
    expect((second.json['staff'] as { email: string }).email).toBe((first.json['staff'] as { email: string }).email);
    expect(await staffRepo.adminByEmail(h.db, 'wanda.ward@hospital.example')).toBeUndefined();
  });

  it('signs a doctor in by their group, to every hospital their claim names; logout ends that session', async () => {
    const res = await redeem(handoffOf((await signIn('dr-who')).landing));
    expect(res.status).toBe(200);
    const staff = res.json['staff'] as { role: string; name: string; hospitals: { name: string }[] };
    expect(staff.role).toBe('doctor');
    expect(staff.name).toBe('Dr Who');
    expect(staff.hospitals.map((x) => x.name).sort()).toEqual([HOSPITAL_A, HOSPITAL_B]);
    const token = String(res.json['token']);
    const users = await call(h.app, 'GET', '/api/admin/users', { token });
    expect(users.status).toBe(200);
    // A doctor from the provider may not manage: hospitals' settings are admins'.
    expect((await call(h.app, 'POST', '/api/admin/hospitals', { token, body: { name: 'Doctor-made hospital', timeZone: 'UTC' } })).status).toBe(403);
    expect((await call(h.app, 'POST', '/api/admin/logout', { token })).status).toBe(200);
    expect((await call(h.app, 'GET', '/api/admin/users', { token })).status).toBe(401);
  });

  it('refuses a person the provider gives no staff role, or no hospital of this server, and makes no account', async () => {
    expect((await signIn('porter')).landing).toBe('/admin#oidc-failure=no-role');
    expect(await staffRepo.adminByEmail(h.db, 'porter@hospital.example')).toBeUndefined();
    expect((await signIn('elsewhere')).landing).toBe('/admin#oidc-failure=no-hospital');
    expect(await staffRepo.adminByEmail(h.db, 'elsewhere@hospital.example')).toBeUndefined();
    expect((await signIn('no-address')).landing).toBe('/admin#oidc-failure=no-email');
  });

  it('never takes over a local account by an address the provider does not vouch for; links it when it does', async () => {
    expect((await signIn('same-address')).landing).toBe('/admin#oidc-failure=email-taken');
    idp.setAccount('same-address', {
      email: 'admin@test.hospital',
      email_verified: true,
      name: 'Test Admin',
      groups: ['eddy-admins'],
      hospitals: [HOSPITAL_A],
    });
    const res = await redeem(handoffOf((await signIn('same-address')).landing));
    expect(res.status).toBe(200);
    expect((res.json['staff'] as { email: string; name: string }).name).toBe('Test Admin');
    // The local password still signs in too.
    expect((await call(h.app, 'POST', '/api/admin/login', { body: { email: fx.adminEmail, password: fx.adminPassword } })).status).toBe(200);
  });

  it("takes the provider's word on its hospitals at every sign-in: one it stops naming, or an admin it stops calling one, is withdrawn, also from sessions open; hospitals it does not cover stay", async () => {
    const login = 'moving-admin';
    const account = { email: 'mo.ving@hospital.example', email_verified: true, name: 'Mo Ving', groups: ['eddy-admins'], hospitals: [HOSPITAL_A, HOSPITAL_B] };
    idp.setAccount(login, account);
    const first = await redeem(handoffOf((await signIn(login)).landing));
    expect(first.status).toBe(200);
    const admin = await staffRepo.adminByEmail(h.db, account.email);
    if (!admin) throw new Error('no account was made');
    // A hospital granted on this server, which the provider does not sign anyone into.
    const local = await staffRepo.insertHospital(h.db, { name: 'Test Hospital Local', timeZone: 'UTC' });
    await staffRepo.grantHospitals(h.db, admin.id, [local.id]);
    const names = async () => (await staffRepo.hospitalsOfAdmin(h.db, admin.id)).map((x) => x.name).sort();
    expect(await names()).toEqual([HOSPITAL_A, HOSPITAL_B, local.name].sort());
    const open = String(first.json['token']);
    const usersOfA = () => call(h.app, 'GET', `/api/admin/users?hospitalId=${fx.hospitalA.id}`, { token: open });
    expect((await usersOfA()).status).toBe(200);

    idp.setAccount(login, { ...account, hospitals: [HOSPITAL_B] });
    expect((await redeem(handoffOf((await signIn(login)).landing))).status).toBe(200);
    expect(await names()).toEqual([HOSPITAL_B, local.name].sort());
    // The session opened before has lost hospital A too.
    expect((await usersOfA()).status).toBe(404);

    idp.setAccount(login, { ...account, groups: ['everyone'] });
    expect((await signIn(login)).landing).toBe('/admin#oidc-failure=no-role');
    expect(await names()).toEqual([local.name]);
  });

  it('refuses a callback in another browser than the one that started the sign-in (login CSRF)', async () => {
    const { landing } = await signIn('ward-admin', { beforeCallback: (_url, jar) => jar.take(new URL(PUBLIC_URL), ['eddy_oidc=someone-elses-cookie']) });
    expect(landing).toBe('/admin#oidc-failure=other-browser');
  });

  it('answers a callback once: the same state again, or one never issued, signs nobody in', async () => {
    const { callback, jar } = await signIn('ward-admin');
    const again = await h.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: { host: 'eddy.test', cookie: jar.header(new URL(PUBLIC_URL)) },
    });
    expect(again.headers.location).toBe('/admin#oidc-failure=expired');
    const forged = await h.app.inject({ method: 'GET', url: '/api/admin/oidc/callback?code=abc&state=never-issued', headers: { host: 'eddy.test' } });
    expect(forged.headers.location).toBe('/admin#oidc-failure=expired');
  });

  it('says so on the login page when the provider is down, and 404 for a provider that is not configured', async () => {
    const down = await h.app.inject({ method: 'GET', url: '/api/admin/oidc/gone/start', headers: { host: 'eddy.test' } });
    expect(down.statusCode).toBe(302);
    expect(down.headers.location).toBe('/admin#oidc-failure=unreachable');
    expect((await h.app.inject({ method: 'GET', url: '/api/admin/oidc/nobody/start' })).statusCode).toBe(404);
  });

  it('keeps a session from the provider when the hospital starts asking for a second factor (the provider has its own)', async () => {
    const token = String((await redeem(handoffOf((await signIn('ward-admin')).landing))).json['token']);
    const local = String((await call(h.app, 'POST', '/api/admin/login', { body: { email: fx.adminEmail, password: fx.adminPassword } })).json['token']);
    const set = await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: local, body: { requireStaffMfa: true } });
    expect(set.status).toBe(200);
    expect((await call(h.app, 'GET', '/api/admin/hospitals', { token })).status).toBe(200);
    await call(h.app, 'PATCH', `/api/admin/hospitals/${fx.hospitalA.id}`, { token: local, body: { requireStaffMfa: false } });
  });
});

describe('a local staff account beside the provider', () => {
  it('signs in with its password as before', async () => {
    await staffRepo.insertAdmin(h.db, { email: 'local.only@test.hospital', name: 'Local Only', passwordHash: await hashPassword('Local-only-pass-9') });
    expect((await call(h.app, 'POST', '/api/admin/login', { body: { email: 'local.only@test.hospital', password: 'Local-only-pass-9' } })).status).toBe(200);
  });
});
