// API fuzzing from the shared schemas (issue 14, part 5), with a write oracle (issue 44).
//
//   npm run fuzz -- --requests N [--seed S] [--concurrency C] [--writes SHARE] [--only I] [--print P]
//
// Starts the real server (tests/fixtures/server.ts: `node server/main.ts` on a fresh embedded
// database with the demo data, or, with DATABASE_URL set, on a fresh PostgreSQL database of its own;
// the web app must be built: npm run build), with its rate limits raised (AUTH_, CONSENT_ and
// REPORT_RATE_LIMIT) so the fuzz is not all 429s. It logs in the demo patients 100001 and 100002 and
// the demo admin, has the admin make a doctor token and a prescription for each patient, and
// registers the write oracle's two patients (tests/fuzz/writes.ts). Then it sends N requests over
// keep-alive connections, C at a time (default 16), of two sorts.
//
// Hostile requests (all but SHARE of them), on C − L workers:
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
// it must refuse.
//
// The write oracle's requests (SHARE of the others, 0.3 by default; 0 turns it off), on L = round(C ×
// SHARE) lanes, each lane's requests one after the other (tests/fuzz/writes.ts): writes of the
// patient records (glucose, symptoms, appointments, lab tests, doses, and batches of them) that must
// be accepted, near misses that must be refused with a given status, repeats of a mutation id that
// must get the first answer and change nothing, and reports that must list what was written. Each
// answer is judged by the contracts and against the oracle's model of its patients' records: a wrong
// acceptance, a wrong refusal or a record unlike the model is a contract violation.
//
// Then, before the logouts, the state check: the oracle's patients' lists, pulled by version, must
// hold every record the model holds, once, with its last values, and nothing else; the demo patients'
// lists must hold every record a 2xx answer to a hostile write named, once, and nothing that was
// neither there at the start nor named by a 2xx answer (tests/fuzz/ledger.ts). Each lost,
// duplicated, wrong or unknown record is a contract violation.
//
// Each failure is printed with its request (method, URL, caller, headers, body) and the answer, an
// oracle's with what it had to be; a server error also prints the server's log around it.
//
// --seed S replays the same sequence of requests (default: a random seed, printed first as
// `fuzz: seed S`): the hostile request i is the same whatever C and SHARE, and each oracle lane's
// requests are the same as long as the server answers as foretold. Dates in the requests are drawn
// around the start of the current UTC day, so a replay on another day shifts them. --only I sends
// hostile request number I alone (after the same setup, without the oracle). The exit code is 1 when
// there is any server error or contract violation. The line before the last gives the oracle's counts
// (`fuzz: writes: …` with the state check's), and the last line of stdout is exactly
// `fuzz: <requests> requests, <errors> server errors, <violations> contract violations`.
import { Agent, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import * as OTPAuth from 'otpauth';
import { startServer, type EddyServer } from '../fixtures/server.ts';
import { judge, type Answer, type Auth } from './contracts.ts';
import { HostileLedger, type LedgerReport } from './ledger.ts';
import { DEMO, hintsFor, logoutRequests, requests, type FuzzRequest } from './requests.ts';
import { discoverRoutes, routeKey, type Route } from './routes.ts';
import {
  KINDS,
  ORACLE_PATIENTS,
  pullList,
  setupOraclePatients,
  WriteOracle,
  type ApiCall,
  type Kind,
  type OracleStep,
  type Pulled,
  type StateReport,
} from './writes.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    writes: { type: 'string', default: '0.3' },
    only: { type: 'string' },
    print: { type: 'string', default: '40' },
  },
  allowPositionals: false,
});

