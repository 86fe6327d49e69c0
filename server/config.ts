// Configuration comes only from the environment and is validated once at start-up: a wrong value
// stops the process with a list of everything that is wrong, not the first symptom of it.
import envSchema from 'env-schema';
import { describeAjvError, isValidationError, type ValidationError } from './http/validation-message.ts';
import type { FirebaseWebConfig } from '../schemas/push.ts';
import { parseAllowList, type AddressRange } from './http/address-ranges.ts';
import { readOidcProviders, type OidcProvider } from './oidc-providers.ts';
import { DEFAULT_PUSH_ENDPOINT_HOSTS, isHostName, type EndpointPolicy } from './push/endpoint-policy.ts';

const schema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://', description: 'a postgres:// URL' },
    DATABASE_POOL_MAX: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
    LIST_CACHE_MB: { type: 'integer', minimum: 0, maximum: 65536, default: 64 },
    DEMO: { type: 'string', enum: ['0', '1', 'true', 'false', ''], default: '' },
    DEMO_NOW: {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
      description: 'an ISO 8601 instant such as 2026-03-15T09:00:00Z',
    },
    SMTP_URL: { type: 'string', pattern: '^smtps?://', description: 'an smtp:// or smtps:// URL' },
    MAIL_FROM: { type: 'string', minLength: 3, default: 'Eddy <no-reply@eddy.local>' },
    PUBLIC_URL: { type: 'string', pattern: '^https?://', description: 'an http(s):// URL' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    TRUST_PROXY: { type: 'string', enum: ['0', '1', 'true', 'false', ''], default: '' },
    AUTH_RATE_LIMIT: { type: 'integer', minimum: 1, default: 20 },
    CONSENT_RATE_LIMIT: { type: 'integer', minimum: 1, default: 60 },
    REPORT_RATE_LIMIT: { type: 'integer', minimum: 1, default: 30 },
    VAPID_PUBLIC_KEY: { type: 'string', pattern: '^[A-Za-z0-9_-]{87}$', description: 'a base64url P-256 public key (87 characters)' },
    VAPID_PRIVATE_KEY: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', description: 'a base64url P-256 private key (43 characters)' },
    VAPID_SUBJECT: { type: 'string', pattern: '^(mailto:\\S+@\\S+|https://\\S+)$', description: 'a mailto: address or an https:// URL' },
    PUSH_PROVIDER: { type: 'string', enum: ['webpush', 'fcm'], default: 'webpush' },
    FCM_SERVICE_ACCOUNT: { type: 'string', minLength: 1 },
    FIREBASE_WEB_CONFIG: { type: 'string', minLength: 2 },
    FIREBASE_VAPID_KEY: { type: 'string', pattern: '^[A-Za-z0-9_-]{80,100}$', description: 'the base64url web push key of the Firebase project' },
    REMINDERS: { type: 'string', enum: ['0', '1', 'true', 'false'], default: '1' },
    REMINDER_INTERVAL_SECONDS: { type: 'integer', minimum: 5, maximum: 3600, default: 60 },
    PUSH_ALLOW_INSECURE_ENDPOINTS: { type: 'string', enum: ['0', '1', 'true', 'false'], default: '0' },
    PUSH_ENDPOINT_HOSTS: { type: 'string', minLength: 1, description: 'comma-separated host names of push services' },
    METRICS_TOKEN: { type: 'string', minLength: 16, description: 'a secret of at least 16 characters' },
    METRICS_ALLOW: { type: 'string', minLength: 1, description: 'comma-separated addresses or CIDR ranges' },
    OIDC_PROVIDERS: { type: 'string', minLength: 1, description: 'the path of a JSON file of identity providers' },
  },
} as const;

export type { FirebaseWebConfig };

