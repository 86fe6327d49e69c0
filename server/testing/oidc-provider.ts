// A real OpenID Connect provider for the tests of staff sign-in (issue 48): panva's oidc-provider
// (OpenID Certified), on loopback, with its development login page (any login name signs in as the
// account of that name) and no consent step, as a hospital's own provider treats its own apps.
// The accounts and their claims are the test's.
import { createServer } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  hospitals?: string[];
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers a redirect URI of the client: before the first request only (a server started after the provider). */
  allowRedirect(uri: string): void;
  /** Adds or replaces an account (its login name is its subject). */
  setAccount(login: string, account: TestAccount): void;
  close(): Promise<void>;
}

export async function startTestIdentityProvider(opts: { redirectUris?: string[]; accounts?: Record<string, TestAccount> }): Promise<TestIdentityProvider> {
  const accounts = new Map(Object.entries(opts.accounts ?? {}));
  const redirectUris = [...(opts.redirectUris ?? [])];
  const clientId = 'eddy-staff';
  const clientSecret = 'a-test-client-secret-of-the-hospital';
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub', 'groups', 'hospitals'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...(accounts.get(id) ?? {}) }) }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-of-the-identity-provider'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    // A hospital's provider does not ask its staff to consent to their own hospital's app.
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  // The issuer names the port, known only once listening: listen first, then build the provider on
  // it at the first request (by when the client's redirect URIs are known).
  const app: { handler?: ReturnType<Provider['callback']> } = {};
  const server = createServer((req, res) => {
    app.handler ??= new Provider(issuer, configuration).callback();
    app.handler(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the identity provider is not listening on a port');
  const issuer = `http://127.0.0.1:${address.port}`;
  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirect: (uri) => void redirectUris.push(uri),
    setAccount: (login, account) => void accounts.set(login, account),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * This provider as an entry of the OIDC_PROVIDERS file: its secret in the environment variable
 * `secretEnv`; the groups `eddy-admins` and `eddy-doctors` give the roles, the claim `hospitals` the
 * hospitals among `hospitals`.
 */
export function providerEntry(idp: TestIdentityProvider, p: { id: string; name: string; hospitals: string[]; secretEnv: string }) {
  return {
    id: p.id,
    name: p.name,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecretEnv: p.secretEnv,
    hospitals: p.hospitals,
    roleClaim: 'groups',
    adminValues: ['eddy-admins'],
    doctorValues: ['eddy-doctors'],
    hospitalClaim: 'hospitals',
  };
}
