// The hospitals' identity providers for staff sign-in (issue 48): read once at start-up from the JSON
// file named by OIDC_PROVIDERS, checked against a JSON Schema, every problem listed at once. A provider
// signs staff into the hospitals it names, as admin or doctor by the values of one claim.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describeAjvError, isValidationError } from './http/validation-message.ts';

/** The provider's id in URLs and in the database: lower-case letters, digits and dashes. */
export const OIDC_PROVIDER_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,39}$';

const providerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'issuer', 'clientId', 'hospitals'],
  properties: {
    id: { type: 'string', pattern: OIDC_PROVIDER_ID_PATTERN, description: 'lower-case letters, digits and dashes (at most 40)' },
    name: { type: 'string', minLength: 1, maxLength: 80, description: 'the name on the sign-in button' },
    issuer: { type: 'string', pattern: '^https?://', description: "the provider's issuer URL" },
    clientId: { type: 'string', minLength: 1 },
    clientSecret: { type: 'string', minLength: 1 },
    clientSecretEnv: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$', description: 'the name of an environment variable' },
    scopes: { type: 'array', items: { type: 'string', pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$' }, minItems: 1, uniqueItems: true },
    hospitals: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      uniqueItems: true,
      description: 'the names of the hospitals it signs staff into',
    },
    roleClaim: { type: 'string', minLength: 1 },
    adminValues: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    doctorValues: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    hospitalClaim: { type: 'string', minLength: 1 },
  },
} as const;

const fileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['providers'],
  properties: { providers: { type: 'array', items: providerSchema } },
} as const;

export interface OidcProvider {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  /** Absent: a public client, PKCE alone. */
  clientSecret: string | undefined;
  scopes: string[];
  /** The hospitals (by name) it signs staff into. */
  hospitals: string[];
  /** The claim whose values give the role ("groups", "roles"; a string or a list of strings). */
  roleClaim: string;
  adminValues: string[];
  doctorValues: string[];
  /** Where set, a claim naming (by name) the hospitals of this person among `hospitals`. */
  hospitalClaim: string | undefined;
}

interface RawProvider {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  clientSecretEnv?: string;
  scopes?: string[];
  hospitals: string[];
  roleClaim?: string;
  adminValues?: string[];
  doctorValues?: string[];
  hospitalClaim?: string;
}

const validate = new Ajv({ allErrors: true, verbose: true }).compile<{ providers: RawProvider[] }>(fileSchema);

/** An http:// issuer only on this machine (a provider started by the tests, a developer's Keycloak). */
export function isLoopbackUrl(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
}

/** The providers of the file at `path`, or the problems found (each naming the file and the field). */
export function readOidcProviders(path: string, env: NodeJS.ProcessEnv, problems: string[]): OidcProvider[] {
  const where = `OIDC_PROVIDERS (${path})`;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    problems.push(`${where} must be a readable JSON file: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
  if (!validate(data)) {
    for (const e of validate.errors ?? []) if (isValidationError(e)) problems.push(`${where}: ${describeAjvError(e, 'file')}`);
    return [];
  }
  const seen = new Set<string>();
  const providers: OidcProvider[] = [];
  for (const p of data.providers) {
    const at = `${where}, provider "${p.id}"`;
    if (seen.has(p.id)) problems.push(`${at}: the id is used twice`);
    seen.add(p.id);
    const issuer = new URL(p.issuer);
    if (issuer.protocol !== 'https:' && !isLoopbackUrl(issuer)) problems.push(`${at}: the issuer must be an https:// URL (http:// only for localhost)`);
    const secret = p.clientSecretEnv === undefined ? p.clientSecret : env[p.clientSecretEnv];
    if (p.clientSecret !== undefined && p.clientSecretEnv !== undefined) problems.push(`${at}: give clientSecret or clientSecretEnv, not both`);
    else if (p.clientSecretEnv !== undefined && !secret) problems.push(`${at}: the environment variable ${p.clientSecretEnv} (its client secret) is not set`);
    const adminValues = p.adminValues ?? [];
    const doctorValues = p.doctorValues ?? [];
    if (adminValues.length + doctorValues.length === 0) problems.push(`${at}: adminValues or doctorValues must name at least one value of the role claim`);
    const both = adminValues.filter((v) => doctorValues.includes(v));
    if (both.length > 0) problems.push(`${at}: ${both.map((v) => JSON.stringify(v)).join(', ')} cannot give both roles`);
    providers.push({
      id: p.id,
      name: p.name,
      issuer: p.issuer,
      clientId: p.clientId,
      clientSecret: secret || undefined,
      scopes: p.scopes ?? ['openid', 'email', 'profile'],
      hospitals: p.hospitals,
      roleClaim: p.roleClaim ?? 'groups',
      adminValues,
      doctorValues,
      hospitalClaim: p.hospitalClaim,
    });
  }
  for (const p of providers) if (!p.scopes.includes('openid')) problems.push(`${where}, provider "${p.id}": scopes must include "openid"`);
  return providers;
}
