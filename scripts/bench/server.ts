// The server figures of `npm run bench` (issue 15, docs/requirements.md §11), measured on the real server
// (`node server/main.ts` through tests/fixtures/server.ts, fresh database, demo data) with
// autocannon, 10 clients by default:
// - `serverAddRpsPglite`: authenticated `POST /api/glucose/add` per second on the embedded database.
// - `serverAddP99MsPostgres`: p99 latency of the same on PostgreSQL.
// - `serverAddRatioPostgres`: those adds per second on PostgreSQL ÷ the transactions per second
//   PostgreSQL itself does, in the same run on the same database with the same number of clients,
//   with pgbench running the least an add needs: the session looked up by its token hash, the
//   reading inserted (its version trigger included). How much the server adds on top of its database.
// - `serverListRps`, `serverListP99Ms`: `GET /api/glucose` of a patient with 3,000 readings, on
//   PostgreSQL.
// Each add is what the app's outbox sends (sync/glucose-sync.ts, sync/drain.ts): a new `_id`, type,
// value, `recordedAt` and a fresh mutation id, with the device's X-Device-Id. Any failed request
// (a non-2xx answer, a connection error or timeout) fails the benchmark: a figure measured on
// errors means nothing.
//
// PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; pgbench from PATH.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { and, count, eq, isNull } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client.ts';
import { glucoseReadings, patients } from '../../server/db/schema.ts';
import { sha256 } from '../../server/lib/crypto.ts';
import { DEMO_PATIENT, readingsOf, type ServerReading } from '../../tests/fixtures/api.ts';
import { startServer, type EddyServer } from '../../tests/fixtures/server.ts';

export interface ServerFigures {
  serverAddRatioPostgres: number;
  serverListRps: number;
  serverListP99Ms: number;
  serverAddRpsPglite: number;
  serverAddP99MsPostgres: number;
}

export interface ServerFiguresOptions {
  /** Seconds of each measured run (autocannon and pgbench); 10 by default. */
  durationS?: number;
  /** Concurrent clients: autocannon connections and pgbench clients; 10 by default. */
  connections?: number;
  /** Progress and the details behind each figure. */
  log?: (line: string) => void;
  /** The PostgreSQL server to make the fresh database on; DATABASE_URL or the local one by default. */
  postgresUrl?: string;
}

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
const LIST_READINGS = 3000;
const WARM_UP_ADDS = 200;
const WARM_UP_LISTS = 50;

/** A logged-in device of the demo patient 100001. */
interface Device {
  token: string;
  deviceId: string;
  headers: Record<string, string>;
}

async function loginDevice(server: EddyServer): Promise<Device> {
  const deviceId = `bench-${randomBytes(6).toString('hex')}`;
  const res = await fetch(`${server.url}/api/auth/loginWithPassword`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-id': deviceId },
    body: JSON.stringify({ hospNo: DEMO_PATIENT.hospNo, password: DEMO_PATIENT.password }),
  });
  const json = (await res.json()) as { token?: string; message?: string };
  if (!json.token) throw new Error(`login of ${DEMO_PATIENT.hospNo} failed: ${res.status} ${json.message ?? ''}`);
  return { token: json.token, deviceId, headers: { authorization: `Bearer ${json.token}`, 'x-device-id': deviceId } };
}

async function liveReadings(server: EddyServer, device: Device): Promise<ServerReading[]> {
  const res = await fetch(`${server.url}/api/glucose`, { headers: device.headers });
  if (!res.ok) throw new Error(`GET /api/glucose: ${res.status} ${await res.text()}`);
  return readingsOf((await res.json()) as Record<string, ServerReading[]>);
}

/** The body of one new reading, as the app's outbox sends it: unique `_id` and mutation id. */
function addBodies(deviceId: string): () => string {
  const types = ['Fasting', 'Postprandial', 'Random'] as const;
  let seq = 0;
  return () => {
    seq += 1;
    return JSON.stringify({
      _id: randomUUID(),
      type: types[seq % 3] ?? 'Random',
      value: 70 + ((seq * 37) % 200),
      recordedAt: new Date(Date.now() - 60_000).toISOString(),
      mutationId: `${deviceId}:${seq}`,
    });
  };
}

interface Load {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  connections: number;
  /** A fresh body for each request. */
  body?: () => string;
  durationS?: number;
  amount?: number;
}

interface LoadResult {
  rps: number;
  p99Ms: number;
  ok: number;
  result: autocannon.Result;
}