export type PushConfig = { provider: 'webpush' } | { provider: 'fcm'; serviceAccountPath: string; webConfig: FirebaseWebConfig; vapidKey: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Memory for the whole lists of patients' records last sent (services/list-cache.ts); 0 keeps none. */
  listCacheMb: number;
  /** Seed demo data into a new database (always in embedded mode; with DATABASE_URL only if DEMO=1). */
  demo: boolean | undefined;
  /** The instant the demo data ends at (DEMO_NOW; the start by default): the same screens on every run, for screenshot baselines. */
  demoNow: Date | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  /** Requests per minute per client address on each auth route. */
  authRateLimit: number;
  /** Requests per minute per client address on each cookie-consent route (/api/c15t/*). */
  consentRateLimit: number;
  /** Requests per minute per client address on each report route (a PDF costs real CPU). */
  reportRateLimit: number;
  push: PushConfig;
  /** Both keys or neither: without them the server generates a pair once and keeps it in the database. */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** Who runs this server, sent to push services with every request (mailto: or https:). */
  vapidSubject: string;
  /** Run the reminder scheduler inside the server process. */
  reminders: boolean;
  reminderIntervalSeconds: number;
  /** Accept http://127.0.0.1 and http://localhost push endpoints: a push-service peer in tests. */
  pushAllowInsecureEndpoints: boolean;
  /** The push services a subscription's endpoint may name (each with its subdomains). */
  pushEndpointHosts: string[];
  /** /metrics for scrapers sending this bearer token (off when neither this nor metricsAllow is set). */
  metricsToken: string | undefined;
  /** /metrics for scrapers connecting from these ranges. */
  metricsAllow: AddressRange[];
  /** The hospitals' identity providers for staff sign-in (OIDC_PROVIDERS; none by default). */
  oidcProviders: OidcProvider[];
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

const flag = (v: string | undefined) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : undefined);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset (a common result of `FOO= npm start`).
  const data = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  let raw: Record<string, unknown>;
  try {
    raw = envSchema({ schema, data, dotenv: false, env: false });
  } catch (err) {
    // env-schema's error carries Ajv's errors.
    const errors: unknown = typeof err === 'object' && err !== null && 'errors' in err ? err.errors : undefined;
    if (!Array.isArray(errors) || !errors.every(isValidationError)) throw err;
    throw new ConfigError(errors.map((e) => describeAjvError({ ...e, parentSchema: schemaFor(e) }, 'env')));
  }
  const str = (k: string) => (raw[k] === undefined ? undefined : String(raw[k]));
  const problems: string[] = [];
  const publicKey = str('VAPID_PUBLIC_KEY');
  const privateKey = str('VAPID_PRIVATE_KEY');
  if ((publicKey === undefined) !== (privateKey === undefined))
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither, to use generated keys)');
  const push = pushConfig(raw['PUSH_PROVIDER'] === 'fcm', str, problems);
  const pushEndpointHosts = str('PUSH_ENDPOINT_HOSTS')
    ?.split(',')
    .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
    .filter((h) => h !== '') ?? [...DEFAULT_PUSH_ENDPOINT_HOSTS];
  const badHosts = pushEndpointHosts.filter((h) => !isHostName(h));
  const metricsAllow = parseAllowList(str('METRICS_ALLOW') ?? '');
  if (metricsAllow.bad.length > 0)
    problems.push(`METRICS_ALLOW must be addresses or CIDR ranges separated by commas (not ${metricsAllow.bad.map((b) => JSON.stringify(b)).join(', ')})`);
  if (badHosts.length > 0 || pushEndpointHosts.length === 0)
    problems.push(`PUSH_ENDPOINT_HOSTS must be host names separated by commas (not ${badHosts.map((h) => JSON.stringify(h)).join(', ') || 'empty'})`);
  const oidcPath = str('OIDC_PROVIDERS');
  const oidcProviders = oidcPath === undefined ? [] : readOidcProviders(oidcPath, env, problems);
  const demoNow = str('DEMO_NOW');
  if (demoNow !== undefined && !isRealInstant(demoNow)) problems.push(`DEMO_NOW must be a real instant (not ${JSON.stringify(demoNow)})`);
  if (problems.length > 0) throw new ConfigError(problems);
  const mailFrom = String(raw['MAIL_FROM']);
  return {
    port: Number(raw['PORT']),
    host: String(raw['HOST']),
    dataDir: String(raw['DATA_DIR']),
    databaseUrl: str('DATABASE_URL'),
    databasePoolMax: Number(raw['DATABASE_POOL_MAX']),
    listCacheMb: Number(raw['LIST_CACHE_MB']),
    demo: flag(str('DEMO')),
    demoNow: demoNow === undefined ? undefined : new Date(demoNow),
    smtpUrl: str('SMTP_URL'),
    mailFrom,
    publicUrl: str('PUBLIC_URL'),
    logLevel: String(raw['LOG_LEVEL']),
    trustProxy: flag(str('TRUST_PROXY')) ?? false,
    authRateLimit: Number(raw['AUTH_RATE_LIMIT']),
    consentRateLimit: Number(raw['CONSENT_RATE_LIMIT']),
    reportRateLimit: Number(raw['REPORT_RATE_LIMIT']),
    push,
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    vapidSubject: str('VAPID_SUBJECT') ?? subjectFromMailFrom(mailFrom),
    reminders: flag(str('REMINDERS')) ?? true,
    reminderIntervalSeconds: Number(raw['REMINDER_INTERVAL_SECONDS']),
    pushAllowInsecureEndpoints: flag(str('PUSH_ALLOW_INSECURE_ENDPOINTS')) ?? false,
    pushEndpointHosts,
    metricsToken: str('METRICS_TOKEN'),
    metricsAllow: metricsAllow.ranges,
    oidcProviders,
  };
}

