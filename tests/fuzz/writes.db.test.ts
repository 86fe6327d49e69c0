// The fuzz's write oracle (tests/fuzz/writes.ts) against the real routes on a real database: every
// answer must be the one it foretells and the state check must be clean; and on answers and lists
// made wrong on purpose it must call each wrong thing (a wrong refusal, a wrong acceptance, a lost,
// duplicated, wrong or unknown record), so a clean run of the fuzz means something.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, seedFixture, type Harness } from '../../server/testing/harness.ts';
import { KINDS, ORACLE_PATIENTS, pullList, setupOraclePatients, WriteOracle, type ApiCall, type OracleStep, type Pulled, type Who } from './writes.ts';

let h: Harness;
let adminToken: string;
let tokens: [string, string];
const DAY_START = Math.floor(Date.now() / 86_400_000) * 86_400_000;

const api: ApiCall = async (method, url, body, token, headers) => {
  const r = await call(h.app, method === 'GET' ? 'GET' : 'POST', url, {
    ...(token ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(headers ? { headers } : {}),
  });
  return { status: r.status, json: r.json };
};

/** Sends a step as the fuzz does (its caller's token, X-Hosp-No for the admin) and returns its problems. */
async function run(step: OracleStep): Promise<string[]> {
  const admin = step.caller === 'admin';
  const sent = Date.now();
  const res = await h.app.inject({
    method: 'POST',
    url: step.route.replace(/^POST /, ''),
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      authorization: `Bearer ${admin ? adminToken : tokens[step.caller === 'admin' ? 0 : step.caller]}`,
      ...(admin ? { 'x-hosp-no': ORACLE_PATIENTS[step.about].hospNo } : {}),
    },
    payload: JSON.stringify(step.body),
  });
  return step.settle(
    { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text: res.body, repeat: res.headers['x-mutation-repeat'] === '1' },
    { sent, answered: Date.now() },
  );
}

async function pullAll(): Promise<Map<string, Pulled>> {
  const out = new Map<string, Pulled>();
  for (const who of [0, 1] as const) for (const kind of KINDS) out.set(`${who}:${kind}`, await pullList(api, tokens[who], kind));
  return out;
}

beforeAll(async () => {
  // The oracle's reports come faster than a person's.
  h = await createHarness({ REPORT_RATE_LIMIT: '100000' });
  const fx = await seedFixture(h.db);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
  tokens = await setupOraclePatients(api, adminToken, fx.hospitalA.id);
}, 60_000);
afterAll(() => h.close());

describe('the write oracle on the real routes', () => {
  const oracle = new WriteOracle({ seed: 44, lanes: 3, dayStart: DAY_START });
  let pulled: Map<string, Pulled>;

  it('foretells every answer of three lanes of 160 requests, and finds the state it built', async () => {
    const problems: string[] = [];
    for (let i = 0; i < 160; i++) for (let lane = 0; lane < 3; lane++) problems.push(...(await run(oracle.next(lane))));
    expect(problems).toEqual([]);
    const c = oracle.counts;
    expect(c.validAccepted).toBe(c.valid);
    expect(c.nearMissesRefused).toBe(c.nearMisses);
    expect(c.repeatsAnswered).toBe(c.repeats);
    // Each sort of request was there to be judged.
    expect(c.valid).toBeGreaterThan(200);
    expect(c.nearMisses).toBeGreaterThan(80);
    expect(c.repeats).toBeGreaterThan(5);
    expect(c.batches).toBeGreaterThan(10);
    expect(c.reports).toBeGreaterThan(5);
    pulled = await pullAll();
    const state = oracle.stateCheck(pulled);
    expect(state.problems).toEqual([]);
    expect(state).toMatchObject({ lost: 0, duplicated: 0, wrong: 0, unknown: 0 });
    expect(state.records).toBeGreaterThan(100);
  }, 120_000);

  it('calls a record lost, duplicated, wrong or unknown', () => {
    const planted = new Map(pulled);
    const change = (who: Who, kind: (typeof KINDS)[number], edit: (p: Pulled) => Pulled) => {
      const list = planted.get(`${who}:${kind}`);
      if (!list || list.rows.length < 2) throw new Error(`no rows of ${kind} to plant a fault in`);
      planted.set(`${who}:${kind}`, edit(list));
    };
    change(0, 'glucose', (p) => ({ ...p, rows: p.rows.slice(1) }));
    change(1, 'appointment', (p) => ({ ...p, rows: [...p.rows, p.rows[0] ?? {}] }));
    change(0, 'test', (p) => ({ ...p, rows: p.rows.map((r, i) => (i === 0 ? { ...r, value: Number(r['value']) + 1 } : r)) }));
    change(1, 'symptom', (p) => ({
      ...p,
      rows: [...p.rows, { _id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', symptom: 'Planted', recordedAt: '2026-01-01T00:00:00.000Z', version: 1 }],
    }));
    const state = oracle.stateCheck(planted);
    expect(state).toMatchObject({ lost: 1, duplicated: 1, wrong: 1, unknown: 1 });
    expect(state.problems).toHaveLength(4);
  });
});

describe('the write oracle on answers made wrong', () => {
  const stepWhere = (oracle: WriteOracle, want: (s: OracleStep) => boolean): OracleStep => {
    for (let i = 0; i < 500; i++) {
      const s = oracle.next(0);
      if (want(s)) return s;
    }
    throw new Error('no such step in 500');
  };

  it('calls a valid write refused a wrong refusal', () => {
    const step = stepWhere(new WriteOracle({ seed: 1, lanes: 1, dayStart: DAY_START }), (s) => s.valid && s.route === 'POST /api/glucose/add');
    const problems = step.settle(
      { status: 400, contentType: 'application/json', text: '{"message":"value must be…"}', repeat: false },
      { sent: 0, answered: 0 },
    );
    expect(problems.join('\n')).toMatch(/wrong refusal/);
  });

  it('calls a near miss accepted a wrong acceptance', () => {
    const step = stepWhere(
      new WriteOracle({ seed: 2, lanes: 1, dayStart: DAY_START }),
      (s) => !s.valid && s.route === 'POST /api/glucose/add' && s.label.includes('(400)'),
    );
    const data = { ...step.body, version: 7 };
    const problems = step.settle(
      { status: 201, contentType: 'application/json', text: JSON.stringify({ message: 'Glucose reported successfully', data }), repeat: false },
      { sent: 0, answered: 0 },
    );
    expect(problems.join('\n')).toMatch(/wrong acceptance/);
  });
});
