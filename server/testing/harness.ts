// Test harness: a real Fastify instance on a real database. Without DATABASE_URL each test file gets
// its own in-memory PGlite; with DATABASE_URL it gets its own freshly created PostgreSQL database,
// dropped afterwards, so files run in parallel without seeing each other's rows.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { hashPassword } from '../lib/crypto.ts';
import type { Mailer } from '../mail/mailer.ts';
import { patientRepo } from '../repositories/patients.ts';
import { staffRepo } from '../repositories/staff.ts';
import { pgliteTemplateTar } from './db-template.ts';
import { createFreshPostgres } from './postgres.ts';

export interface Harness {
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  dataDir: string;
  /** The PostgreSQL database of this harness (undefined on PGlite), e.g. for a second pool. */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<{ database: Database; url: string | undefined; drop(): Promise<void> }> {
  const base = process.env['DATABASE_URL'];
  if (!base) {
    // A copy of a migrated database made once (db-template.ts): a new PGlite takes seconds to initialise.
    const database = await openDatabase({ template: await pgliteTemplateTar() });
    await database.migrate();
    return { database, url: undefined, drop: async () => database.close() };
  }
  const fresh = await createFreshPostgres(base, 'eddy_test');
  const database = await openDatabase({ databaseUrl: fresh.url, poolMax: 4 });
  await database.migrate();
  return {
    database,
    url: fresh.url,
    async drop() {
      await database.close();
      await fresh.drop();
    },
  };
}

/** `opts.reminders` starts the server's own reminder loop; tests otherwise run passes themselves. */
export async function createHarness(env: Record<string, string> = {}, opts: { mailer?: Mailer; reminders?: boolean; webRoot?: string } = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: '1000', LOG_LEVEL: 'silent', ...env });
  const { database, url, drop } = await openTestDatabase();
  const app = await buildApp({
    config,
    database,
    logger: false,
    checkResponses: true,
    reminders: opts.reminders ?? false,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    ...(opts.webRoot ? { webRoot: opts.webRoot } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    dataDir,
    databaseUrl: url,
    async close() {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Fixture {
  hospitalA: { id: string; name: string };
  hospitalB: { id: string; name: string };
  adminEmail: string;
  adminPassword: string;
  /** Admin of hospital A only. */
  patientA: { id: string; hospNo: string; password: string };
  /** Patient of hospital A too, to prove patients cannot reach each other. */
  patientA2: { id: string; hospNo: string; password: string };
  /** Patient of hospital B, which the admin cannot see. */
  patientB: { id: string; hospNo: string; password: string };
}

/** Two hospitals, an admin of the first, two patients there and one in the second. */
export async function seedFixture(db: Db, timeZone = 'UTC'): Promise<Fixture> {
  const a = await staffRepo.insertHospital(db, { name: 'Test Hospital A', timeZone });
  const b = await staffRepo.insertHospital(db, { name: 'Test Hospital B', timeZone });
  const adminPassword = 'Admin-pass-1';
  const admin = await staffRepo.insertAdmin(db, { email: 'admin@test.hospital', name: 'Test Admin', passwordHash: await hashPassword(adminPassword) });
  await staffRepo.grantHospitals(db, admin.id, [a.id]);
  const mk = async (hospNo: string, hospitalId: string, name: string) => {
    const password = `Pw-${hospNo}-secret`;
    const p = await patientRepo.insert(db, { hospNo, hospitalId, name, timeZone, passwordHash: await hashPassword(password) });
    return { id: p.id, hospNo, password };
  };
  return {
    hospitalA: { id: a.id, name: a.name },
    hospitalB: { id: b.id, name: b.name },
    adminEmail: 'admin@test.hospital',
    adminPassword,
    patientA: await mk('200001', a.id, 'Alice Able'),
    patientA2: await mk('200002', a.id, 'Aaron Adams'),
    patientB: await mk('300001', b.id, 'Bob Baker'),
  };
}

type Json = Record<string, unknown>;

/** `inject` with the headers the app sends, returning status, headers and parsed JSON. */
export async function call(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await app.inject({
    method,
    url,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
  });
  let json: Json;
  try {
    json = res.json<Json>();
  } catch {
    json = {};
  }
  return { status: res.statusCode, headers: res.headers, json, body: res.body };
}

export async function loginPatient(app: FastifyInstance, hospNo: string, password: string): Promise<string> {
  const res = await call(app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.body}`);
  return String(res.json['token']);
}

export async function loginAdmin(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await call(app, 'POST', '/api/admin/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.body}`);
  return String(res.json['token']);
}

/** The 6-digit codes mailed to the outbox, oldest first. */
export async function outboxCodes(dataDir: string): Promise<{ file: string; code: string; text: string }[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const out = [];
  for (const f of files) {
    const text = await readFile(path.join(dir, f), 'utf8');
    const m = /Code: (\d{6})/.exec(text);
    if (m?.[1]) out.push({ file: f, code: m[1], text });
  }
  return out;
}