/** An ISO 8601 instant (the schema checked its shape) whose date exists: Date.parse rolls 02-31 over to March. */
function isRealInstant(iso: string): boolean {
  const [year = NaN, month = NaN, day = NaN] = iso.slice(0, 10).split('-').map(Number);
  return !Number.isNaN(Date.parse(iso)) && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** "Eddy <no-reply@eddy.local>" → "mailto:no-reply@eddy.local". */
function subjectFromMailFrom(mailFrom: string): string {
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

function pushConfig(fcm: boolean, str: (k: string) => string | undefined, problems: string[]): PushConfig {
  if (!fcm) return { provider: 'webpush' };
  const serviceAccountPath = str('FCM_SERVICE_ACCOUNT');
  const rawWebConfig = str('FIREBASE_WEB_CONFIG');
  const vapidKey = str('FIREBASE_VAPID_KEY');
  if (!serviceAccountPath) problems.push('FCM_SERVICE_ACCOUNT is required when PUSH_PROVIDER=fcm (the path of the service-account JSON file)');
  if (!vapidKey) problems.push('FIREBASE_VAPID_KEY is required when PUSH_PROVIDER=fcm (the web push certificate key of the Firebase project)');
  let webConfig: FirebaseWebConfig | undefined;
  if (!rawWebConfig) problems.push('FIREBASE_WEB_CONFIG is required when PUSH_PROVIDER=fcm (the JSON of the Firebase web app configuration)');
  else {
    webConfig = parseFirebaseWebConfig(rawWebConfig);
    if (!webConfig)
      problems.push('FIREBASE_WEB_CONFIG must be a JSON object with the text fields apiKey, projectId, messagingSenderId and appId (authDomain optional)');
  }
  if (!serviceAccountPath || !vapidKey || !webConfig) return { provider: 'webpush' };
  return { provider: 'fcm', serviceAccountPath, webConfig, vapidKey };
}

function parseFirebaseWebConfig(text: string): FirebaseWebConfig | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const fields = new Map<string, unknown>(Object.entries(v));
  const s = (k: string) => {
    const field = fields.get(k);
    return typeof field === 'string' && field !== '' ? field : undefined;
  };
  const apiKey = s('apiKey');
  const projectId = s('projectId');
  const messagingSenderId = s('messagingSenderId');
  const appId = s('appId');
  const authDomain = s('authDomain');
  if (!apiKey || !projectId || !messagingSenderId || !appId) return undefined;
  return { apiKey, projectId, messagingSenderId, appId, ...(authDomain ? { authDomain } : {}) };
}

const PROPERTIES: Readonly<Record<string, object>> = schema.properties;

function schemaFor(e: ValidationError): object {
  const key = e.instancePath.replace(/^\//, '');
  return PROPERTIES[key] ?? {};
}

/** Where this server may send Web Push requests (server/push/endpoint-policy.ts). */
export const endpointPolicyOf = (config: Pick<Config, 'pushEndpointHosts' | 'pushAllowInsecureEndpoints'>): EndpointPolicy => ({
  hosts: config.pushEndpointHosts,
  allowInsecureLoopback: config.pushAllowInsecureEndpoints,
});
