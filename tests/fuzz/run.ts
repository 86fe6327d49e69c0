// API fuzzing from the shared schemas (issue 14, part 5).
//
//   npm run fuzz -- --requests N [--seed S] [--concurrency C] [--only I] [--print P]
//
// Starts the real server (tests/fixtures/server.ts: `node server/main.ts` on a fresh embedded
// database with the demo data, or, with DATABASE_URL set, on a fresh PostgreSQL database of its own;
// the web app must be built: npm run build), with its rate limits raised so the fuzz is not all 429s.
// It logs in the demo patients 100001 and 100002 and the demo admin, has the admin make a doctor
// token and a prescription for each patient, then sends N requests over keep-alive connections,
// C at a time (default 16):
//   - every route of the API, found by running the server's own route registration
//     (tests/fuzz/routes.ts), so a new route is fuzzed without a line of code;
//   - bodies, query strings and path parameters drawn by fast-check from the route's own JSON
//     schemas in schemas/ (tests/fuzz/schema-arbitrary.ts): valid and boundary values, one field
//     broken, required keys missing, extra keys (__proto__ too), wrong types, huge and odd strings,
//     plus raw bodies (malformed JSON, wrong content types, deep nesting, over the size limit), odd
//     headers, other methods and unknown paths (tests/fuzz/requests.ts);
//   - as patient 100001, patient 100002, the admin (X-Hosp-No of a demo patient), the doctor, no
//     token and forged tokens. Sessions that end on the way (a password change, a revoked doctor
//     token) are renewed; the logout routes come last.
// Each answer is judged by tests/fuzz/contracts.ts: below 500; a 4xx is JSON with a message; a 2xx
// has its route's declared shape; no secret hash in any answer; no guarded route answers a caller
// it must refuse. Each failure is printed with its request (method, URL, caller, headers, body) and
// the answer; a server error also prints the server's log around it.
//
// --seed S replays the same sequence of requests (default: a random seed, printed first as
// `fuzz: seed S`). Dates in the requests are drawn around the start of the current UTC day, so a
// replay on another day shifts them. --only I sends request number I alone (after the same setup).
// The exit code is 1 when there is any server error or contract violation, and the last line of
// stdout is exactly `fuzz: <requests> requests, <errors> server errors, <violations> contract violations`.
import { Agent, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { startServer, type EddyServer } from '../fixtures/server.ts';
import { judge, type Answer, type Auth } from './contracts.ts';
import { DEMO, hintsFor, logoutRequests, requests, type FuzzRequest } from './requests.ts';
import { discoverRoutes, routeKey, type Route } from './routes.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    only: { type: 'string' },
    print: { type: 'string', default: '40' },
  },
  allowPositionals: false,
});

const total = Number(args.requests);
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const concurrency = Math.max(1, Number(args.concurrency));
const maxPrint = Number(args.print);
if (!Number.isInteger(total) || total < 1 || !Number.isInteger(seed) || !Number.isInteger(concurrency)) {
  process.stderr.write('usage: npm run fuzz -- --requests N [--seed S] [--concurrency C] [--only I] [--print P]\n');
  process.exit(2);
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const DEMO_PASSWORDS: Record<string, string> = { '100001': 'Demo-patient-1', '100002': 'Demo-patient-2' };
const ADMIN_PASSWORD = 'Demo-admin-1';

// ——— HTTP ———

const agent = new Agent({ keepAlive: true, maxSockets: concurrency + 4 });
const TIMEOUT_MS = 60_000;

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

function send(base: string, s: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...s.headers };
    if (s.body !== undefined) headers['content-length'] = String(s.body.length);
    const req = httpRequest(`${base}${s.url}`, { method: s.method, headers, agent, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    if (s.body !== undefined) req.end(s.body);
    else req.end();
  });
}

/** Sends once more when the connection was reset before any answer (the server closes idle keep-alive sockets). */
async function sendRetrying(base: string, s: Sent): Promise<Answer> {
  try {
    return await send(base, s);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ECONNRESET' || code === 'EPIPE') return send(base, s);
    throw err;
  }
}