const total = Number(args.requests);
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const concurrency = Math.max(1, Number(args.concurrency));
const maxPrint = Number(args.print);
const writeShare = Number(args.writes);
if (!Number.isInteger(total) || total < 1 || !Number.isInteger(seed) || !Number.isInteger(concurrency) || !(writeShare >= 0 && writeShare < 1)) {
  process.stderr.write('usage: npm run fuzz -- --requests N [--seed S] [--concurrency C] [--writes SHARE] [--only I] [--print P]\n');
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

async function call(
  base: string,
  method: string,
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const a = await sendRetrying(base, {
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
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
    if (r.json['mustChangePassword'] === true) {
      // A temporary password's session may only change it (issue 48): the patient chooses their own first.
      const password = `fuzz ${crypto.randomUUID()}`;
      const own = await call(
        this.base,
        'POST',
        '/api/auth/updatePassword',
        { hospNo, currPassword: this.passwords.get(hospNo), password },
        String(r.json['token']),
      );
      if (own.status !== 200) throw new Error(`own password of ${hospNo}: ${own.status} ${JSON.stringify(own.json)}`);
      this.passwords.set(hospNo, password);
    }
    this.tokens.set(auth, String(r.json['token']));
  }

  /** The admin's authenticator key, once the fuzz (or a hospital's setting it drew) made one needed. */
  private adminKey: string | undefined;
  private adminLastStep = 0;

  /**
   * The admin's next authenticator code (issue 48): each code is good once, so the step after the
   * last one used, within the one step of drift either way the server allows (waiting for it when
   * the next step is still ahead).
   */
  private async adminCode(key: string): Promise<string> {
    const now = Math.floor(Date.now() / 30_000);
    const step = Math.max(now - 1, this.adminLastStep + 1);
    if (step > now + 1) await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 200));
    this.adminLastStep = step;
    return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) }).generate({ timestamp: step * 30_000 + 1_000 });
  }

  async loginAdmin(): Promise<void> {
    const credentials = { email: DEMO.adminEmail, password: ADMIN_PASSWORD };
    let r = await call(this.base, 'POST', '/api/admin/login', credentials);
    // A hospital may have been asked for two-step sign-in by a fuzzed settings write: set it up, then log in with its codes.
    if (r.status === 401 && r.json['code'] === 'mfa-setup-required') {
      const setup = await call(this.base, 'POST', '/api/admin/mfa/setup', credentials);
      if (setup.status !== 200) throw new Error(`admin authenticator setup failed: ${setup.status} ${JSON.stringify(setup.json)}`);
      this.adminKey = String(setup.json['secret']);
    }
    if (r.status === 401 && this.adminKey && (r.json['code'] === 'mfa-setup-required' || r.json['code'] === 'mfa-required')) {
      r = await call(this.base, 'POST', '/api/admin/login', { ...credentials, code: await this.adminCode(this.adminKey) });
    }
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
      {
        doctorName: 'Dr. Fuzz',
        hospitalIds: JSON.parse(this.refs.get('hospitalIds') ?? '[]') as string[],
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
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

function describeSent(sent: Sent, a: Answer | undefined): string[] {
  const headers = Object.entries(sent.headers)
    .map(([k, v]) => `    ${k}: ${clip(k === 'authorization' ? v.replace(/(Bearer\s+)(.{6}).+/, '$1$2…') : v, 200)}`)
    .join('\n');
  return [
    `  ${sent.method} ${clip(sent.url, 300)}`,
    headers,
    sent.body !== undefined ? `  body: ${clip(sent.body.toString(), 1500)}` : '  body: (none)',
    a ? `  → ${a.status} ${a.headers['content-type'] ?? ''}\n    ${clip(a.body.toString(), 800)}` : '  → no answer',
  ];
}

function describe(i: number, r: FuzzRequest, sent: Sent, a: Answer | undefined, problems: string[]): string {
  return [
    `✗ request #${i} (seed ${seed}): ${problems.join('; ')}`,
    `  route: ${r.route ?? '(none)'}, caller: ${r.auth}, ${r.label}`,
    ...describeSent(sent, a),
  ].join('\n');
}

function describeOracle(lane: number, k: number, step: OracleStep, sent: Sent, a: Answer | undefined, problems: string[]): string {
  const who = step.caller === 'admin' ? `the admin, about ${ORACLE_PATIENTS[step.about].hospNo}` : ORACLE_PATIENTS[step.caller].hospNo;
  return [
    `✗ oracle lane ${lane} request ${k} (seed ${seed}): ${problems.join('; ')}`,
    `  ${step.valid ? 'must be accepted' : 'must be refused, or answered as a repeat'}: ${step.label}`,
    `  route: ${step.route}, caller: ${who}`,
    ...describeSent(sent, a),
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

/** Where the write oracle's share of the run stands, for the line before the last. */
interface WriteResults {
  oracle: WriteOracle;
  state: StateReport | undefined;
  hostile: LedgerReport | undefined;
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
    env: { AUTH_RATE_LIMIT: '100000000', CONSENT_RATE_LIMIT: '100000000', REPORT_RATE_LIMIT: '100000000', REMINDERS: '0', LOG_LEVEL: 'error' },
  });
  const base = server.url;
  // The requests: the logouts last; of the others a share (--writes) from the write oracle, on lanes of
  // their own (each lane's requests one after the other), and the rest hostile, on the other workers.
  const logoutCount = total >= 200 ? Math.min(20, Math.floor(total / 100)) : 0;
  const mainCount = total - logoutCount;
  const lanes = args.only === undefined && writeShare > 0 ? Math.min(Math.max(1, Math.round(concurrency * writeShare)), Math.max(1, concurrency - 1)) : 0;
  const oracleCount = lanes > 0 ? Math.round(mainCount * writeShare) : 0;
  const hostileCount = mainCount - oracleCount;
  const workers = Math.max(1, concurrency - lanes);
  out(
    `fuzz: ${routes.length} routes, server ${base} on ${server.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${total} requests (${oracleCount} from the write oracle on ${lanes} lanes), concurrency ${concurrency}`,
  );
  const sessions = new Sessions(base);
  const stats: Stats = { sent: 0, errors: 0, violations: 0, printed: 0, byRoute: new Map(), reasons: new Map() };
  const ledger = new HostileLedger();
  let writes: WriteResults | undefined;
  const started = Date.now();

  const record = (key: string, answer: Answer | undefined, ms: number, serverError: boolean, problems: string[], print: () => string) => {
    stats.sent++;
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
        const reason = `${key}: ${p.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\d+/g, 'N').slice(0, 160)}`;
        stats.reasons.set(reason, (stats.reasons.get(reason) ?? 0) + 1);
      }
      if (stats.printed < maxPrint) {
        stats.printed++;
        out(print());
        if (serverError)
          out(
            `  server log (last lines):\n${server
              .log()
              .split('\n')
              .slice(-12)
              .map((l) => `    ${clip(l, 600)}`)
              .join('\n')}`,
          );
      }
    }
    if (!server.running()) throw new Error(`the server died:\n${server.log().slice(-4000)}`);
  };

  /** The API as `token` (or a demo caller's session, renewed when it ended), for setup and pulls. */
  const api: ApiCall = (method, url, body, token, headers) => call(base, method, url, body, token, headers);
  const pullDemo = async (auth: 'patient' | 'patient2', kind: Kind): Promise<Pulled> => {
    try {
      return await pullList(api, sessions.tokens.get(auth) ?? '', kind);
    } catch {
      // The fuzz may have ended the session (a password change): once more with a new one.
      await sessions.renew(auth);
      return pullList(api, sessions.tokens.get(auth) ?? '', kind);
    }
  };

  try {
    await sessions.setup();
    const demoCallers = [
      ['patient', DEMO.patients[0] ?? ''],
      ['patient2', DEMO.patients[1] ?? ''],
    ] as const;
    let oracleTokens: [string, string] = ['', ''];
    if (lanes > 0) {
      oracleTokens = await setupOraclePatients(api, sessions.tokens.get('admin') ?? '', sessions.resolve('hospitalId'));
      writes = { oracle: new WriteOracle({ seed, lanes, dayStart }), state: undefined, hostile: undefined };
      for (const [auth, hospNo] of demoCallers) for (const kind of KINDS) ledger.start(hospNo, kind, await pullDemo(auth, kind));
    }

    // Requests are drawn in chunks of CHUNK from seeds derived from the run's seed: request i is the
    // same whatever the concurrency, the write oracle's share or the order answers come back in.
    const CHUNK = 200;
    const chunks = new Map<number, FuzzRequest[]>();
    const requestAt = (i: number): FuzzRequest => {
      if (i >= hostileCount) return fc.sample(logoutArb, { seed: (seed ^ 0x5bd1e995) >>> 0, numRuns: logoutCount })[i - hostileCount]!;
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
        const demo = demoCallers.find(([auth]) => auth === r.auth);
        if (demo && r.route?.startsWith('POST /api/') && answer.status < 300) {
          let json: unknown;
          let body: unknown;
          try {
            json = JSON.parse(answer.body.toString());
            body = sent.body ? JSON.parse(sent.body.toString()) : undefined;
          } catch {
            // a 2xx that is not JSON is no write's answer (and judge has said so)
          }
          ledger.note(demo[1], r.route.slice('POST /api'.length), body, answer.status, json, answer.headers['x-mutation-repeat'] === '1');
        }
      } catch (err) {
        serverError = true;
        problems = [`no answer: ${(err as Error).message}`];
      }
      record(r.route ?? `${r.method} (no route)`, answer, performance.now() - t0, serverError, problems, () => describe(i, r, sent, answer, problems));
    };

    /** Request `k` of oracle lane `lane`: sent as its caller, judged by the contracts and by the oracle. */
    const oneOracle = async (oracle: WriteOracle, lane: number, k: number) => {
      const step = oracle.next(lane);
      const auth: Auth = step.caller === 'admin' ? 'admin' : 'patient';
      const sentAs = (): Sent => ({
        method: 'POST',
        url: step.route.slice('POST '.length),
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          authorization: `Bearer ${step.caller === 'admin' ? (sessions.tokens.get('admin') ?? '') : oracleTokens[step.caller]}`,
          ...(step.caller === 'admin' ? { 'x-hosp-no': ORACLE_PATIENTS[step.about].hospNo } : { 'x-device-id': `fuzz-oracle-${lane}` }),
        },
        body: Buffer.from(JSON.stringify(step.body)),
      });
      let sent = sentAs();
      let answer: Answer | undefined;
      let problems: string[];
      let serverError: boolean;
      const t0 = performance.now();
      const window = { sent: Date.now(), answered: 0 };
      try {
        answer = await sendRetrying(base, sent);
        // The admin's session is the hostile requests' too, which may end it; a report is a read, so it is asked again.
        if (answer.status === 401 && step.caller === 'admin') {
          await sessions.renew('admin');
          sent = sentAs();
          answer = await sendRetrying(base, sent);
        }
        window.answered = Date.now();
        const j = judge(step.route, 'POST', auth, guarded.get(step.route) ?? false, answer);
        serverError = j.serverError;
        const settled = step.settle(
          {
            status: answer.status,
            contentType: String(answer.headers['content-type'] ?? ''),
            text: answer.body.toString(),
            repeat: answer.headers['x-mutation-repeat'] === '1',
          },
          window,
        );
        problems = [...(serverError ? [`server error ${answer.status}`] : j.violations), ...settled];
      } catch (err) {
        serverError = true;
        problems = [`no answer: ${(err as Error).message}`];
        // Whatever it did is unknown: the oracle stops foretelling what it touched.
        step.settle({ status: 0, contentType: '', text: '', repeat: false }, { sent: window.sent, answered: Date.now() });
      }
      record(step.route, answer, performance.now() - t0, serverError, problems, () => describeOracle(lane, k, step, sent, answer, problems));
    };

    if (args.only !== undefined) {
      await one(Number(args.only));
    } else {
      let next = 0;
      let lastReport = Date.now();
      const progress = () => {
        if (Date.now() - lastReport <= 15_000) return;
        lastReport = Date.now();
        const secs = (Date.now() - started) / 1000;
        const c = writes?.oracle.counts;
        const oracleLine = c ? `; writes ${c.validAccepted}/${c.valid} valid accepted, ${c.nearMissesRefused}/${c.nearMisses} near misses refused` : '';
        process.stderr.write(
          `fuzz: ${stats.sent}/${total} requests, ${stats.errors} server errors, ${stats.violations} violations (${Math.round(stats.sent / secs)}/s)${oracleLine}\n`,
        );
      };
      const worker = async () => {
        while (next < hostileCount) {
          await one(next++);
          progress();
        }
      };
      const lane = async (oracle: WriteOracle, index: number) => {
        // Lane `index` sends its share, one request after the other: its records are never written twice at once.
        const quota = Math.floor(oracleCount / lanes) + (index < oracleCount % lanes ? 1 : 0);
        for (let k = 0; k < quota; k++) {
          await oneOracle(oracle, index, k);
          progress();
        }
      };
      const oracle = writes?.oracle;
      await Promise.all([...Array.from({ length: workers }, worker), ...(oracle ? Array.from({ length: lanes }, (_, i) => lane(oracle, i)) : [])]);

      // The state check, before the logouts end the demo patients' sessions.
      if (writes) {
        const pulled = new Map<string, Pulled>();
        for (const who of [0, 1] as const) for (const kind of KINDS) pulled.set(`${who}:${kind}`, await pullList(api, oracleTokens[who], kind));
        writes.state = writes.oracle.stateCheck(pulled);
        const hostile: LedgerReport = { accepted: 0, lost: 0, duplicated: 0, unknown: 0, problems: [] };
        for (const [auth, hospNo] of demoCallers) {
          const lists = new Map<Kind, Pulled>();
          for (const kind of KINDS) lists.set(kind, await pullDemo(auth, kind));
          const r = ledger.check(hospNo, lists);
          hostile.accepted += r.accepted;
          hostile.lost += r.lost;
          hostile.duplicated += r.duplicated;
          hostile.unknown += r.unknown;
          hostile.problems.push(...r.problems);
        }
        writes.hostile = hostile;
        const problems = [...writes.state.problems, ...hostile.problems];
        stats.violations += problems.length;
        for (const p of problems.slice(0, maxPrint)) out(`✗ state check (seed ${seed}): ${p}`);
        if (problems.length > maxPrint) out(`  … and ${problems.length - maxPrint} more`);
      }

      // The logouts end the fuzz's own sessions, so they come last, one at a time.
      for (let i = hostileCount; i < hostileCount + logoutCount; i++) await one(i);
    }
  } catch (err) {
    // A dead server or a failed setup is a server error too; the summary still ends the output.
    stats.errors++;
    out(`✗ fatal: ${clip((err as Error).stack ?? String(err), 6000)}`);
  } finally {
    const secs = (Date.now() - started) / 1000;
    out('');
    out(
      `fuzz: ${stats.sent} requests in ${secs.toFixed(1)} s (${(stats.sent / Math.max(secs, 0.001)).toFixed(0)} requests/s), ${sessions.renewals} sessions renewed`,
    );
    const rows = [...stats.byRoute.entries()].sort(([a], [b]) => a.localeCompare(b));
    out('fuzz: requests by route (2xx of all, mean and longest time, statuses):');
    for (const [k, v] of rows) {
      const statuses = [...v.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      out(
        `  ${k.padEnd(58)} ${String(v.ok).padStart(5)}/${String(v.n).padEnd(5)} ${`${Math.round(v.ms / v.n)}`.padStart(5)} ms ${`${Math.round(v.maxMs)}`.padStart(6)} ms  ${statuses}`,
      );
    }
    if (stats.reasons.size > 0) {
      out('fuzz: failures by route and kind:');
      for (const [reason, n] of [...stats.reasons.entries()].sort((a, b) => b[1] - a[1])) out(`  ${String(n).padStart(5)}× ${reason}`);
    }
    agent.destroy();
    await server.cleanup();
  }
  if (writes) {
    const c = writes.oracle.counts;
    const s = writes.state;
    const h = writes.hostile;
    out(
      `fuzz: writes: ${c.validAccepted}/${c.valid} valid accepted, ${c.nearMissesRefused}/${c.nearMisses} near misses refused as foretold, ${c.repeatsAnswered}/${c.repeats} repeats answered as the first` +
        ` (${c.batches} batches, ${c.reports} reports); ` +
        (s
          ? `state check: ${s.records} records, ${s.lost} lost, ${s.duplicated} duplicated, ${s.wrong} wrong, ${s.unknown} unknown`
          : 'state check: not made') +
        (h ? `; hostile writes: ${h.accepted} accepted, ${h.lost} lost, ${h.duplicated} duplicated, ${h.unknown} unknown` : ''),
    );
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
