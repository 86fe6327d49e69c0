// Configuration comes only from the environment and is validated once at start-up: a wrong value
// stops the process with a list of everything that is wrong, not the first symptom of it.
import envSchema from 'env-schema';
import type { ErrorObject } from 'ajv';
import { describeAjvError } from './http/validation-message.ts';

const schema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://', description: 'a postgres:// URL' },
    DATABASE_POOL_MAX: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
    DEMO: { type: 'string', enum: ['0', '1', 'true', 'false', ''], default: '' },
    SMTP_URL: { type: 'string', pattern: '^smtps?://', description: 'an smtp:// or smtps:// URL' },
    MAIL_FROM: { type: 'string', minLength: 3, default: 'Eddy <no-reply@eddy.local>' },
    PUBLIC_URL: { type: 'string', pattern: '^https?://', description: 'an http(s):// URL' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    TRUST_PROXY: { type: 'string', enum: ['0', '1', 'true', 'false', ''], default: '' },
    AUTH_RATE_LIMIT: { type: 'integer', minimum: 1, default: 20 },
  },
} as const;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Seed demo data into a new database (always in embedded mode; with DATABASE_URL only if DEMO=1). */
  demo: boolean | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  /** Requests per minute per client address on each auth route. */
  authRateLimit: number;
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
    const errors = (err as { errors?: ErrorObject[] }).errors;
    if (!errors) throw err;
    throw new ConfigError(errors.map((e) => describeAjvError({ ...e, parentSchema: schemaFor(e) }, 'env')));
  }
  const str = (k: string) => (raw[k] === undefined ? undefined : String(raw[k]));
  return {
    port: Number(raw['PORT']),
    host: String(raw['HOST']),
    dataDir: String(raw['DATA_DIR']),
    databaseUrl: str('DATABASE_URL'),
    databasePoolMax: Number(raw['DATABASE_POOL_MAX']),
    demo: flag(str('DEMO')),
    smtpUrl: str('SMTP_URL'),
    mailFrom: String(raw['MAIL_FROM']),
    publicUrl: str('PUBLIC_URL'),
    logLevel: String(raw['LOG_LEVEL']),
    trustProxy: flag(str('TRUST_PROXY')) ?? false,
    authRateLimit: Number(raw['AUTH_RATE_LIMIT']),
  };
}

function schemaFor(e: ErrorObject): object {
  const key = e.instancePath.replace(/^\//, '');
  return (schema.properties as Record<string, object>)[key] ?? {};
}