async function call(base: string, method: string, url: string, body: unknown, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const a = await send(base, {
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? Buffer.from(JSON.stringify(body)) : undefined,
  });
  const text = a.body.toString();
  return { status: a.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

// ——— Sessions: the callers' tokens, kept alive through the run ———

class Sessions {
  readonly tokens = new Map<Auth, string>();
  readonly passwords = new Map<string, string>(Object.entries(DEMO_PASSWORDS));
  readonly refs = new Map<string, string>();
  private readonly pending = new Map<Auth, Promise<void>>();
  renewals = 0;
  private readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async loginPatient(auth: 'patient' | 'patient2'): Promise<void> {
    const hospNo = auth === 'patient' ? DEMO.patients[0]! : DEMO.patients[1]!;
    let r = await call(this.base, 'POST', '/api/auth/loginWithPassword', { hospNo, password: this.passwords.get(hospNo) });
    if (r.status !== 200) {
      // The fuzz changed the password in a way it could not follow: the admin sets a new one.
      const t = await call(this.base, 'POST', `/api/admin/patients/${hospNo}/temporary-password`, undefined, this.tokens.get('admin'));
      if (t.status !== 200) throw new Error(`could not reset the password of ${hospNo}: ${t.status} ${JSON.stringify(t.json)}`);
      this.passwords.set(hospNo, String(t.json['temporaryPassword']));
      r = await call(this.base, 'POST', '/api/auth/loginWithPassword', { hospNo, password: this.passwords.get(hospNo) });
    }
    if (r.status !== 200) throw new Error(`login of ${hospNo} failed: ${r.status} ${JSON.stringify(r.json)}`);
    this.tokens.set(auth, String(r.json['token']));
  }

  async loginAdmin(): Promise<void> {
    const r = await call(this.base, 'POST', '/api/admin/login', { email: DEMO.adminEmail, password: ADMIN_PASSWORD });
    if (r.status !== 200) throw new Error(`admin login failed: ${r.status} ${JSON.stringify(r.json)}`);
    this.tokens.set('admin', String(r.json['token']));
    const hospitals = (r.json['admin'] as { hospitals: { _id: string }[] }).hospitals;
    if (!this.refs.has('hospitalId')) this.refs.set('hospitalId', hospitals[0]!._id);
    this.refs.set('hospitalIds', JSON.stringify(hospitals.map((h) => h._id)));
  }

  async newDoctorToken(): Promise<void> {
    const r = await call(
      this.base,
      'POST',
      '/api/admin/doctor-tokens',
      { doctorName: 'Dr. Fuzz', hospitalIds: JSON.parse(this.refs.get('hospitalIds') ?? '[]') as string[], expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      this.tokens.get('admin'),
    );
    if (r.status !== 201) throw new Error(`doctor token failed: ${r.status} ${JSON.stringify(r.json)}`);
    this.tokens.set('doctor', String(r.json['token']));
    this.refs.set('doctorTokenId', String((r.json['data'] as { _id: string })._id));
  }

  async setup(): Promise<void> {
    await this.loginAdmin();
    await this.loginPatient('patient');
    await this.loginPatient('patient2');
    await this.newDoctorToken();
    for (const hospNo of DEMO.patients) {
      const r = await call(this.base, 'POST', `/api/admin/patients/${hospNo}/prescriptions`, DEMO.prescription, this.tokens.get('admin'));
      if (r.status !== 201) throw new Error(`prescription for ${hospNo} failed: ${r.status} ${JSON.stringify(r.json)}`);
      if (hospNo === DEMO.patients[0]) this.refs.set('prescriptionId', String((r.json['data'] as { _id: string })._id));
    }
  }

  /** After a 401 for one of our callers: is the session gone? Then a new one (once, however many 401s). */
  renew(auth: Auth): Promise<void> {
    if (auth === 'none' || auth === 'bogus') return Promise.resolve();
    let p = this.pending.get(auth);
    if (!p) {
      p = (async () => {
        const v = await call(this.base, 'POST', '/api/auth/validate', undefined, this.tokens.get(auth));
        if (v.json['valid'] === true) return;
        this.renewals++;
        if (auth === 'admin') await this.loginAdmin();
        else if (auth === 'doctor') await this.newDoctorToken();
        else await this.loginPatient(auth);
      })().finally(() => this.pending.delete(auth));
      this.pending.set(auth, p);
    }
    return p;
  }

  /** Follows what the fuzz itself did to the demo accounts' passwords. */
  learn(r: FuzzRequest, sent: Sent, a: Answer): void {
    if (a.status !== 200) return;
    if (r.route === 'POST /api/auth/updatePassword' && sent.body) {
      try {
        const b = JSON.parse(sent.body.toString()) as { hospNo?: unknown; password?: unknown };
        if (typeof b.hospNo === 'string' && typeof b.password === 'string' && this.passwords.has(b.hospNo)) this.passwords.set(b.hospNo, b.password);
      } catch {
        // not JSON: then it did not succeed
      }
    }
    if (r.route === 'POST /api/admin/patients/:hospNo/temporary-password') {
      const hospNo = decodeURIComponent(sent.url.split('/')[4] ?? '');
      const json = JSON.parse(a.body.toString()) as { temporaryPassword?: string };
      if (this.passwords.has(hospNo) && json.temporaryPassword) this.passwords.set(hospNo, json.temporaryPassword);
    }
  }

  resolve(name: string): string {
    if (name.startsWith('token:')) return this.tokens.get(name.slice(6) as Auth) ?? 'missing-token-0000';
    if (name.startsWith('password:')) return this.passwords.get(name.slice(9)) ?? 'missing-password';
    return this.refs.get(name) ?? `missing-${name}`;
  }
}

const REF = /@@([A-Za-z0-9:]+)@@/g;

function resolveDeep(v: unknown, s: Sessions): unknown {
  if (typeof v === 'string') return v.includes('@@') ? v.replace(REF, (_m, name: string) => s.resolve(name)) : v;
  if (Array.isArray(v)) return v.map((x) => resolveDeep(x, s));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(o, k, { value: resolveDeep(x, s), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

function materialise(r: FuzzRequest, s: Sessions): Sent {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = resolveDeep(v, s) as string;
  let body: Buffer | undefined;
  if (r.body && 'json' in r.body) {
    body = Buffer.from(JSON.stringify(resolveDeep(r.body.json, s)) ?? 'null');
    headers['content-type'] ??= 'application/json';
  } else if (r.body) {
    body = Buffer.from(resolveDeep(r.body.raw, s) as string);
    if (r.body.contentType !== undefined) headers['content-type'] = r.body.contentType;
  }
  return { method: r.method, url: resolveDeep(r.url, s) as string, headers, body };
}

// ——— Reporting ———

const clip = (t: string, n = 1500) => (t.length > n ? `${t.slice(0, n)}… (${t.length} characters)` : t);

function describe(i: number, r: FuzzRequest, sent: Sent, a: Answer | undefined, problems: string[]): string {
  const headers = Object.entries(sent.headers)
    .map(([k, v]) => `    ${k}: ${clip(k === 'authorization' ? v.replace(/(Bearer\s+)(.{6}).+/, '$1$2…') : v, 200)}`)
    .join('\n');
  return [
    `✗ request #${i} (seed ${seed}): ${problems.join('; ')}`,
    `  ${sent.method} ${clip(sent.url, 300)}`,
    `  route: ${r.route ?? '(none)'}, caller: ${r.auth}, ${r.label}`,
    headers,
    sent.body !== undefined ? `  body: ${clip(sent.body.toString(), 1500)}` : '  body: (none)',
    a ? `  → ${a.status} ${a.headers['content-type'] ?? ''}\n    ${clip(a.body.toString(), 800)}` : '  → no answer',
  ].join('\n');
}

// ——— The run ———

interface Stats {
  sent: number;
  errors: number;
  violations: number;
  printed: number;
  byRoute: Map<string, { n: number; ok: number; ms: number; maxMs: number; statuses: Map<number, number> }>;
  reasons: Map<string, number>;
}

async function main(): Promise<number> {
  out(`fuzz: seed ${seed}`);
  const routes = discoverRoutes();
  const dayStart = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const recordIds = fc.sample(fc.uuid({ version: 4 }), { seed, numRuns: 12 });
  const hints = hintsFor(dayStart, recordIds);
  const mainArb = requests(routes, hints);
  const logoutArb = logoutRequests(routes, hints);
  const guarded = new Map(routes.map((r: Route) => [routeKey(r), r.guarded]));

  const server: EddyServer = await startServer({
    env: { AUTH_RATE_LIMIT: '100000000', CONSENT_RATE_LIMIT: '100000000', REMINDERS: '0', LOG_LEVEL: 'error' },
  });
  const base = server.url;
  out(`fuzz: ${routes.length} routes, server ${base} on ${server.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${total} requests, concurrency ${concurrency}`);
  const sessions = new Sessions(base);
  const stats: Stats = { sent: 0, errors: 0, violations: 0, printed: 0, byRoute: new Map(), reasons: new Map() };
  const started = Date.now();
  try {
    await sessions.setup();

    // Requests are drawn in chunks of CHUNK from seeds derived from the run's seed: request i is the
    // same whatever the concurrency or the order answers come back in.
    const CHUNK = 200;
    const logoutCount = total >= 200 ? Math.min(20, Math.floor(total / 100)) : 0;
    const mainCount = total - logoutCount;
    const chunks = new Map<number, FuzzRequest[]>();
    const requestAt = (i: number): FuzzRequest => {
      if (i >= mainCount) return fc.sample(logoutArb, { seed: (seed ^ 0x5bd1e995) >>> 0, numRuns: logoutCount })[i - mainCount]!;
      const c = Math.floor(i / CHUNK);
      let list = chunks.get(c);
      if (!list) {
        list = fc.sample(mainArb, { seed: (seed + Math.imul(c, 0x9e3779b1)) | 0, numRuns: CHUNK });
        chunks.set(c, list);
        chunks.delete(c - 2);
      }
      return list[i % CHUNK]!;
    };

    const one = async (i: number) => {
      const r = requestAt(i);
      const sent = materialise(r, sessions);
      let answer: Answer | undefined;
      let problems: string[];
      let serverError: boolean;
      const t0 = performance.now();
      try {
        answer = await sendRetrying(base, sent);
        const j = judge(r.route, r.method, r.auth, r.route ? (guarded.get(r.route) ?? false) : false, answer);
        serverError = j.serverError;
        problems = j.serverError ? [`server error ${answer.status}`] : j.violations;
        sessions.learn(r, sent, answer);
        if (answer.status === 401) await sessions.renew(r.auth);
      } catch (err) {
        serverError = true;
        problems = [`no answer: ${(err as Error).message}`];
      }
      const ms = performance.now() - t0;
      stats.sent++;
      const key = r.route ?? `${r.method} (no route)`;
      const rs = stats.byRoute.get(key) ?? { n: 0, ok: 0, ms: 0, maxMs: 0, statuses: new Map<number, number>() };
      rs.n++;
      rs.ms += ms;
      rs.maxMs = Math.max(rs.maxMs, ms);
      if (answer && answer.status < 300) rs.ok++;
      if (answer) rs.statuses.set(answer.status, (rs.statuses.get(answer.status) ?? 0) + 1);
      stats.byRoute.set(key, rs);
      if (serverError) stats.errors++;
      else if (problems.length > 0) stats.violations++;
      if (problems.length > 0) {
        for (const p of problems) {
          const reason = `${key}: ${p.replace(/\d+/g, 'N').slice(0, 160)}`;
          stats.reasons.set(reason, (stats.reasons.get(reason) ?? 0) + 1);
        }
        if (stats.printed < maxPrint) {
          stats.printed++;
          out(describe(i, r, sent, answer, problems));
          if (serverError) out(`  server log (last lines):\n${server.log().split('\n').slice(-12).map((l) => `    ${clip(l, 600)}`).join('\n')}`);
        }
      }
      if (!server.running()) throw new Error(`the server died:\n${server.log().slice(-4000)}`);
    };

    if (args.only !== undefined) {
      await one(Number(args.only));
    } else {
      let next = 0;
      let lastReport = Date.now();
      const worker = async () => {
        while (next < mainCount) {
          await one(next++);
          if (Date.now() - lastReport > 15_000) {
            lastReport = Date.now();
            const secs = (Date.now() - started) / 1000;
            process.stderr.write(`fuzz: ${stats.sent}/${total} requests, ${stats.errors} server errors, ${stats.violations} violations (${Math.round(stats.sent / secs)}/s)\n`);
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      // The logouts end the fuzz's own sessions, so they come last, one at a time.
      for (let i = mainCount; i < total; i++) await one(i);
    }
  } catch (err) {
    // A dead server or a failed setup is a server error too; the summary still ends the output.
    stats.errors++;
    out(`✗ fatal: ${clip((err as Error).stack ?? String(err), 6000)}`);
  } finally {
    const secs = (Date.now() - started) / 1000;
    out('');
    out(`fuzz: ${stats.sent} requests in ${secs.toFixed(1)} s (${(stats.sent / Math.max(secs, 0.001)).toFixed(0)} requests/s), ${sessions.renewals} sessions renewed`);
    const rows = [...stats.byRoute.entries()].sort(([a], [b]) => a.localeCompare(b));
    out('fuzz: requests by route (2xx of all, mean and longest time, statuses):');
    for (const [k, v] of rows) {
      const statuses = [...v.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
      out(`  ${k.padEnd(58)} ${String(v.ok).padStart(5)}/${String(v.n).padEnd(5)} ${`${Math.round(v.ms / v.n)}`.padStart(5)} ms ${`${Math.round(v.maxMs)}`.padStart(6)} ms  ${statuses}`);
    }
    if (stats.reasons.size > 0) {
      out('fuzz: failures by route and kind:');
      for (const [reason, n] of [...stats.reasons.entries()].sort((a, b) => b[1] - a[1])) out(`  ${String(n).padStart(5)}× ${reason}`);
    }
    agent.destroy();
    await server.cleanup();
  }
  out(`fuzz: ${stats.sent} requests, ${stats.errors} server errors, ${stats.violations} contract violations`);
  return stats.errors + stats.violations > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
