// The real server as a child process (`node server/main.ts`, as `npm start` runs it after the build),
// for the tests of what only a process shows: its shutdown on SIGTERM, several instances behind a
// load balancer (server/shutdown.db.test.ts, server/scale-out.db.test.ts). Beside it: a database prepared
// for such a server, plain HTTP requests on a connection of their own, and a request whose body
// arrives slowly, so that it is in flight for as long as a test needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../db/client.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { copyPgliteTemplate } from './db-template.ts';
import { seedFixture, type Fixture } from './harness.ts';
import { freePort } from './ports.ts';
import { createFreshPostgres } from './postgres.ts';

export const root = path.resolve(import.meta.dirname, '../..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns a value other than undefined/false, or throws `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(everyMs);
  }
}

export interface ServerProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (pino's JSON lines at LOG_LEVEL=info and above). */
  log(): string;
  /** Resolves when the process has exited, with when (Date.now()) and how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  running(): boolean;
  /** SIGKILL if still running (clean-up after a failed test). */
  kill(): Promise<void>;
}

/**
 * Starts `node server/main.ts` on a free port (or `port`, e.g. an instance started again where its
 * balancer expects it) with `env` and waits until /api/health answers.
 */
export async function startServerProcess(name: string, env: Record<string, string>, timeoutMs = 60_000, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO: '0', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const server: ServerProcess = {
    name,
    port,
    url,
    child,
    log: () => output.join(''),
    exited,
    running,
    async kill() {
      if (!running()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await waitFor(
      () => `${name} to answer /api/health; it printed:\n${server.log() || '(nothing)'}`,
      async () => {
        if (!running()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${server.log()}`);
        return (await get(url, '/api/health').catch(() => undefined))?.status === 200;
      },
      timeoutMs,
      100,
    );
  } catch (err) {
    await server.kill();
    throw err;
  }
  return server;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

function parseJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client's address (any 127.x.y.z on Linux): a different client to a proxy or a rate limit. */
  localAddress?: string;
}

/** One request on a connection of its own (`Connection: close`), so a load balancer balances each one. */
export function call(base: string, pathname: string, opts: CallOptions = {}): Promise<Answer> {
  const url = new URL(pathname, base);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method ?? (payload === undefined ? 'GET' : 'POST'),
        agent: false,
        ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
        headers: {
          connection: 'close',
          'x-requested-with': 'XMLHttpRequest',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`${pathname}: no answer within 20 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export const get = (base: string, pathname: string, opts: Omit<CallOptions, 'body' | 'method'> = {}) => call(base, pathname, { ...opts, method: 'GET' });
export const post = (base: string, pathname: string, body: unknown, opts: Omit<CallOptions, 'body' | 'method'> = {}) =>
  call(base, pathname, { ...opts, method: 'POST', body });

export async function login(base: string, hospNo: string, password: string): Promise<string> {
  const res = await post(base, '/api/auth/loginWithPassword', { hospNo, password });
  if (res.status !== 200 || typeof res.json['token'] !== 'string') throw new Error(`login of ${hospNo} failed: ${res.status} ${res.text}`);
  return res.json['token'];
}

export interface SlowRequest {
  socket: Socket;
  /** Sends the rest of the body and reads the answer (up to its Content-Length). */
  finish(): Promise<Answer>;
  /** Resolves when the connection has ended: true when the other side ended it. */
  closed: Promise<boolean>;
}

/** The answer in `raw` once it is complete (headers and Content-Length bytes of body), else undefined. */
function completeAnswer(raw: Buffer): Answer | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = raw.subarray(split + 4);
  if (body.length < Number(headers['content-length'] ?? 0)) return undefined;
  const text = body.toString('utf8');
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, text, json: parseJson(text) };
}

/**
 * A request whose headers and first half of the body are sent now, on a kept-alive HTTP/1.1
 * connection (no `Connection: close`), as a browser on a slow network sends it: it is in flight
 * until `finish()` sends the rest.
 */
export async function slowRequest(base: string, pathname: string, body: unknown, token: string): Promise<SlowRequest> {
  const url = new URL(pathname, base);
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let raw = Buffer.alloc(0);
  let onData = () => undefined as void;
  socket.on('data', (c: Buffer) => {
    raw = Buffer.concat([raw, c]);
    onData();
  });
  let endedByOtherSide = false;
  socket.on('end', () => (endedByOtherSide = true));
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(endedByOtherSide)));
  socket.on('error', () => undefined);
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n` +
      `Authorization: Bearer ${token}\r\nX-Requested-With: XMLHttpRequest\r\n\r\n`,
  );
  socket.write(payload.subarray(0, half));
  return {
    socket,
    closed,
    finish() {
      socket.write(payload.subarray(half));
      return new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${pathname}: no complete answer within 15 s; received: ${raw.toString('utf8')}`)), 15_000);
        const check = () => {
          const answer = completeAnswer(raw);
          if (!answer) return;
          clearTimeout(timer);
          resolve(answer);
        };
        onData = check;
        check();
        // `closed` only ever resolves (on the socket's close event), so this needs no rejection handler.
        // eslint-disable-next-line @typescript-eslint/no-floating-promises -- see above
        void closed.then(() => {
          if (!completeAnswer(raw)) {
            clearTimeout(timer);
            reject(new Error(`${pathname}: the connection ended before a complete answer; received: ${raw.toString('utf8')}`));
          }
        });
      });
    },
  };
}

