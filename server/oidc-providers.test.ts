// The identity providers' file (OIDC_PROVIDERS, issue 48): every problem named at start-up, at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { readOidcProviders } from './oidc-providers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'eddy-oidc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileOf = (content: unknown) => {
  const file = path.join(dir, `providers-${(n += 1)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const good = {
  id: 'st-marys',
  name: "St Mary's staff account",
  issuer: 'https://login.example.org/tenant/v2.0',
  clientId: 'eddy',
  hospitals: ["St Mary's"],
  adminValues: ['eddy-admins'],
};
const problemsOf = (content: unknown, env: NodeJS.ProcessEnv = {}) => {
  const problems: string[] = [];
  readOidcProviders(fileOf(content), env, problems);
  return problems;
};

describe('OIDC_PROVIDERS', () => {
  it('reads a provider with the defaults filled in: the standard scopes, the "groups" claim, a public client without a secret', () => {
    const problems: string[] = [];
    const [p] = readOidcProviders(fileOf({ providers: [good] }), {}, problems);
    expect(problems).toEqual([]);
    expect(p).toMatchObject({
      id: 'st-marys',
      scopes: ['openid', 'email', 'profile'],
      roleClaim: 'groups',
      clientSecret: undefined,
      doctorValues: [],
      hospitalClaim: undefined,
    });
  });

  it('takes the client secret from the environment variable it names', () => {
    const problems: string[] = [];
    const [p] = readOidcProviders(fileOf({ providers: [{ ...good, clientSecretEnv: 'ST_MARYS_SECRET' }] }), { ST_MARYS_SECRET: 's3cret' }, problems);
    expect(p?.clientSecret).toBe('s3cret');
    expect(problemsOf({ providers: [{ ...good, clientSecretEnv: 'ST_MARYS_SECRET' }] })).toEqual([
      expect.stringContaining('ST_MARYS_SECRET (its client secret) is not set'),
    ]);
  });

  it('names every problem of a wrong file', () => {
    expect(problemsOf('{ not json')[0]).toMatch(/must be a readable JSON file/);
    expect(problemsOf({ providers: [{ ...good, id: 'Bad Id' }] }).join('\n')).toMatch(/id/);
    const many = problemsOf({
      providers: [
        { ...good, issuer: 'http://login.example.org/' },
        { ...good, clientSecret: 'a', clientSecretEnv: 'B' },
        { ...good, id: 'nobody', adminValues: [] },
        { ...good, id: 'both', doctorValues: ['eddy-admins'] },
        { ...good, id: 'no-openid', scopes: ['email'] },
      ],
    });
    expect(many).toEqual([
      expect.stringMatching(/"st-marys": the issuer must be an https:\/\/ URL/),
      expect.stringMatching(/"st-marys": the id is used twice/),
      expect.stringMatching(/"st-marys": give clientSecret or clientSecretEnv, not both/),
      expect.stringMatching(/"nobody": adminValues or doctorValues must name at least one value/),
      expect.stringMatching(/"both": "eddy-admins" cannot give both roles/),
      expect.stringMatching(/"no-openid": scopes must include "openid"/),
    ]);
  });

  it('accepts an http:// issuer on this machine only (a provider for development and tests)', () => {
    expect(problemsOf({ providers: [{ ...good, issuer: 'http://127.0.0.1:8080/' }] })).toEqual([]);
    expect(problemsOf({ providers: [{ ...good, issuer: 'http://localhost:8080/realms/ward' }] })).toEqual([]);
  });

  it('stops the server at start-up with the list', () => {
    expect(() => loadConfig({ OIDC_PROVIDERS: path.join(dir, 'missing.json') })).toThrow(ConfigError);
    expect(loadConfig({}).oidcProviders).toEqual([]);
  });
});