/** One autocannon run; throws when any request failed. */
async function load(what: string, o: Load): Promise<LoadResult> {
  const makeBody = o.body;
  const headers = makeBody ? { ...o.headers, 'content-type': 'application/json' } : o.headers;
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    ...(o.amount !== undefined ? { amount: o.amount } : { duration: o.durationS ?? 10 }),
    requests: [
      {
        method: o.method,
        path: o.path,
        headers,
        ...(makeBody ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: makeBody() }) } : {}),
      },
    ],
  });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts + result.mismatches + result.resets;
  if (failed > 0 || ok === 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}×${s.count ?? 0}`)
      .join(', ');
    throw new Error(
      `${what}: ${ok} answered 2xx, ${result.non2xx} non-2xx (${codes}), ${result.errors} connection errors, ${result.timeouts} timeouts, ${result.mismatches} mismatches, ${result.resets} resets`,
    );
  }
  return { rps: result.requests.average, p99Ms: result.latency.p99, ok, result };
}

/** Brings the demo patient's live readings up to `total` with direct inserts (the server keeps running). */
async function topUpReadings(databaseUrl: string, total: number): Promise<string> {
  const database = await openDatabase({ databaseUrl, poolMax: 2 });
  try {
    const [patient] = await database.db.select({ id: patients.id }).from(patients).where(eq(patients.hospNo, DEMO_PATIENT.hospNo));
    if (!patient) throw new Error(`demo patient ${DEMO_PATIENT.hospNo} is missing`);
    const [live] = await database.db
      .select({ n: count() })
      .from(glucoseReadings)
      .where(and(eq(glucoseReadings.patientId, patient.id), isNull(glucoseReadings.deletedAt)));
    const missing = total - (live?.n ?? 0);
    const types = ['Fasting', 'Postprandial', 'Random'] as const;
    const now = Date.now();
    const rows = Array.from({ length: Math.max(0, missing) }, (_, i) => ({
      id: randomUUID(),
      patientId: patient.id,
      type: types[i % 3] ?? 'Random',
      valueMgDl: 70 + ((i * 37) % 200),
      // Older than the demo data's 90 days, one every 4 hours.
      recordedAt: new Date(now - 91 * 24 * 3600_000 - i * 4 * 3600_000),
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insert(glucoseReadings).values(rows.slice(i, i + 500));
    return patient.id;
  } finally {
    await database.close();
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

const HEX64 = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * pgbench on the server's database, `clients` clients for `durationS`, each transaction the least an
 * add needs: the live session by token hash (as sessionRepo.liveByHash), then the insert of the
 * reading (the version trigger stamps it, as for the server's insert). Its tps without the
 * initial connection time, and the transactions it ran.
 */
async function pgbenchAdd(
  databaseUrl: string,
  tokenHash: string,
  patientId: string,
  clients: number,
  durationS: number,
): Promise<{ tps: number; transactions: number }> {
  if (!HEX64.test(tokenHash) || !UUID.test(patientId)) throw new Error('unexpected token hash or patient id');
  const dir = await mkdtemp(path.join(tmpdir(), 'eddy-pgbench-'));
  try {
    const script = path.join(dir, 'add.sql');
    await writeFile(
      script,
      [
        '\\set v random(40, 400)',
        `SELECT * FROM sessions WHERE token_hash = '${tokenHash}' AND revoked_at IS NULL AND expires_at > now() LIMIT 1;`,
        `INSERT INTO glucose_readings (id, patient_id, type, value_mg_dl, recorded_at) VALUES (gen_random_uuid(), '${patientId}', 'Random', :v, now());`,
        '',
      ].join('\n'),
    );
    const u = new URL(databaseUrl);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PGHOST: u.hostname,
      PGPORT: u.port || '5432',
      PGUSER: decodeURIComponent(u.username) || 'postgres',
      PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
      ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}),
    };
    const threads = String(Math.min(2, clients));
    const { stdout } = await run('pgbench', ['-n', '-c', String(clients), '-j', threads, '-T', String(durationS), '-f', script], env);
    const tps = /^tps = ([0-9.]+) \(without initial connection time\)/m.exec(stdout);
    const done = /^number of transactions actually processed: ([0-9]+)/m.exec(stdout);
    const failed = /^number of failed transactions: ([0-9]+)/m.exec(stdout);
    if (!tps?.[1] || !done?.[1]) throw new Error(`pgbench printed no tps:\n${stdout}`);
    if (failed?.[1] && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions:\n${stdout}`);
    return { tps: Number(tps[1]), transactions: Number(done[1]) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Warm-up, then `durationS` of adds; checks that every add answered 2xx is held by the server. */
async function measureAdds(what: string, server: EddyServer, device: Device, connections: number, durationS: number): Promise<LoadResult> {
  const before = (await liveReadings(server, device)).length;
  const common = { url: server.url, method: 'POST' as const, path: '/api/glucose/add', headers: device.headers, connections, body: addBodies(device.deviceId) };
  const warm = await load(`${what} (warm-up)`, { ...common, amount: WARM_UP_ADDS });
  const measured = await load(what, { ...common, durationS });
  const after = (await liveReadings(server, device)).length;
  if (after - before < warm.ok + measured.ok)
    throw new Error(`${what}: ${warm.ok + measured.ok} adds answered 2xx but the server holds ${after - before} more readings`);
  return measured;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export async function serverFigures(opts: ServerFiguresOptions = {}): Promise<ServerFigures> {
  const durationS = opts.durationS ?? 10;
  const connections = opts.connections ?? 10;
  const log = opts.log ?? (() => undefined);
  const postgresUrl = opts.postgresUrl ?? process.env['DATABASE_URL'] ?? DEFAULT_POSTGRES;
  // No reminder passes in the background of a measurement.
  const env = { REMINDERS: '0' };

  // PostgreSQL: the list of 3,000 readings, the adds, and pgbench on the same database.
  let list: LoadResult;
  let addPg: LoadResult;
  let pgbench: { tps: number; transactions: number };
  {
    log(`PostgreSQL: starting the server on a fresh database on ${new URL(postgresUrl).host}`);
    const server = await startServer({ databaseUrl: postgresUrl, env });
    try {
      const databaseUrl = server.databaseUrl;
      if (!databaseUrl) throw new Error('the server is not on PostgreSQL');
      const device = await loginDevice(server);
      const patientId = await topUpReadings(databaseUrl, LIST_READINGS);
      const listed = (await liveReadings(server, device)).length;
      if (listed !== LIST_READINGS) throw new Error(`GET /api/glucose lists ${listed} readings, not ${LIST_READINGS}`);
      const listLoad = { url: server.url, method: 'GET' as const, path: '/api/glucose', headers: device.headers, connections };
      await load('GET /api/glucose (warm-up)', { ...listLoad, amount: WARM_UP_LISTS });
      list = await load('GET /api/glucose', { ...listLoad, durationS });
      log(
        `PostgreSQL: GET /api/glucose of ${LIST_READINGS} readings, ${connections} clients: ${round(list.rps, 1)} req/s, p50 ${list.result.latency.p50} ms, p99 ${list.p99Ms} ms (${list.ok} requests, ${Math.round(list.result.throughput.average / 1024)} KiB/s)`,
      );

      addPg = await measureAdds('POST /api/glucose/add on PostgreSQL', server, device, connections, durationS);
      log(
        `PostgreSQL: POST /api/glucose/add, ${connections} clients: ${round(addPg.rps, 1)} req/s, p50 ${addPg.result.latency.p50} ms, p99 ${addPg.p99Ms} ms (${addPg.ok} requests)`,
      );

      pgbench = await pgbenchAdd(databaseUrl, sha256(device.token), patientId, connections, durationS);
      log(`PostgreSQL: pgbench, session look-up + insert, ${connections} clients: ${round(pgbench.tps, 1)} tps (${pgbench.transactions} transactions)`);
    } finally {
      await server.cleanup();
    }
  }

  // The embedded database: the adds.
  let addPglite: LoadResult;
  {
    log('PGlite: starting the server on a fresh embedded database');
    const server = await startServer({ databaseUrl: '', env });
    try {
      const device = await loginDevice(server);
      addPglite = await measureAdds('POST /api/glucose/add on PGlite', server, device, connections, durationS);
      log(
        `PGlite: POST /api/glucose/add, ${connections} clients: ${round(addPglite.rps, 1)} req/s, p50 ${addPglite.result.latency.p50} ms, p99 ${addPglite.p99Ms} ms (${addPglite.ok} requests)`,
      );
    } finally {
      await server.cleanup();
    }
  }

  return {
    serverAddRatioPostgres: round(addPg.rps / pgbench.tps, 2),
    serverListRps: round(list.rps, 1),
    serverListP99Ms: list.p99Ms,
    serverAddRpsPglite: round(addPglite.rps, 1),
    serverAddP99MsPostgres: addPg.p99Ms,
  };
}