/** Whether a new TCP connection to `port` is refused (the server stopped listening). */
export function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A prescription of the fixture's patient A, for "Remind later". */
export const PRESCRIPTION = { prescrNo: 'RX-SCALE-1', medicineName: 'Metformin 500 mg tablet', dose: '1-0-1' } as const;

export interface PreparedDatabase {
  fixture: Fixture;
  /** What the server process needs to use it: DATABASE_URL, or DATA_DIR with the embedded one. */
  env: Record<string, string>;
  kind: 'postgres' | 'pglite';
  /** Opens it from the test (the embedded one only while no server has it open). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A migrated database of its own with the harness's fixture (two hospitals, an admin, three
 * patients) and a prescription of patient A: on the PostgreSQL of `postgresBase` when given, else
 * embedded in a data folder of its own.
 */
export async function prepareDatabase(prefix: string, postgresBase: string | undefined): Promise<PreparedDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  let env: Record<string, string>;
  let open: () => Promise<Database>;
  let dropDatabase = async () => undefined as void;
  if (postgresBase) {
    const fresh = await createFreshPostgres(postgresBase, prefix.replaceAll('-', '_'));
    env = { DATABASE_URL: fresh.url, DATA_DIR: dataDir };
    open = () => openDatabase({ databaseUrl: fresh.url, poolMax: 2 });
    dropDatabase = () => fresh.drop();
  } else {
    await copyPgliteTemplate(dataDir);
    env = { DATABASE_URL: '', DATA_DIR: dataDir };
    open = () => openDatabase({ dataDir });
  }
  const database = await open();
  let fixture: Fixture;
  try {
    fixture = await seedFixture(database.db, 'UTC');
    await medicineRepo.insert(database.db, {
      patientId: fixture.patientA.id,
      prescrNo: PRESCRIPTION.prescrNo,
      name: PRESCRIPTION.medicineName,
      dose: PRESCRIPTION.dose,
    });
  } finally {
    await database.close();
  }
  return {
    fixture,
    env,
    kind: postgresBase ? 'postgres' : 'pglite',
    open,
    async drop() {
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Meal times `hours` from now (HH:MM, UTC), so that no planned reminder falls due during a test. */
export function mealTimesAway(): { breakfast: string; lunch: string; dinner: string } {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString().slice(11, 16);
  return { breakfast: inHours(5), lunch: inHours(6), dinner: inHours(7) };
}
