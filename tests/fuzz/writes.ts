// The fuzz's write oracle (issue 44): writes the server MUST accept and near misses it MUST refuse,
// each judged against a model of what the server holds, and a state check of that model at the end.
//
// The hostile requests (requests.ts) prove that no answer is a 5xx, out of shape or an access
// breach, but a valid reading refused, a future one stored, a stale edit written over a newer one
// or a repeated mutation applied twice all pass those contracts. So a share of the run comes from
// here:
//   - two patients of the oracle's own (ORACLE_PATIENTS, registered at setup through the staff API
//     with their own time zones, meal times and prescription). No hostile request holds their tokens
//     or knows their hospital numbers, so the model of their records is exact.
//   - lanes: each lane is a sequence of requests sent one after the other, and owns the records it
//     made (and its symptom names, dose slots and reading times). Lanes run beside each other and
//     beside the hostile requests, but no two requests about one record, one symptom's day or one
//     dose slot are ever in flight together, so every answer can be foretold.
//   - valid writes built from the model: adds with new ids (or none: the server's id is learnt),
//     values in range, times in the past; updates and deletes on the record's current baseVersion
//     (or none, as the spec's payloads); a replayed add of a stored record; a delete of a deleted one;
//     doses in free slots; batches of them (POST /api/batch), one write per record.
//   - near misses, each breaking one rule, with the status it must be refused with: a value out of
//     range, a future or pre-1900 time, a value that is not its typed unit, a lab unit its test is
//     not measured in (400); an unknown or another patient's record (404); a stale baseVersion, a
//     deleted record edited on a base, a second report of a symptom on its day, a second dose in a
//     slot, another patient's _id in an add (409); a batch with one of them inside (the writes before
//     it stay, those after it do not run); a report over a reversed or too long range (400).
//   - repeats: a request sent again with its mutation id (alone, with another write's body, or a
//     whole batch again) must get the first answer, status and body, marked as a repeat, and change
//     nothing; a refused write's mutation id is not spent, so a later valid write may use it.
//   - reports (CSV, PDF; the patient's and staff's) must be made, and the CSV must list the lane's
//     live readings of the period, once each, and none of its deleted ones.
// A wrong acceptance or refusal, or an answer whose record is not the model's, is a contract
// violation. At the end, stateCheck compares both patients' lists, pulled by version, with the
// model: each record the server accepted is there once with its last values (its `deleted` id once
// if it was deleted), and nothing else is.
//
// Everything is drawn from the run's seed (a small PRNG per lane), and the model only moves when an
// answer is the one foretold, so a lane's requests are the same on every replay with the same seed
// and day (times are drawn around the start of the current UTC day, as in the hostile requests).
import { isDeepStrictEqual } from 'node:util';
import type { BatchPath } from '../../schemas/batch.ts';
import { MAX_FUTURE_MS } from '../../schemas/common.ts';
import { MEAL_SLOTS, mealSlotOf, type MealSlot } from '../../schemas/dose-slot.ts';
import { storedMgDl } from '../../schemas/glucose-units.ts';
import { GLUCOSE_TYPES } from '../../schemas/glucose.ts';
import { BASE_VERSION_UNKNOWN, SUPERSEDED } from '../../schemas/history.ts';
import { LAB_TEST_UNITS } from '../../schemas/lab-units.ts';
import { MAX_REPORT_DAYS } from '../../schemas/report-request.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

// ——— The oracle's patients and their lists ———

export type Who = 0 | 1;
/** Who sends a request: one of the oracle's patients, or the admin (reports of one of them, X-Hosp-No). */
export type OracleCaller = Who | 'admin';

export interface OraclePatient {
  hospNo: string;
  name: string;
  /** A zone without daylight saving time, so a local day is a fixed span of UTC. */
  timeZone: string;
  offsetMinutes: number;
  prescription: { prescrNo: string; name: string; dose: string };
}

export const ORACLE_PATIENTS: readonly [OraclePatient, OraclePatient] = [
  {
    hospNo: 'FUZZ-ORACLE-1',
    name: 'Oracle One',
    timeZone: 'UTC',
    offsetMinutes: 0,
    prescription: { prescrNo: 'RX-ORACLE-1', name: 'Metformin', dose: '500 mg' },
  },
  {
    hospNo: 'FUZZ-ORACLE-2',
    name: 'Oracle Two',
    timeZone: 'Asia/Kolkata',
    offsetMinutes: 330,
    prescription: { prescrNo: 'RX-ORACLE-2', name: 'Gliclazide', dose: '40 mg' },
  },
];
export const ORACLE_MEAL_TIMES: Readonly<Record<MealSlot, string>> = { breakfast: '08:00', lunch: '13:00', dinner: '20:00' };

export type Kind = 'glucose' | 'symptom' | 'appointment' | 'test' | 'dose';
export const KINDS: readonly Kind[] = ['glucose', 'symptom', 'appointment', 'test', 'dose'];

/** Each kind's list (a GET pulled by version) and the keys its rows are under. */
export const LISTS: Readonly<Record<Kind, { path: string; keys: readonly string[] }>> = {
  glucose: { path: '/api/glucose', keys: ['fasting', 'postprandial', 'random'] },
  symptom: { path: '/api/symptoms', keys: ['symptoms'] },
  appointment: { path: '/api/appointments', keys: ['appointments'] },
  test: { path: '/api/tests', keys: ['tests'] },
  dose: { path: '/api/user/medicines/taken', keys: ['taken'] },
};

/** The kind of record a patient write (its path without /api) is about. */
export function kindOfWrite(path: string): Kind | undefined {
  if (path.startsWith('/glucose/')) return 'glucose';
  if (path.startsWith('/symptoms/')) return 'symptom';
  if (path.startsWith('/appointments/')) return 'appointment';
  if (path.startsWith('/tests/')) return 'test';
  if (path.startsWith('/user/medicines/taken')) return 'dose';
  return undefined;
}

/** One list as a version pull from 0 gives it, all pages joined. */
export interface Pulled {
  rows: readonly Record<string, unknown>[];
  deleted: readonly string[];
}

/** A request and its answer the way the API speaks: `call` sends it (the fuzz over HTTP, a test by inject). */
export type ApiCall = (
  method: string,
  url: string,
  body: unknown,
  token: string | undefined,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: Record<string, unknown> }>;

/** Every row of one list, live and deleted, by version pull (docs/sync-protocol.md). */
export async function pullList(call: ApiCall, token: string, kind: Kind): Promise<Pulled> {
  const rows: Record<string, unknown>[] = [];
  const deleted: string[] = [];
  let since = 0;
  for (let page = 0; page < 1000; page++) {
    const r = await call('GET', `${LISTS[kind].path}?since=${since}&limit=5000`, undefined, token);
    if (r.status !== 200) throw new Error(`pull of ${LISTS[kind].path} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
    for (const key of LISTS[kind].keys) {
      const list = r.json[key];
      if (Array.isArray(list)) for (const row of list) if (typeof row === 'object' && row !== null) rows.push(row as Record<string, unknown>);
    }
    const gone = r.json['deleted'];
    if (Array.isArray(gone)) for (const id of gone) if (typeof id === 'string') deleted.push(id);
    const next = r.json['next'];
    if (typeof next !== 'number') return { rows, deleted };
    since = next;
  }
  throw new Error(`pull of ${LISTS[kind].path} did not end in 1000 pages`);
}

/**
 * Registers the oracle's patients (a temporary password each, then a login) with a prescription
 * each, through the staff API as `adminToken`. Returns their tokens, in ORACLE_PATIENTS' order.
 */
export async function setupOraclePatients(call: ApiCall, adminToken: string, hospitalId: string): Promise<[string, string]> {
  const tokens: string[] = [];
  for (const p of ORACLE_PATIENTS) {
    const made = await call(
      'POST',
      '/api/admin/patients',
      { hospNo: p.hospNo, name: p.name, hospitalId, timeZone: p.timeZone, notificationTimings: ORACLE_MEAL_TIMES },
      adminToken,
    );
    if (made.status !== 201) throw new Error(`oracle patient ${p.hospNo}: ${made.status} ${JSON.stringify(made.json)}`);
    const temporary = await call('POST', `/api/admin/patients/${p.hospNo}/temporary-password`, undefined, adminToken);
    if (temporary.status !== 200) throw new Error(`password of ${p.hospNo}: ${temporary.status} ${JSON.stringify(temporary.json)}`);
    const login = await call('POST', '/api/auth/loginWithPassword', { hospNo: p.hospNo, password: temporary.json['temporaryPassword'] }, undefined);
    if (login.status !== 200 || typeof login.json['token'] !== 'string') throw new Error(`login of ${p.hospNo}: ${login.status} ${JSON.stringify(login.json)}`);
    // A temporary password's session may only change it (issue 48): the patient chooses their own first.
    const own = await call(
      'POST',
      '/api/auth/updatePassword',
      { hospNo: p.hospNo, currPassword: temporary.json['temporaryPassword'], password: `oracle ${crypto.randomUUID()}` },
      login.json['token'],
    );
    if (own.status !== 200) throw new Error(`own password of ${p.hospNo}: ${own.status} ${JSON.stringify(own.json)}`);
    tokens.push(login.json['token']);
    const rx = await call('POST', `/api/admin/patients/${p.hospNo}/prescriptions`, p.prescription, adminToken);
    if (rx.status !== 201) throw new Error(`prescription of ${p.hospNo}: ${rx.status} ${JSON.stringify(rx.json)}`);
  }
  return [tokens[0] ?? '', tokens[1] ?? ''];
}

// ——— Randomness from the seed ———

/**
 * sfc32, its 128-bit state filled by splitmix32 from the seed and a stream number: each lane draws
 * from a stream of its own. (A one-word counter generator such as mulberry32 is one sequence
 * whatever the seed, so two lanes would draw the same values a few thousand draws apart: the first
 * 100,000-request run found lanes adding records with each other's ids.) The lanes' draws must not
 * depend on fast-check's internals either.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number, stream = 0) {
    let x = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const splitmix = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    const v = list[this.int(0, list.length - 1)];
    if (v === undefined) throw new Error('pick from an empty list');
    return v;
  }
  /** A version 4 UUID whose last 12 digits are `node` (random when not given). */
  uuid(node?: string): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = (8 + this.int(0, 3)).toString(16);
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${node ?? h.slice(20)}`;
  }
}

function pickWeighted<T>(rng: Rng, items: readonly (readonly [number, T])[]): T {
  const total = items.reduce((s, [w]) => s + w, 0);
  let x = rng.next() * total;
  for (const [w, item] of items) {
    x -= w;
    if (x < 0) return item;
  }
  const last = items.at(-1);
  if (!last) throw new Error('pick from no items');
  return last[1];
}

// ——— The model ———

type Scalar = string | number | boolean | null;
type Values = Record<string, Scalar>;

/** The fields that are instants: compared by time, whatever the spelling. */
const INSTANTS = new Set(['recordedAt', 'date', 'takenAt']);

interface Rec {
  readonly kind: Kind;
  readonly id: string;
  readonly who: Who;
  values: Values;
  /** The version of the last answer that carried the row; undefined once deleted (a delete answers no row). */
  version: number | undefined;
  /** Every version answered for it, oldest first: a stale edit names an older one. */
  versions: number[];
  deleted: boolean;
  /** A wrong answer left the model unsure of it: no more writes, and the state check passes over it. */
  unsure: boolean;
  /** Its time was drawn by the oracle (unique among the oracle's readings, days in the past), not the server's clock. */
  ownTime: boolean;
}

/** The differences between a row as answered or pulled and the values the model holds. */
function differences(want: Values, got: unknown): string[] {
  if (typeof got !== 'object' || got === null) return [`row is ${JSON.stringify(got)}`];
  const row = new Map<string, unknown>(Object.entries(got));
  const out: string[] = [];
  for (const [key, expected] of Object.entries(want)) {
    const have = row.get(key) ?? null;
    const same = INSTANTS.has(key) && typeof expected === 'string' && typeof have === 'string' ? Date.parse(have) === Date.parse(expected) : have === expected;
    if (!same) out.push(`${key} ${JSON.stringify(have)}, expected ${JSON.stringify(expected)}`);
  }
  return out;
}

const clip = (v: unknown, n = 300) => {
  const t = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

const iso = (ms: number) => new Date(ms).toISOString();
const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

// ——— Requests and answers ———

/** An answer as the oracle reads it: a route's own, or one result of a batch. */
export interface Reply {
  status: number;
  json: unknown;
  /** Marked as the first answer given to its mutation id (X-Mutation-Repeat: 1, or `repeat` in a batch). */
  repeat: boolean;
}

/** When a request was sent and answered (a time the server chose must fall between). */
export interface Window {
  sent: number;
  answered: number;
}

/** A whole HTTP answer, for reports (files) as well as writes. */
export interface OracleAnswer {
  status: number;
  contentType: string;
  text: string;
  repeat: boolean;
}

/** One request of a lane, and how to judge its answer. */
export interface OracleStep {
  /** What it is and what must happen, for the failure report. */
  label: string;
  /** The route it aims at (as Fastify knows it), for the contracts and the by-route table. */
  route: string;
  caller: OracleCaller;
  /** The patient it is about (the admin names them with X-Hosp-No). */
  about: Who;
  /** Whether it must be accepted as it is (a valid write, a batch of them, a report); else refused, or answered as a repeat. */
  valid: boolean;
  body: Record<string, unknown>;
  /** Judges the answer and moves the model when it is the one foretold; each problem in words. */
  settle(a: OracleAnswer, at: Window): string[];
}

/** One write: its own route's request, or one of a batch. */
interface Op {
  label: string;
  valid: boolean;
  path: BatchPath;
  who: Who;
  body: Record<string, unknown>;
  /** What it depends on (record ids, a symptom's day, a dose slot): a batch holds one write per key. */
  keys: readonly string[];
  /** Judges its answer and moves the model when it is right; each problem in words. */
  settle(a: Reply, at: Window): string[];
  /** A repeat: the mutation id was spent before, so the first answer must come back. */
  repeatOf?: Replayable;
}

/** An accepted write with a mutation id, and what it was answered: a repeat must get the same. */
interface Replayable {
  who: Who;
  path: BatchPath;
  body: Record<string, unknown>;
  mutationId: string;
  status: number;
  json: unknown;
}

interface Counts {
  /** Valid writes and reports sent (each write of a batch that ran counts), and how many were accepted as they must be. */
  valid: number;
  validAccepted: number;
  /** Near misses sent, and how many were refused with the status foretold. */
  nearMisses: number;
  nearMissesRefused: number;
  /** Repeats of a spent mutation id (alone, with another body, a batch again), and how many got the first answer. */
  repeats: number;
  repeatsAnswered: number;
  batches: number;
  reports: number;
}

export interface StateReport {
  /** Records the model holds and checked (those it is unsure of are not). */
  records: number;
  lost: number;
  duplicated: number;
  wrong: number;
  /** Rows the server holds that the oracle was never told it accepted. */
  unknown: number;
  problems: string[];
}

// ——— One lane ———

class Lane {
  readonly recs: Rec[] = [];
  readonly byId = new Map<string, Rec>();
  readonly rng: Rng;
  private seq = 0;
  private times = 0;
  private names = 0;
  private readonly doseSlots: [number, number] = [0, 0];
  /** Accepted writes with mutation ids, the last few, for repeats. */
  readonly accepted: Replayable[] = [];
  /** Mutation ids of refused writes (and of a batch's writes that never ran): not spent, so usable again. */
  readonly free: string[] = [];
  lastBatch: { who: Who; body: Record<string, unknown>; results: { status: number; body: unknown }[] } | undefined;
  readonly index: number;
  readonly lanes: number;
  readonly dayStart: number;

  constructor(index: number, lanes: number, seed: number, dayStart: number) {
    this.index = index;
    this.lanes = lanes;
    this.dayStart = dayStart;
    this.rng = new Rng(seed, index);
  }

  private ids = 0;
  /** A new record id: random, but its last 12 digits are the lane's number and a count, so no two of the oracle's ids are ever the same. */
  uuid(): string {
    return this.rng.uuid(`${this.index.toString(16).padStart(4, '0')}${(++this.ids).toString(16).padStart(8, '0')}`);
  }

  mutationId(): string {
    this.seq++;
    return `fuzz-oracle-${this.index}:${this.seq}`;
  }

  /**
   * A mutation id of another device than the lane's: a device's own earlier change never supersedes
   * its later one (services/record-made.ts), so "made before the record's last change" is another's.
   */
  elsewhereMutationId(): string {
    this.seq++;
    return `fuzz-elsewhere-${this.index}:${this.seq}`;
  }

  /** Whether a mutation id is one of the lane's own device. */
  owns(mutationId: string): boolean {
    return mutationId.startsWith(`fuzz-oracle-${this.index}:`);
  }

  /** Mostly a mutation id, as the app sends; sometimes none, as the spec's payloads; sometimes a refused write's, which is not spent. */
  maybeMutationId(): string | undefined {
    if (this.free.length > 0 && this.rng.chance(0.15)) return this.free.shift();
    return this.rng.chance(0.75) ? this.mutationId() : undefined;
  }

  /** A reading time no other reading of the oracle has, two days or more in the past. */
  readingTime(): number {
    const slot = this.times++ * this.lanes + this.index;
    return this.dayStart - 2 * DAY - slot * 7 * MINUTE - this.rng.int(0, MINUTE - 1);
  }

  /** Any time from one to 400 days ago. */
  pastTime(): number {
    return this.dayStart - DAY - this.rng.int(0, 400 * DAY);
  }

  /** A time the server must refuse as in the future (its allowance is MAX_FUTURE_MS), whenever today the run is. */
  futureTime(): number {
    return this.dayStart + 2 * DAY + MAX_FUTURE_MS + this.rng.int(0, 30 * DAY);
  }

  name(prefix: string): string {
    return `${prefix} ${this.index}-${++this.names}`;
  }

  /** The next free dose slot of the patient on this lane: a day and meal no other lane uses. */
  doseSlot(who: Who): { day: string; slot: MealSlot } {
    const k = this.doseSlots[who]++;
    const dayIndex = 2 + this.index + this.lanes * Math.floor(k / 3);
    return { day: iso(this.dayStart - dayIndex * DAY).slice(0, 10), slot: MEAL_SLOTS[k % 3] ?? 'breakfast' };
  }

  live(kind: Kind, who?: Who): Rec[] {
    return this.recs.filter((r) => r.kind === kind && !r.deleted && !r.unsure && (who === undefined || r.who === who));
  }

  gone(kind: Kind, who?: Who): Rec[] {
    return this.recs.filter((r) => r.kind === kind && r.deleted && !r.unsure && (who === undefined || r.who === who));
  }

  add(rec: Rec): void {
    this.recs.push(rec);
    this.byId.set(rec.id, rec);
  }

  remember(r: Replayable): void {
    this.accepted.push(r);
    if (this.accepted.length > 40) this.accepted.shift();
  }
}

/** The local calendar day of an instant for a patient (their zone has no daylight saving time). */
const localDay = (ms: number, who: Who) => iso(ms + ORACLE_PATIENTS[who].offsetMinutes * MINUTE).slice(0, 10);
/** The instant of a local day and time ("HH:MM") for a patient. */
const localInstant = (day: string, hhmm: string, who: Who) => Date.parse(`${day}T${hhmm}:00.000Z`) - ORACLE_PATIENTS[who].offsetMinutes * MINUTE;
const hhmmOf = (ms: number, who: Who) => iso(ms + ORACLE_PATIENTS[who].offsetMinutes * MINUTE).slice(11, 16);

// ——— Judging ———

/** For a write that must be accepted with `status`: the problems of its answer. */
function wantAccepted(a: Reply, status: number): string[] {
  if (a.status === status && !a.repeat) return [];
  if (a.status === status) return ['a first request was answered as a repeat of its mutation id'];
  if (a.status >= 400 && a.status < 500) return [`wrong refusal: answered ${a.status} ${clip(a.json)}, must be accepted with ${status}`];
  return [`answered ${a.status} ${clip(a.json)}, must be accepted with ${status}`];
}

/** For a near miss that must be refused with `status`: the problems of its answer. */
function wantRefused(a: Reply, status: number): string[] {
  if (a.status === status) return [];
  if (a.status < 300) return [`wrong acceptance: answered ${a.status} ${clip(a.json)}, must be refused with ${status}`];
  return [`refused with ${a.status} ${clip(a.json)}, must be refused with ${status}`];
}

/** The `data` row of a write's answer, checked against the values the model expects. */
function dataProblems(a: Reply, rec: { id?: string; values: Values }, version?: { above?: number; equal?: number }): string[] {
  const data = asObject(a.json)['data'];
  const out = differences(rec.values, data).map((d) => `answer's data: ${d}`);
  const row = asObject(data);
  if (rec.id !== undefined && row['_id'] !== rec.id) out.push(`answer's data: _id ${JSON.stringify(row['_id'])}, expected ${rec.id}`);
  const v = row['version'];
  if (typeof v !== 'number') out.push("answer's data has no version");
  else if (version?.above !== undefined && v <= version.above) out.push(`answer's version ${v} is not above the record's ${version.above}`);
  else if (version?.equal !== undefined && v !== version.equal) out.push(`answer's version ${v}, expected ${version.equal} (nothing changed)`);
  return out;
}

/** A 409's `current`: the record as the model holds it, or null when it is deleted. */
function currentProblems(a: Reply, rec: Rec | null): string[] {
  const current = asObject(a.json)['current'];
  if (rec === null) return current === null ? [] : [`409's current is ${clip(current)}, expected null (deleted)`];
  const out = differences(rec.values, current).map((d) => `409's current: ${d}`);
  if (asObject(current)['_id'] !== rec.id) out.push(`409's current is not ${rec.id}`);
  if (rec.version !== undefined && asObject(current)['version'] !== rec.version)
    out.push(`409's current has version ${JSON.stringify(asObject(current)['version'])}, expected ${rec.version}`);
  return out;
}

// ——— The writes of each kind ———

interface Gen {
  lane: Lane;
  who: Who;
  /** Keys already in the batch being built (a batch holds one write per key). */
  busy: ReadonlySet<string>;
  /** Marks records the model can no longer foretell. */
  unsure(...ids: (string | undefined)[]): void;
}

const other = (who: Who): Who => (who === 0 ? 1 : 0);
const free = (g: Gen, recs: Rec[]) => recs.filter((r) => !g.busy.has(r.id));
const pickFrom = (g: Gen, recs: Rec[]): Rec | undefined => {
  const list = free(g, recs);
  return list.length > 0 ? g.lane.rng.pick(list) : undefined;
};

/** Adds `rec`'s id and version from an accepted add's answer; undefined id means the server chose it. */
function learnAdd(g: Gen, kind: Kind, id: string | undefined, values: Values, a: Reply, status: number, ownTime: boolean): string[] {
  const problems = wantAccepted(a, status);
  const data = asObject(asObject(a.json)['data']);
  if (problems.length > 0) {
    if (a.status < 300 && typeof data['_id'] === 'string') g.unsure(data['_id']);
    g.unsure(id);
    return problems;
  }
  const serverId = typeof data['_id'] === 'string' ? data['_id'] : undefined;
  const recId = id ?? serverId;
  if (recId === undefined || (id === undefined && g.lane.byId.has(recId))) return [`answer's data has no new _id: ${clip(a.json)}`];
  const more = dataProblems(a, { id: recId, values });
  const version = typeof data['version'] === 'number' ? data['version'] : undefined;
  g.lane.add({
    kind,
    id: recId,
    who: g.who,
    values,
    version,
    versions: version === undefined ? [] : [version],
    deleted: false,
    unsure: more.length > 0,
    ownTime,
  });
  return more;
}

/** A valid update's answer: the record's new values, on a version above its last. */
function learnUpdate(g: Gen, rec: Rec, values: Values, a: Reply): string[] {
  const problems = wantAccepted(a, 200);
  if (problems.length > 0) {
    if (a.status < 300) rec.unsure = true;
    return problems;
  }
  const changed = differences(values, rec.values).length > 0;
  const more = dataProblems(a, { id: rec.id, values }, changed && rec.version !== undefined ? { above: rec.version } : {});
  const v = asObject(asObject(a.json)['data'])['version'];
  rec.values = values;
  if (typeof v === 'number') {
    rec.version = v;
    rec.versions.push(v);
  }
  if (more.length > 0) rec.unsure = true;
  return more;
}

/** A valid delete's answer: `{message}`, and the record is gone. */
function learnDelete(rec: Rec, a: Reply): string[] {
  const problems = wantAccepted(a, 200);
  if (problems.length > 0) {
    if (a.status < 300) rec.unsure = true;
    return problems;
  }
  if (typeof asObject(a.json)['message'] !== 'string') return [`a delete answered ${clip(a.json)}, without its message`];
  rec.deleted = true;
  rec.version = undefined;
  return [];
}

/** A near miss's answer; a wrong acceptance leaves the model unsure of what it touched. */
function refused(g: Gen, a: Reply, status: number, touched: (string | undefined)[], then?: () => string[]): string[] {
  const problems = wantRefused(a, status);
  if (a.status < 300) {
    const id = asObject(asObject(a.json)['data'])['_id'];
    g.unsure(...touched, typeof id === 'string' ? id : undefined);
  }
  return problems.length > 0 ? problems : (then?.() ?? []);
}

const withMutation = (body: Record<string, unknown>, mutationId: string | undefined) => (mutationId === undefined ? body : { ...body, mutationId });
/** The version an edit is made on: the current one (the app's way), or none (the spec's payloads). */
const baseOf = (g: Gen, rec: Rec): { baseVersion?: number } => (rec.version !== undefined && g.lane.rng.chance(0.7) ? { baseVersion: rec.version } : {});
/** A version the record has moved past. */
const staleBase = (g: Gen, rec: Rec): number | undefined => {
  if (rec.version === undefined || rec.version < 1) return undefined;
  const older = rec.versions.filter((v) => v < (rec.version ?? 0));
  return older.length > 0 ? g.lane.rng.pick(older) : rec.version - 1;
};

// Each kind: a fresh record's values and add body, new values for an edit, and its add's refusals.
interface Versioned {
  kind: Kind;
  add: BatchPath;
  update: BatchPath;
  remove: BatchPath;
  idField: string;
  fresh(g: Gen): { values: Values; body: Record<string, unknown>; ownTime: boolean };
  /** The add body that stored `values` again (a replay of the add). */
  addBody(values: Values): Record<string, unknown>;
  /** New values for an update of `rec`, differing from its current ones, and the body (without id, base and mutation id). */
  change(g: Gen, rec: Rec): { values: Values; body: Record<string, unknown> };
  /** Add bodies with one rule broken, each refused with 400. */
  broken(g: Gen): { why: string; body: Record<string, unknown> }[];
}

function glucoseEntry(rng: Rng): { value: number; unit: 'mg/dL' | 'mmol/L' | null; enteredValue: number | null } {
  switch (rng.int(0, 2)) {
    case 0: {
      const v = rng.int(20, 600);
      return { value: v, unit: 'mg/dL', enteredValue: v };
    }
    case 1: {
      // One decimal, as a meter shows it: 1.2 to 33.3 mmol/L is 21.6 to 599.9 mg/dL as stored.
      const e = rng.int(12, 333) / 10;
      return { value: storedMgDl(e), unit: 'mmol/L', enteredValue: e };
    }
    default:
      return { value: rng.int(200, 6000) / 10, unit: null, enteredValue: null };
  }
}

const entryBody = (e: { value: number; unit: string | null; enteredValue: number | null }, valueKey: string) => ({
  [valueKey]: e.value,
  ...(e.unit !== null ? { unit: e.unit, enteredValue: e.enteredValue } : {}),
});

const OFFSETS = [-720, -300, 0, 60, 330, 345, 840];

const GLUCOSE: Versioned = {
  kind: 'glucose',
  add: '/glucose/add',
  update: '/glucose/update',
  remove: '/glucose/delete',
  idField: 'glucoseId',
  fresh(g) {
    const rng = g.lane.rng;
    const type = rng.pick(GLUCOSE_TYPES);
    const e = glucoseEntry(rng);
    // Mostly the device's time; sometimes none, and the server's clock is the reading's.
    const at = rng.chance(0.9) ? g.lane.readingTime() : undefined;
    const offset = rng.chance(0.5) ? rng.pick([...OFFSETS, rng.int(-720, 840)]) : null;
    const values: Values = {
      type,
      value: e.value,
      unit: e.unit,
      enteredValue: e.enteredValue,
      recordedAt: at === undefined ? null : iso(at),
      utcOffsetMinutes: offset,
    };
    const body = {
      type,
      ...entryBody(e, 'value'),
      ...(at !== undefined ? { recordedAt: iso(at) } : {}),
      ...(offset !== null ? { utcOffsetMinutes: offset } : {}),
    };
    return { values, body, ownTime: at !== undefined };
  },
  addBody: (v) => ({
    type: v['type'],
    value: v['value'],
    ...(v['unit'] !== null ? { unit: v['unit'], enteredValue: v['enteredValue'] } : {}),
    recordedAt: v['recordedAt'],
    ...(v['utcOffsetMinutes'] !== null ? { utcOffsetMinutes: v['utcOffsetMinutes'] } : {}),
  }),
  change(g, rec) {
    const rng = g.lane.rng;
    const type = rng.pick(GLUCOSE_TYPES);
    let e = glucoseEntry(rng);
    if (e.value === rec.values['value']) e = { value: e.value === 600 ? 599 : e.value + 1, unit: null, enteredValue: null };
    const at = rng.chance(0.6) ? g.lane.readingTime() : undefined;
    const offset = rng.chance(0.4) ? rng.pick(OFFSETS) : undefined;
    // The device's offset belongs to the reading's time: kept while the time stays, cleared when it moves unsent.
    const utcOffsetMinutes = offset ?? (at !== undefined ? null : (rec.values['utcOffsetMinutes'] ?? null));
    const values: Values = {
      type,
      value: e.value,
      unit: e.unit,
      enteredValue: e.enteredValue,
      recordedAt: at !== undefined ? iso(at) : (rec.values['recordedAt'] ?? null),
      utcOffsetMinutes,
    };
    const body = {
      gtype: type,
      ...entryBody(e, 'gvalue'),
      ...(at !== undefined ? { recordedAt: iso(at) } : {}),
      ...(offset !== undefined ? { utcOffsetMinutes: offset } : {}),
    };
    return { values, body };
  },
  broken(g) {
    const lane = g.lane;
    const ok = { type: lane.rng.pick(GLUCOSE_TYPES), value: 120, recordedAt: iso(lane.pastTime()) };
    return [
      { why: 'value below 20 mg/dL', body: { ...ok, value: lane.rng.pick([19.9, 0, -1, 5]) } },
      { why: 'value above 600 mg/dL', body: { ...ok, value: lane.rng.pick([600.1, 601, 1000, 1e6]) } },
      { why: 'recordedAt in the future', body: { ...ok, recordedAt: iso(lane.futureTime()) } },
      { why: 'recordedAt before 1900', body: { ...ok, recordedAt: '1899-12-31T23:00:00.000Z' } },
      { why: 'value is not its mmol/L as typed', body: { ...ok, value: storedMgDl(6.5) + 5, unit: 'mmol/L', enteredValue: 6.5 } },
      { why: 'a unit without the value typed in it', body: { ...ok, unit: 'mg/dL' } },
      { why: 'a type that is not one of the three', body: { ...ok, type: 'Bedtime' } },
    ];
  },
};

const APPOINTMENT: Versioned = {
  kind: 'appointment',
  add: '/appointments/add',
  update: '/appointments/update',
  remove: '/appointments/delete',
  idField: 'appointmentId',
  fresh(g) {
    const rng = g.lane.rng;
    const doctor = g.lane.name('Dr. Oracle');
    // Appointments may be in the future: a year either way.
    const date = iso(g.lane.dayStart + rng.int(-365 * DAY, 365 * DAY));
    const notes = rng.chance(0.3)
      ? undefined
      : rng.pick(['', 'Bring the glucometer', 'Fasting blood test first, "no breakfast"', 'Ward 7, 2nd floor — ask at the desk']);
    return { values: { doctor, date, notes: notes ?? '' }, body: { doctor, date, ...(notes !== undefined ? { notes } : {}) }, ownTime: true };
  },
  addBody: (v) => ({ doctor: v['doctor'], date: v['date'], notes: v['notes'] }),
  change(g, rec) {
    const rng = g.lane.rng;
    const doctor = g.lane.name('Dr. Oracle');
    const date = iso(g.lane.dayStart + rng.int(-365 * DAY, 365 * DAY));
    // Notes left out keep theirs.
    const notes = rng.chance(0.3) ? undefined : rng.pick(['', 'Moved', 'Bring the last three lab results']);
    return { values: { doctor, date, notes: notes ?? rec.values['notes'] ?? '' }, body: { doctor, date, ...(notes !== undefined ? { notes } : {}) } };
  },
  broken(g) {
    const ok = { doctor: 'Dr. Oracle', date: iso(g.lane.dayStart + 7 * DAY) };
    return [
      { why: 'a date before 1900', body: { ...ok, date: '1850-06-01T09:00:00.000Z' } },
      { why: 'a date after 2200', body: { ...ok, date: '2250-06-01T09:00:00.000Z' } },
      { why: 'a blank doctor', body: { ...ok, doctor: '   ' } },
    ];
  },
};

/** A lab result the hospital's rules accept: a test of the table with one of its units and a value in range, or a test of no rule. */
function labResult(rng: Rng): { name: string; value: number; unit: string | null } {
  if (rng.chance(0.7)) {
    const test = rng.pick(LAB_TEST_UNITS);
    const u = rng.pick(test.units);
    const min = u.min ?? 0;
    const max = u.max ?? 1000;
    const value = Math.min(max, Math.max(min, Math.round((min + rng.next() * (max - min)) * 1000) / 1000));
    return { name: test.name, value, unit: u.unit };
  }
  // A test no rule knows takes any unit, or none.
  return { name: rng.pick(['Fuzz marker A', 'Fuzz marker B']), value: rng.int(-1000, 100_000) / 10, unit: rng.pick(['ng/mL', 'U/L', null]) };
}

const TEST: Versioned = {
  kind: 'test',
  add: '/tests/add',
  update: '/tests/update',
  remove: '/tests/delete',
  idField: 'testId',
  fresh(g) {
    const r = labResult(g.lane.rng);
    const at = iso(g.lane.pastTime());
    return {
      values: { name: r.name, value: r.value, unit: r.unit, recordedAt: at },
      body: { name: r.name, value: r.value, ...(r.unit !== null ? { unit: r.unit } : {}), recordedAt: at },
      ownTime: true,
    };
  },
  addBody: (v) => ({ name: v['name'], value: v['value'], ...(v['unit'] !== null ? { unit: v['unit'] } : {}), recordedAt: v['recordedAt'] }),
  change(g, rec) {
    let r = labResult(g.lane.rng);
    if (r.name === rec.values['name'] && r.value === rec.values['value']) r = { ...r, name: 'Fuzz marker C', unit: null };
    const at = iso(g.lane.pastTime());
    return {
      values: { name: r.name, value: r.value, unit: r.unit, recordedAt: at },
      body: { name: r.name, value: r.value, ...(r.unit !== null ? { unit: r.unit } : {}), recordedAt: at },
    };
  },
  broken(g) {
    const rng = g.lane.rng;
    const test = rng.pick(LAB_TEST_UNITS.filter((t) => t.units.every((u) => u.min !== undefined && u.max !== undefined)));
    const u = rng.pick(test.units);
    const at = iso(g.lane.pastTime());
    return [
      {
        why: `a unit ${test.name} is not measured in`,
        body: { name: test.name, value: u.min ?? 1, unit: rng.pick(['pct', 'furlongs', 'mg/kg/h']), recordedAt: at },
      },
      { why: `a ${test.name} no assay gives in ${u.unit}`, body: { name: test.name, value: (u.max ?? 0) * 2 + 1, unit: u.unit, recordedAt: at } },
      { why: 'recordedAt in the future', body: { name: test.name, value: u.min ?? 1, unit: u.unit, recordedAt: iso(g.lane.futureTime()) } },
      { why: 'a blank name', body: { name: ' ', value: 1, recordedAt: at } },
    ];
  },
};

const VERSIONED: readonly Versioned[] = [GLUCOSE, APPOINTMENT, TEST];

/** The writes of a kind with updates (glucose, appointments, lab tests), valid and near misses. */
function versionedOps(k: Versioned): Generators {
  const valid: Generator[] = [
    [
      8,
      `${k.kind} add`,
      (g) => {
        const f = k.fresh(g);
        const id = g.lane.rng.chance(0.85) ? g.lane.uuid() : undefined;
        const mutationId = g.lane.maybeMutationId();
        return {
          label: `${k.kind} add${id === undefined ? ' (the server picks the id)' : ''}`,
          valid: true,
          path: k.add,
          who: g.who,
          body: withMutation({ ...(id !== undefined ? { _id: id } : {}), ...f.body }, mutationId),
          keys: id !== undefined ? [id] : [],
          settle: (a, at) => {
            // A time the device did not send is the server's clock when it took the write.
            if (f.values['recordedAt'] === null && k.kind === 'glucose') {
              const got = Date.parse(String(asObject(asObject(a.json)['data'])['recordedAt']));
              if (a.status === 201 && !(got >= at.sent - 1000 && got <= at.answered + 1000))
                return [`recordedAt ${iso(got)} is not the server's time of the add`];
              if (a.status === 201) f.values['recordedAt'] = iso(got);
            }
            return learnAdd(g, k.kind, id, f.values, a, 201, f.ownTime);
          },
        };
      },
    ],
    [
      5,
      `${k.kind} update`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        if (!rec) return undefined;
        const c = k.change(g, rec);
        const base = baseOf(g, rec);
        return {
          label: `${k.kind} update${base.baseVersion !== undefined ? ' on its current version' : ' without a baseVersion'}`,
          valid: true,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, ...base }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => learnUpdate(g, rec, c.values, a),
        };
      },
    ],
    [
      1,
      `${k.kind} update on no version, made by a clock running ahead`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        if (!rec) return undefined;
        const c = k.change(g, rec);
        const madeAt = new Date(Date.now() + g.lane.rng.int(1, 48 * 60) * 60_000).toISOString();
        return {
          label: `${k.kind} update on no version made ${madeAt} (taken as the server's now: applies)`,
          valid: true,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, madeAt }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => learnUpdate(g, rec, c.values, a),
        };
      },
    ],
    [
      2,
      `${k.kind} delete`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        if (!rec) return undefined;
        return {
          label: `${k.kind} delete`,
          valid: true,
          path: k.remove,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...baseOf(g, rec) }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => learnDelete(rec, a),
        };
      },
    ],
    [
      1,
      `${k.kind} delete of a deleted one`,
      (g) => {
        const rec = pickFrom(g, g.lane.gone(k.kind, g.who));
        if (!rec) return undefined;
        const base = rec.versions.at(-1);
        return {
          label: `${k.kind} delete of a deleted one (accepted: a repeat changes nothing)`,
          valid: true,
          path: k.remove,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...(base !== undefined && g.lane.rng.chance(0.5) ? { baseVersion: base } : {}) }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => wantAccepted(a, 200),
        };
      },
    ],
    [
      1,
      `${k.kind} add of a stored id`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        if (!rec || rec.values['recordedAt'] === null) return undefined;
        return {
          label: `${k.kind} add again of a stored record (a replay: 200 with the record as stored)`,
          valid: true,
          path: k.add,
          who: g.who,
          body: withMutation({ _id: rec.id, ...k.addBody(rec.values) }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => {
            const problems = wantAccepted(a, 200);
            if (problems.length > 0) {
              if (a.status < 300) rec.unsure = true;
              return problems;
            }
            return dataProblems(a, rec, rec.version !== undefined ? { equal: rec.version } : {});
          },
        };
      },
    ],
  ];
  const near: Generator[] = [
    [
      5,
      `${k.kind} add with one rule broken`,
      (g) => {
        const b = g.lane.rng.pick(k.broken(g));
        const id = g.lane.uuid();
        return {
          label: `${k.kind} add: ${b.why} (400)`,
          valid: false,
          path: k.add,
          who: g.who,
          body: withMutation({ _id: id, ...b.body }, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, 400, [id]),
        };
      },
    ],
    [
      1,
      `${k.kind} update of an unknown id`,
      (g) => {
        const id = g.lane.uuid();
        const rec = g.lane.live(k.kind, g.who)[0];
        if (!rec) return undefined;
        const c = k.change(g, rec);
        return {
          label: `${k.kind} update of an unknown id (404)`,
          valid: false,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: id, ...c.body }, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, 404, [id]),
        };
      },
    ],
    [
      2,
      `${k.kind} update on a stale version`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        const stale = rec ? staleBase(g, rec) : undefined;
        if (!rec || stale === undefined) return undefined;
        const c = k.change(g, rec);
        return {
          label: `${k.kind} update on version ${stale}, the record is at ${rec.version ?? '?'} (409 with the current record)`,
          valid: false,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, baseVersion: stale }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => refused(g, a, 409, [rec.id], () => currentProblems(a, rec)),
        };
      },
    ],
    [
      1,
      `${k.kind} update on a version the record never had`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        if (!rec || rec.version === undefined) return undefined;
        const ahead = rec.version + 1 + g.lane.rng.int(0, 1000);
        const c = k.change(g, rec);
        return {
          label: `${k.kind} update on version ${ahead}, the record is at ${rec.version} (409 base-version-unknown with the current record: a restored server)`,
          valid: false,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, baseVersion: ahead }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) =>
            refused(g, a, 409, [rec.id], () => {
              const code = asObject(a.json)['code'];
              return [
                ...(code === BASE_VERSION_UNKNOWN ? [] : [`409's code is ${JSON.stringify(code)}, expected "${BASE_VERSION_UNKNOWN}"`]),
                ...currentProblems(a, rec),
              ];
            }),
        };
      },
    ],
    [
      1,
      `${k.kind} update sent again, made before the record's last change`,
      (g) => {
        // An update that applied noted its time on the server (services/record-made.ts): a change
        // sent on no version and made long before it (a device healing a restored server) changes nothing.
        const rec = pickFrom(
          g,
          g.lane.live(k.kind, g.who).filter((r) => r.versions.length > 1),
        );
        if (!rec) return undefined;
        const c = k.change(g, rec);
        const madeAt = new Date(Date.UTC(2001, 0, 1) + g.lane.rng.int(0, 10 * 365) * 86_400_000).toISOString();
        return {
          label: `${k.kind} update on no version made ${madeAt.slice(0, 10)}, after the record was changed (409 superseded)`,
          valid: false,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, madeAt }, g.lane.rng.chance(0.5) ? g.lane.elsewhereMutationId() : undefined),
          keys: [rec.id],
          settle: (a) =>
            refused(g, a, 409, [rec.id], () => {
              const code = asObject(a.json)['code'];
              return code === SUPERSEDED ? [] : [`409's code is ${JSON.stringify(code)}, expected "${SUPERSEDED}"`];
            }),
        };
      },
    ],
    [
      1,
      `${k.kind} update of a deleted one`,
      (g) => {
        const rec = pickFrom(g, g.lane.gone(k.kind, g.who));
        if (!rec) return undefined;
        const c = k.change(g, rec);
        const base = rec.versions.at(-1);
        const withBase = base !== undefined && g.lane.rng.chance(0.5);
        return {
          label: withBase ? `${k.kind} update of a deleted one on a baseVersion (409, current null)` : `${k.kind} update of a deleted one (404)`,
          valid: false,
          path: k.update,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, ...c.body, ...(withBase ? { baseVersion: base } : {}) }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => (withBase ? refused(g, a, 409, [rec.id], () => currentProblems(a, null)) : refused(g, a, 404, [rec.id])),
        };
      },
    ],
    [
      1,
      `${k.kind} delete on a stale version`,
      (g) => {
        const rec = pickFrom(g, g.lane.live(k.kind, g.who));
        const stale = rec ? staleBase(g, rec) : undefined;
        if (!rec || stale === undefined) return undefined;
        return {
          label: `${k.kind} delete on version ${stale}, the record is at ${rec.version ?? '?'} (409 with the current record)`,
          valid: false,
          path: k.remove,
          who: g.who,
          body: withMutation({ [k.idField]: rec.id, baseVersion: stale }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => refused(g, a, 409, [rec.id], () => currentProblems(a, rec)),
        };
      },
    ],
    [
      1,
      `${k.kind} delete of an unknown id`,
      (g) => {
        const id = g.lane.uuid();
        return {
          label: `${k.kind} delete of an unknown id (404)`,
          valid: false,
          path: k.remove,
          who: g.who,
          body: withMutation({ [k.idField]: id }, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, 404, [id]),
        };
      },
    ],
    [
      1,
      `${k.kind} add with another patient's id`,
      (g) => {
        const theirs = pickFrom(
          g,
          g.lane.recs.filter((r) => r.kind === k.kind && r.who === other(g.who) && !r.unsure),
        );
        if (!theirs) return undefined;
        const f = k.fresh(g);
        return {
          label: `${k.kind} add with the _id of another patient's record (409)`,
          valid: false,
          path: k.add,
          who: g.who,
          body: withMutation({ _id: theirs.id, ...f.body }, g.lane.maybeMutationId()),
          keys: [theirs.id],
          settle: (a) => refused(g, a, 409, [theirs.id]),
        };
      },
    ],
    [
      1,
      `${k.kind} edit of another patient's record`,
      (g) => {
        const theirs = pickFrom(g, g.lane.live(k.kind, other(g.who)));
        if (!theirs) return undefined;
        const update = g.lane.rng.chance(0.5);
        return {
          label: `${k.kind} ${update ? 'update' : 'delete'} of another patient's record (404)`,
          valid: false,
          path: update ? k.update : k.remove,
          who: g.who,
          body: withMutation({ [k.idField]: theirs.id, ...(update ? k.change(g, theirs).body : {}) }, g.lane.maybeMutationId()),
          keys: [theirs.id],
          settle: (a) => refused(g, a, 404, [theirs.id]),
        };
      },
    ],
  ];
  return { valid, near };
}

type Generator = readonly [weight: number, name: string, make: (g: Gen) => Op | undefined];
interface Generators {
  valid: Generator[];
  near: Generator[];
}

/** A symptom's one-per-day key: its name (as compared) on a patient's local day. */
const dayKey = (who: Who, name: string, ms: number) => `symptom:${who}:${name.toLowerCase()}:${localDay(ms, who)}`;
const symptomDayOf = (rec: Rec) => dayKey(rec.who, String(rec.values['symptom']), Date.parse(String(rec.values['recordedAt'])));
/** Another instant on the same local day as `ms` (days in the past only). */
const sameDay = (rng: Rng, ms: number, who: Who) => localInstant(localDay(ms, who), '00:00', who) + rng.int(0, DAY - 1);

function symptomOps(): Generators {
  const add = (g: Gen, name: string, at: number, label: string): Op => {
    const id = g.lane.rng.chance(0.85) ? g.lane.uuid() : undefined;
    const values: Values = { symptom: name, recordedAt: iso(at) };
    return {
      label,
      valid: true,
      path: '/symptoms/add',
      who: g.who,
      body: withMutation({ ...(id !== undefined ? { _id: id } : {}), symptom: name, recordedAt: iso(at) }, g.lane.maybeMutationId()),
      keys: [...(id !== undefined ? [id] : []), dayKey(g.who, name, at)],
      settle: (a) => learnAdd(g, 'symptom', id, values, a, 201, true),
    };
  };
  const valid: Generator[] = [
    [4, 'symptom add', (g) => add(g, g.lane.name('Fuzz symptom'), g.lane.pastTime(), 'symptom add')],
    [
      1,
      'symptom add again on the day it was removed',
      (g) => {
        // A day with a live report (or one the model is unsure of) has no room for another.
        const live = new Set(g.lane.recs.filter((r) => r.kind === 'symptom' && r.who === g.who && (!r.deleted || r.unsure)).map(symptomDayOf));
        const rec = pickFrom(
          g,
          g.lane.gone('symptom', g.who).filter((r) => !live.has(symptomDayOf(r)) && !g.busy.has(symptomDayOf(r))),
        );
        if (!rec) return undefined;
        const at = sameDay(g.lane.rng, Date.parse(String(rec.values['recordedAt'])), g.who);
        return add(g, String(rec.values['symptom']), at, 'symptom add of one removed on that day (one live report per day)');
      },
    ],
    [
      1,
      'symptom remove by id',
      (g) => {
        const rec = pickFrom(g, g.lane.live('symptom', g.who));
        if (!rec || g.busy.has(symptomDayOf(rec))) return undefined;
        return {
          label: 'symptom remove by _id',
          valid: true,
          path: '/symptoms/remove',
          who: g.who,
          body: withMutation(
            { symptom: rec.values['symptom'], recordedAt: rec.values['recordedAt'], _id: rec.id, ...baseOf(g, rec) },
            g.lane.maybeMutationId(),
          ),
          keys: [rec.id, symptomDayOf(rec)],
          settle: (a) => learnDelete(rec, a),
        };
      },
    ],
    [
      1,
      'symptom remove by its day',
      (g) => {
        const rec = pickFrom(g, g.lane.live('symptom', g.who));
        if (!rec || g.busy.has(symptomDayOf(rec))) return undefined;
        const key = symptomDayOf(rec);
        // Every report of that symptom on that day goes: the live one, and the removed ones stay removed.
        const group = g.lane.recs.filter((r) => r.kind === 'symptom' && r.who === g.who && symptomDayOf(r) === key);
        if (group.some((r) => r.unsure || g.busy.has(r.id))) return undefined;
        const at = sameDay(g.lane.rng, Date.parse(String(rec.values['recordedAt'])), g.who);
        return {
          label: 'symptom remove by name and day',
          valid: true,
          path: '/symptoms/remove',
          who: g.who,
          body: withMutation({ symptom: rec.values['symptom'], recordedAt: iso(at) }, g.lane.maybeMutationId()),
          keys: [key, ...group.map((r) => r.id)],
          settle: (a) => {
            const problems = wantAccepted(a, 200);
            if (problems.length > 0) {
              if (a.status < 300) for (const r of group) r.unsure = true;
              return problems;
            }
            for (const r of group) {
              r.deleted = true;
              r.version = undefined;
            }
            return [];
          },
        };
      },
    ],
    [
      1,
      'symptom remove of a removed one',
      (g) => {
        const rec = pickFrom(g, g.lane.gone('symptom', g.who));
        if (!rec) return undefined;
        return {
          label: 'symptom remove by _id of a removed one (accepted)',
          valid: true,
          path: '/symptoms/remove',
          who: g.who,
          body: withMutation({ symptom: rec.values['symptom'], recordedAt: rec.values['recordedAt'], _id: rec.id }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => wantAccepted(a, 200),
        };
      },
    ],
  ];
  const near: Generator[] = [
    [
      3,
      'symptom reported twice on a day',
      (g) => {
        const rec = pickFrom(g, g.lane.live('symptom', g.who));
        if (!rec || g.busy.has(symptomDayOf(rec))) return undefined;
        const name = String(rec.values['symptom']);
        // Spaces around and inside do not make another symptom.
        const spelled = g.lane.rng.pick([name, `  ${name} `, name.replace(' ', '   ')]);
        const at = sameDay(g.lane.rng, Date.parse(String(rec.values['recordedAt'])), g.who);
        const id = g.lane.uuid();
        return {
          label: 'symptom add of one already reported that day (409)',
          valid: false,
          path: '/symptoms/add',
          who: g.who,
          body: withMutation({ _id: id, symptom: spelled, recordedAt: iso(at) }, g.lane.maybeMutationId()),
          keys: [id, symptomDayOf(rec)],
          settle: (a) => refused(g, a, 409, [id]),
        };
      },
    ],
    [
      1,
      'symptom add with a rule broken',
      (g) => {
        const id = g.lane.uuid();
        const future = g.lane.rng.chance(0.6);
        const body = future
          ? { _id: id, symptom: g.lane.name('Fuzz symptom'), recordedAt: iso(g.lane.futureTime()) }
          : { _id: id, symptom: g.lane.rng.pick(['   ', '\t', 'x'.repeat(101)]), recordedAt: iso(g.lane.pastTime()) };
        return {
          label: `symptom add: ${future ? 'recordedAt in the future' : 'a blank or too long name'} (400)`,
          valid: false,
          path: '/symptoms/add',
          who: g.who,
          body: withMutation(body, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, 400, [id]),
        };
      },
    ],
    [
      1,
      'symptom remove of one never reported',
      (g) => {
        const byId = g.lane.rng.chance(0.5);
        const id = g.lane.uuid();
        const name = `${g.lane.name('Fuzz symptom')} never`;
        return {
          label: `symptom remove of one never reported${byId ? ' (an unknown _id)' : ' (name and day)'} (404)`,
          valid: false,
          path: '/symptoms/remove',
          who: g.who,
          body: withMutation({ symptom: name, recordedAt: iso(g.lane.pastTime()), ...(byId ? { _id: id } : {}) }, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, 404, []),
        };
      },
    ],
    [
      1,
      'symptom remove on a stale version',
      (g) => {
        const rec = pickFrom(g, g.lane.live('symptom', g.who));
        const stale = rec ? staleBase(g, rec) : undefined;
        if (!rec || stale === undefined || g.busy.has(symptomDayOf(rec))) return undefined;
        return {
          label: `symptom remove on version ${stale}, the report is at ${rec.version ?? '?'} (409)`,
          valid: false,
          path: '/symptoms/remove',
          who: g.who,
          body: withMutation(
            { symptom: rec.values['symptom'], recordedAt: rec.values['recordedAt'], _id: rec.id, baseVersion: stale },
            g.lane.maybeMutationId(),
          ),
          keys: [rec.id, symptomDayOf(rec)],
          settle: (a) => refused(g, a, 409, [rec.id], () => currentProblems(a, rec)),
        };
      },
    ],
    [
      1,
      "symptom add or remove with another patient's id",
      (g) => {
        const theirs = pickFrom(
          g,
          g.lane.recs.filter((r) => r.kind === 'symptom' && r.who === other(g.who) && !r.unsure),
        );
        if (!theirs) return undefined;
        const remove = g.lane.rng.chance(0.5);
        return {
          label: remove ? "symptom remove by another patient's _id (404)" : "symptom add with another patient's _id (409)",
          valid: false,
          path: remove ? '/symptoms/remove' : '/symptoms/add',
          who: g.who,
          body: withMutation(
            remove
              ? { symptom: theirs.values['symptom'], recordedAt: theirs.values['recordedAt'], _id: theirs.id }
              : { _id: theirs.id, symptom: g.lane.name('Fuzz symptom'), recordedAt: iso(g.lane.pastTime()) },
            g.lane.maybeMutationId(),
          ),
          keys: [theirs.id],
          settle: (a) => refused(g, a, remove ? 404 : 409, [theirs.id]),
        };
      },
    ],
  ];
  return { valid, near };
}

const doseSlotKey = (who: Who, day: string, slot: string) => `dose:${who}:${day}:${slot}`;
const doseSlotOf = (rec: Rec) => doseSlotKey(rec.who, localDay(Date.parse(String(rec.values['takenAt'])), rec.who), String(rec.values['slot']));

function doseOps(): Generators {
  const take = (g: Gen, extra: boolean): Op | undefined => {
    const rng = g.lane.rng;
    const rx = ORACLE_PATIENTS[g.who].prescription;
    const id = rng.chance(0.85) ? g.lane.uuid() : undefined;
    let takenAt: number;
    let slot: MealSlot;
    let given: MealSlot | undefined;
    const keys = id !== undefined ? [id] : [];
    if (extra) {
      // An extra dose is outside the one-per-slot rule: any time, its slot given or the nearest meal's.
      takenAt = g.lane.pastTime();
      given = rng.chance(0.5) ? rng.pick(MEAL_SLOTS) : undefined;
      slot = given ?? mealSlotOf(hhmmOf(takenAt, g.who), ORACLE_MEAL_TIMES);
    } else {
      const free = g.lane.doseSlot(g.who);
      slot = free.slot;
      // At the meal's own time the nearest meal is that one; given or not, the slot is the same.
      const exact = rng.chance(0.5);
      takenAt = localInstant(free.day, ORACLE_MEAL_TIMES[slot], g.who) + (exact ? 0 : rng.int(-59, 59) * MINUTE);
      given = exact && rng.chance(0.5) ? undefined : slot;
      keys.push(doseSlotKey(g.who, free.day, slot));
    }
    const values: Values = { prescrNo: rx.prescrNo, medicineName: rx.name, dose: rx.dose, takenAt: iso(takenAt), slot, extra };
    return {
      label: extra ? 'dose taken, extra' : `dose taken in a free ${slot} slot${given === undefined ? ' (the nearest meal)' : ''}`,
      valid: true,
      path: '/user/medicines/taken',
      who: g.who,
      body: withMutation(
        {
          ...(id !== undefined ? { _id: id } : {}),
          prescrNo: rx.prescrNo,
          medicineName: rx.name,
          dose: rx.dose,
          takenAt: iso(takenAt),
          ...(given !== undefined ? { slot: given } : {}),
          ...(extra ? { extra: true } : {}),
        },
        g.lane.maybeMutationId(),
      ),
      keys,
      settle: (a) => learnAdd(g, 'dose', id, values, a, 200, true),
    };
  };
  const valid: Generator[] = [
    [3, 'dose taken', (g) => take(g, g.lane.rng.chance(0.25))],
    [
      1,
      'dose undo',
      (g) => {
        const rec = pickFrom(g, g.lane.live('dose', g.who));
        if (!rec) return undefined;
        return {
          label: 'dose undo',
          valid: true,
          path: '/user/medicines/taken/delete',
          who: g.who,
          body: withMutation({ intakeId: rec.id, ...baseOf(g, rec) }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => learnDelete(rec, a),
        };
      },
    ],
    [
      1,
      'dose undo again, or taken again',
      (g) => {
        if (g.lane.rng.chance(0.5)) {
          const rec = pickFrom(g, g.lane.gone('dose', g.who));
          if (!rec) return undefined;
          return {
            label: 'dose undo of an undone one (accepted)',
            valid: true,
            path: '/user/medicines/taken/delete',
            who: g.who,
            body: withMutation({ intakeId: rec.id }, g.lane.maybeMutationId()),
            keys: [rec.id],
            settle: (a) => wantAccepted(a, 200),
          };
        }
        const rec = pickFrom(g, g.lane.live('dose', g.who));
        if (!rec) return undefined;
        const v = rec.values;
        return {
          label: 'dose taken again with its stored _id (a replay: 200 with the dose as stored)',
          valid: true,
          path: '/user/medicines/taken',
          who: g.who,
          body: withMutation(
            {
              _id: rec.id,
              prescrNo: v['prescrNo'],
              medicineName: v['medicineName'],
              dose: v['dose'],
              takenAt: v['takenAt'],
              slot: v['slot'],
              ...(v['extra'] === true ? { extra: true } : {}),
            },
            g.lane.maybeMutationId(),
          ),
          keys: [rec.id],
          settle: (a) => {
            const problems = wantAccepted(a, 200);
            return problems.length > 0 ? problems : dataProblems(a, rec, rec.version !== undefined ? { equal: rec.version } : {});
          },
        };
      },
    ],
  ];
  const near: Generator[] = [
    [
      2,
      'dose taken twice in a slot',
      (g) => {
        const rec = pickFrom(
          g,
          g.lane.live('dose', g.who).filter((r) => r.values['extra'] === false),
        );
        if (!rec || g.busy.has(doseSlotOf(rec))) return undefined;
        const rx = ORACLE_PATIENTS[g.who].prescription;
        const day = localDay(Date.parse(String(rec.values['takenAt'])), g.who);
        const slot = String(rec.values['slot']) as MealSlot;
        const at = localInstant(day, ORACLE_MEAL_TIMES[slot], g.who) + g.lane.rng.int(-90, 90) * MINUTE;
        const id = g.lane.uuid();
        return {
          label: `dose taken in a ${slot} slot already taken (409 dose-already-recorded with the dose there)`,
          valid: false,
          path: '/user/medicines/taken',
          who: g.who,
          body: withMutation({ _id: id, prescrNo: rx.prescrNo, medicineName: rx.name, dose: rx.dose, takenAt: iso(at), slot }, g.lane.maybeMutationId()),
          keys: [id, doseSlotOf(rec)],
          settle: (a) =>
            refused(g, a, 409, [id], () => {
              const code = asObject(a.json)['code'];
              return [
                ...(code === 'dose-already-recorded' ? [] : [`409's code is ${JSON.stringify(code)}, expected "dose-already-recorded"`]),
                ...currentProblems(a, rec),
              ];
            }),
        };
      },
    ],
    [
      1,
      'dose taken with a rule broken',
      (g) => {
        const rx = ORACLE_PATIENTS[g.who].prescription;
        const id = g.lane.uuid();
        const unknown = g.lane.rng.chance(0.5);
        const body = unknown
          ? { _id: id, prescrNo: 'RX-NOT-PRESCRIBED', medicineName: rx.name, dose: rx.dose, takenAt: iso(g.lane.pastTime()), extra: true }
          : { _id: id, prescrNo: rx.prescrNo, medicineName: rx.name, dose: rx.dose, takenAt: iso(g.lane.futureTime()), extra: true };
        return {
          label: unknown ? 'dose taken of a medicine not prescribed (404)' : 'dose taken in the future (400)',
          valid: false,
          path: '/user/medicines/taken',
          who: g.who,
          body: withMutation(body, g.lane.maybeMutationId()),
          keys: [id],
          settle: (a) => refused(g, a, unknown ? 404 : 400, [id]),
        };
      },
    ],
    [
      1,
      'dose undo of an unknown or stale one',
      (g) => {
        const rec = pickFrom(g, g.lane.live('dose', g.who));
        const stale = rec ? staleBase(g, rec) : undefined;
        if (!rec || stale === undefined || g.lane.rng.chance(0.4)) {
          const id = g.lane.uuid();
          return {
            label: 'dose undo of an unknown id (404)',
            valid: false,
            path: '/user/medicines/taken/delete',
            who: g.who,
            body: withMutation({ intakeId: id }, g.lane.maybeMutationId()),
            keys: [id],
            settle: (a) => refused(g, a, 404, [id]),
          };
        }
        return {
          label: `dose undo on version ${stale}, the dose is at ${rec.version ?? '?'} (409)`,
          valid: false,
          path: '/user/medicines/taken/delete',
          who: g.who,
          body: withMutation({ intakeId: rec.id, baseVersion: stale }, g.lane.maybeMutationId()),
          keys: [rec.id],
          settle: (a) => refused(g, a, 409, [rec.id], () => currentProblems(a, rec)),
        };
      },
    ],
    [
      1,
      "dose with another patient's id",
      (g) => {
        const theirs = pickFrom(
          g,
          g.lane.recs.filter((r) => r.kind === 'dose' && r.who === other(g.who) && !r.unsure),
        );
        if (!theirs) return undefined;
        const rx = ORACLE_PATIENTS[g.who].prescription;
        const undo = g.lane.rng.chance(0.5);
        return {
          label: undo ? "dose undo of another patient's dose (404)" : "dose taken with another patient's _id (409)",
          valid: false,
          path: undo ? '/user/medicines/taken/delete' : '/user/medicines/taken',
          who: g.who,
          body: withMutation(
            undo
              ? { intakeId: theirs.id }
              : { _id: theirs.id, prescrNo: rx.prescrNo, medicineName: rx.name, dose: rx.dose, takenAt: iso(g.lane.pastTime()), extra: true },
            g.lane.maybeMutationId(),
          ),
          keys: [theirs.id],
          settle: (a) => refused(g, a, undo ? 404 : 409, [theirs.id]),
        };
      },
    ],
  ];
  return { valid, near };
}

/** Repeats of a spent mutation id: the first answer again, marked, and no change. */
function repeatOps(): Generator[] {
  const same = (a: Reply, first: Replayable): string[] => {
    const out: string[] = [];
    if (a.status !== first.status) out.push(`a repeat answered ${a.status}, the first answer was ${first.status}`);
    else if (!isDeepStrictEqual(a.json, first.json)) out.push(`a repeat answered ${clip(a.json)}, the first answer was ${clip(first.json)}`);
    if (!a.repeat) out.push('a repeat is not marked as one (X-Mutation-Repeat: 1, or repeat in a batch)');
    return out;
  };
  return [
    [
      2,
      'the same write again',
      (g) => {
        const mine = g.lane.accepted.filter((r) => r.who === g.who);
        if (mine.length === 0) return undefined;
        const r = g.lane.rng.pick(mine);
        return {
          label: `${r.path} sent again with its mutation id ${r.mutationId} (the first answer, nothing changes)`,
          valid: false,
          path: r.path,
          who: g.who,
          body: r.body,
          keys: [`mutation:${r.mutationId}`],
          repeatOf: r,
          settle: (a) => same(a, r),
        };
      },
    ],
    [
      1,
      'another write with a spent mutation id',
      (g) => {
        const mine = g.lane.accepted.filter((r) => r.who === g.who);
        const rec = pickFrom(g, g.lane.live('glucose', g.who));
        if (mine.length === 0 || !rec) return undefined;
        const r = g.lane.rng.pick(mine);
        return {
          label: `glucose delete with the spent mutation id ${r.mutationId} of a ${r.path} (its first answer; the reading stays)`,
          valid: false,
          path: '/glucose/delete',
          who: g.who,
          body: { glucoseId: rec.id, mutationId: r.mutationId },
          keys: [rec.id, `mutation:${r.mutationId}`],
          repeatOf: r,
          settle: (a) => {
            const problems = same(a, r);
            if (a.status < 300 && !a.repeat) rec.unsure = true;
            return problems;
          },
        };
      },
    ],
  ];
}

const ALL: Generators[] = [...VERSIONED.map(versionedOps), symptomOps(), doseOps()];
const VALID: Generator[] = ALL.flatMap((k) => k.valid);
const NEAR: Generator[] = [...ALL.flatMap((k) => k.near), ...repeatOps()];

// ——— The oracle ———

export interface OracleOptions {
  seed: number;
  lanes: number;
  /** The start of the run's UTC day: every time is drawn around it. */
  dayStart: number;
  /** The hospital numbers the admin's reports name (X-Hosp-No). */
  patients?: readonly OraclePatient[];
}

export class WriteOracle {
  readonly counts: Counts = { valid: 0, validAccepted: 0, nearMisses: 0, nearMissesRefused: 0, repeats: 0, repeatsAnswered: 0, batches: 0, reports: 0 };
  private readonly lanes: Lane[];
  /** Ids a wrong answer made the model unsure of (records made by a near miss the server took): the state check passes over them. */
  private readonly unsureIds = new Set<string>();

  constructor(opts: OracleOptions) {
    this.lanes = Array.from({ length: opts.lanes }, (_, i) => new Lane(i, opts.lanes, opts.seed, opts.dayStart));
  }

  private gen(lane: Lane, who: Who, busy: ReadonlySet<string>): Gen {
    return {
      lane,
      who,
      busy,
      unsure: (...ids) => {
        for (const id of ids) {
          if (id === undefined) continue;
          this.unsureIds.add(id);
          const rec = lane.byId.get(id) ?? this.lanes.map((l) => l.byId.get(id)).find((r) => r !== undefined);
          if (rec) rec.unsure = true;
        }
      },
    };
  }

  /** A write drawn from `list`, for `who`, or an add when none of the drawn kind applies. */
  private op(lane: Lane, who: Who, busy: ReadonlySet<string>, list: Generator[]): Op {
    const g = this.gen(lane, who, busy);
    for (let tries = 0; tries < 8; tries++) {
      const make = pickWeighted(
        lane.rng,
        list.map(([w, , m]) => [w, m] as const),
      );
      const op = make(g);
      if (op && !op.keys.some((k) => busy.has(k))) return op;
    }
    // Nothing of the drawn kinds applies yet (no record to edit): a new reading always does.
    const fresh = versionedOps(GLUCOSE).valid[0];
    const op = fresh?.[2](g);
    if (!op) throw new Error('a glucose add could not be made');
    return op;
  }

  /** Counts and remembers what one write's answer was; its problems, each prefixed with the write. */
  private settleOp(lane: Lane, op: Op, a: Reply, at: Window): string[] {
    const problems = op.settle(a, at);
    const mutationId = typeof op.body['mutationId'] === 'string' ? op.body['mutationId'] : undefined;
    if (op.repeatOf) {
      this.counts.repeats++;
      if (problems.length === 0) this.counts.repeatsAnswered++;
    } else if (op.valid) {
      this.counts.valid++;
      if (problems.length === 0) this.counts.validAccepted++;
    } else {
      this.counts.nearMisses++;
      if (problems.length === 0) this.counts.nearMissesRefused++;
    }
    if (!op.repeatOf && mutationId !== undefined && problems.length === 0) {
      if (a.status < 300) lane.remember({ who: op.who, path: op.path, body: op.body, mutationId, status: a.status, json: a.json });
      // A refusal records nothing: the id is not spent.
      else if (a.status < 500 && lane.owns(mutationId)) lane.free.push(mutationId);
    }
    return problems.map((p) => `${op.label}: ${p}`);
  }

  /** The next request of lane `index`. */
  next(index: number): OracleStep {
    const lane = this.lanes[index];
    if (!lane) throw new Error(`no lane ${index}`);
    const rng = lane.rng;
    const who: Who = rng.chance(0.5) ? 0 : 1;
    const kind = pickWeighted(rng, [
      [60, 'valid'],
      [30, 'near'],
      [6, 'batch'],
      [1, 'batch again'],
      [3, 'report'],
    ] as const);
    if (kind === 'batch' || (kind === 'batch again' && lane.lastBatch === undefined)) return this.batch(lane, who);
    if (kind === 'batch again' && lane.lastBatch) return this.batchAgain(lane, lane.lastBatch);
    if (kind === 'report') return this.report(lane, who);
    const op = this.op(lane, who, new Set(), kind === 'valid' ? VALID : NEAR);
    return {
      label: op.label,
      route: `POST /api${op.path}`,
      caller: op.who,
      about: op.who,
      valid: op.valid,
      body: op.body,
      settle: (a, at) => {
        let json: unknown;
        try {
          json = a.text === '' ? undefined : JSON.parse(a.text);
        } catch {
          return [`${op.label}: the answer is not JSON: ${clip(a.text)}`];
        }
        return this.settleOp(lane, op, { status: a.status, json, repeat: a.repeat }, at);
      },
    };
  }

  /** A batch of 2 to 6 writes on distinct records, one of them maybe a near miss (the writes after it do not run). */
  private batch(lane: Lane, who: Who): OracleStep {
    const rng = lane.rng;
    const n = rng.int(2, 6);
    const refusedAt = rng.chance(0.35) ? rng.int(0, n - 1) : -1;
    const busy = new Set<string>();
    const ops: Op[] = [];
    for (let i = 0; i < n; i++) {
      const op = this.op(lane, who, busy, i === refusedAt ? NEAR.filter(([, name]) => !name.includes('same write again')) : VALID);
      // A device's batch carries a mutation id on every write.
      if (op.body['mutationId'] === undefined) op.body = { ...op.body, mutationId: lane.mutationId() };
      for (const k of op.keys) busy.add(k);
      ops.push(op);
    }
    const body = { mutations: ops.map((op) => ({ path: op.path, body: op.body })) };
    this.counts.batches++;
    const refusedOp = ops[refusedAt];
    return {
      label: `batch of ${n}${refusedOp ? `, write ${refusedAt + 1} a near miss (${refusedOp.label}): the writes before it stay, those after it do not run` : ''}`,
      route: 'POST /api/batch',
      caller: who,
      about: who,
      valid: !refusedOp,
      body,
      settle: (a, at) => {
        const json = parseJson(a.text);
        const results = asObject(json)['results'];
        if (a.status !== 200 || !Array.isArray(results)) return [`batch answered ${a.status} ${clip(a.text)}, must be 200 with results`];
        // The last result is the near miss's when it is a repeat of a spent id: then it is accepted and the batch goes on.
        const expected = refusedOp && !refusedOp.repeatOf ? refusedAt + 1 : n;
        const problems: string[] = [];
        if (results.length !== expected) problems.push(`batch answered ${results.length} results, expected ${expected}`);
        results.forEach((r, i) => {
          const op = ops[i];
          if (!op) return;
          const res = asObject(r);
          problems.push(
            ...this.settleOp(
              lane,
              op,
              { status: typeof res['status'] === 'number' ? res['status'] : 0, json: res['body'], repeat: res['repeat'] === true },
              at,
            ).map((p) => `write ${i + 1}: ${p}`),
          );
        });
        // The writes that did not run spent nothing.
        for (const op of ops.slice(results.length)) if (typeof op.body['mutationId'] === 'string') lane.free.push(op.body['mutationId']);
        if (problems.length === 0 && expected === n && !refusedOp)
          lane.lastBatch = { who, body, results: results.map((r) => ({ status: Number(asObject(r)['status']), body: asObject(r)['body'] })) };
        return problems;
      },
    };
  }

  /** The last batch that was all accepted, sent again: every result the first one's, marked as a repeat. */
  private batchAgain(lane: Lane, last: NonNullable<Lane['lastBatch']>): OracleStep {
    lane.lastBatch = undefined;
    this.counts.batches++;
    return {
      label: `a batch of ${last.results.length} sent again (every result the first one's, as a repeat; nothing changes)`,
      route: 'POST /api/batch',
      caller: last.who,
      about: last.who,
      valid: false,
      body: last.body,
      settle: (a) => {
        this.counts.repeats++;
        const results = asObject(parseJson(a.text))['results'];
        if (a.status !== 200 || !Array.isArray(results)) return [`batch again answered ${a.status} ${clip(a.text)}, must be 200 with results`];
        const problems: string[] = [];
        if (results.length !== last.results.length) problems.push(`batch again answered ${results.length} results, the first ${last.results.length}`);
        results.forEach((r, i) => {
          const res = asObject(r);
          const first = last.results[i];
          if (!first) return;
          if (res['status'] !== first.status || !isDeepStrictEqual(res['body'], first.body))
            problems.push(`result ${i + 1} is ${clip(r)}, the first was ${clip(first)}`);
          if (res['repeat'] !== true) problems.push(`result ${i + 1} is not marked as a repeat`);
        });
        if (problems.length === 0) this.counts.repeatsAnswered++;
        return problems;
      },
    };
  }

  /**
   * A report of a period: made, with the lane's live readings of the period in it once each and its
   * deleted ones not (the CSV's rows by their time, the FHIR bundle's Observations by their id), or
   * refused for its range.
   */
  private report(lane: Lane, who: Who): OracleStep {
    const rng = lane.rng;
    const p = ORACLE_PATIENTS[who];
    // The period ends two days or more ago, so no reading at the server's clock is in it.
    const to = iso(lane.dayStart - rng.int(2, 30) * DAY).slice(0, 10);
    const from = iso(Date.parse(to) - rng.int(0, 40) * DAY).slice(0, 10);
    const broken = rng.chance(0.2);
    const admin = rng.chance(0.35);
    const format = admin
      ? pickWeighted(rng, [
          [5, 'csv'],
          [2, 'pdf'],
          [3, 'fhir'],
        ] as const)
      : pickWeighted(rng, [
          [7, 'csv'],
          [3, 'pdf'],
        ] as const);
    const route = `POST /api/${admin ? 'admin' : 'users'}/report${format === 'pdf' ? '' : `/${format}`}`;
    const caller: OracleCaller = admin ? 'admin' : who;
    const name = `${format === 'fhir' ? 'FHIR' : format.toUpperCase()} report of ${p.hospNo}${admin ? ' by the admin' : ''}`;
    this.counts.reports++;
    if (broken) {
      const reversed = rng.chance(0.5);
      const body = reversed
        ? { from: to, to: iso(Date.parse(to) - rng.int(1, 30) * DAY).slice(0, 10) }
        : { from: iso(Date.parse(to) - rng.int(MAX_REPORT_DAYS, 800) * DAY).slice(0, 10), to };
      return {
        label: `${name} over ${reversed ? 'a reversed period' : `more than ${MAX_REPORT_DAYS} days`} (400)`,
        route,
        caller,
        about: who,
        valid: false,
        body,
        settle: (a) => {
          this.counts.nearMisses++;
          const problems = wantRefused({ status: a.status, json: a.text.slice(0, 200), repeat: false }, 400);
          if (problems.length === 0) this.counts.nearMissesRefused++;
          return problems;
        },
      };
    }
    const body = { from, to, locale: 'en' };
    return {
      label: `${name} from ${from} to ${to}${format === 'pdf' ? '' : ": the lane's live readings of the period once each, its deleted ones not"}`,
      route,
      caller,
      about: who,
      valid: true,
      body,
      settle: (a) => {
        this.counts.valid++;
        const problems = wantAccepted({ status: a.status, json: a.text.slice(0, 300), repeat: false }, 200);
        if (problems.length === 0) {
          if (format === 'pdf' && !a.text.startsWith('%PDF-')) problems.push('the PDF does not start with %PDF-');
          if (format === 'csv') problems.push(...this.readingsIn(lane, who, from, to, csvReadings(a.text)));
          if (format === 'fhir') problems.push(...this.readingsIn(lane, who, from, to, fhirReadings(a.text)));
        }
        if (problems.length === 0) this.counts.validAccepted++;
        return problems;
      },
    };
  }

  /** The lane's readings of `who` against a report's: each live one of the period once, no other. */
  private readingsIn(lane: Lane, who: Who, from: string, to: string, found: Found | string): string[] {
    if (typeof found === 'string') return [found];
    const problems: string[] = [];
    for (const rec of lane.recs) {
      if (rec.kind !== 'glucose' || rec.who !== who || rec.unsure) continue;
      const at = String(rec.values['recordedAt']);
      // Found by its time (the CSV has no ids): only the times the oracle drew are its own.
      if (found.by === 'instant' && !rec.ownTime) continue;
      const day = localDay(Date.parse(at), who);
      const want = !rec.deleted && day >= from && day <= to ? 1 : 0;
      const got = found.counts.get(found.by === 'id' ? rec.id : iso(Date.parse(at))) ?? 0;
      if (got !== want)
        problems.push(`the report lists the ${rec.deleted ? 'deleted' : 'live'} reading ${rec.id} at ${at} (local day ${day}) ${got} times, expected ${want}`);
    }
    return problems.slice(0, 5);
  }

  /**
   * Compares what the server holds (`pulled`, by `${who}:${kind}`) with the model: each record once,
   * with its last values and version, a deleted one among `deleted` only; nothing the oracle was not
   * told it accepted.
   */
  stateCheck(pulled: ReadonlyMap<string, Pulled>): StateReport {
    const report: StateReport = { records: 0, lost: 0, duplicated: 0, wrong: 0, unknown: 0, problems: [] };
    const note = (p: string) => report.problems.push(p);
    const recs = this.lanes.flatMap((l) => l.recs);
    for (const who of [0, 1] as const) {
      for (const kind of KINDS) {
        const list = pulled.get(`${who}:${kind}`);
        if (!list) {
          note(`${ORACLE_PATIENTS[who].hospNo} ${kind}: not pulled`);
          report.lost++;
          continue;
        }
        const rows = new Map<string, Record<string, unknown>[]>();
        for (const row of list.rows) {
          const id = String(row['_id']);
          rows.set(id, [...(rows.get(id) ?? []), row]);
        }
        const deleted = new Map<string, number>();
        for (const id of list.deleted) deleted.set(id, (deleted.get(id) ?? 0) + 1);
        const mine = recs.filter((r) => r.who === who && r.kind === kind);
        const known = new Set(mine.map((r) => r.id));
        for (const rec of mine) {
          if (rec.unsure) continue;
          report.records++;
          const live = rows.get(rec.id) ?? [];
          const gone = deleted.get(rec.id) ?? 0;
          const where = `${ORACLE_PATIENTS[who].hospNo} ${kind} ${rec.id}`;
          if (live.length + gone === 0) {
            report.lost++;
            note(`lost: ${where} (${rec.deleted ? 'deleted' : 'live'} in the model) is neither a row nor among the deleted ids`);
          } else if (live.length + gone > 1) {
            report.duplicated++;
            note(`duplicated: ${where} comes ${live.length} times as a row and ${gone} times as deleted`);
          } else if (rec.deleted !== (gone === 1)) {
            report.wrong++;
            note(`wrong: ${where} is ${gone === 1 ? 'deleted' : 'live'} on the server, ${rec.deleted ? 'deleted' : 'live'} in the model`);
          } else if (!rec.deleted) {
            const diffs = differences(rec.values, live[0]);
            const version = live[0]?.['version'];
            if (rec.version !== undefined && version !== rec.version) diffs.push(`version ${JSON.stringify(version)}, expected ${rec.version}`);
            if (diffs.length > 0) {
              report.wrong++;
              note(`wrong: ${where}: ${diffs.join('; ')}`);
            }
          }
        }
        for (const id of new Set([...rows.keys(), ...deleted.keys()])) {
          if (known.has(id) || this.unsureIds.has(id)) continue;
          report.unknown++;
          note(`unknown: ${ORACLE_PATIENTS[who].hospNo} ${kind} ${id} is on the server, and no write of the oracle was accepted with it`);
        }
      }
    }
    return report;
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The readings a report lists, counted by their id or their time. */
interface Found {
  by: 'id' | 'instant';
  counts: Map<string, number>;
}

/** The cells of a CSV line (RFC 4180: a quoted cell may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

/** The readings of a report's CSV (who and what, a blank line, then the table), by their "Recorded at (UTC)". */
function csvReadings(text: string): Found | string {
  const lines = text.split('\r\n');
  const blank = lines.indexOf('');
  const col = blank < 0 ? -1 : csvCells(lines[blank + 1] ?? '').findIndex((h) => h.startsWith('Recorded at'));
  if (col < 0) return `the CSV has no table with a "Recorded at" column: ${clip(text)}`;
  const counts = new Map<string, number>();
  for (const line of lines.slice(blank + 2)) {
    const cell = csvCells(line)[col];
    if (cell) counts.set(cell, (counts.get(cell) ?? 0) + 1);
  }
  return { by: 'instant', counts };
}

/** The Observations of a FHIR bundle, by id: a glucose reading's is the reading's own. */
function fhirReadings(text: string): Found | string {
  const bundle = asObject(parseJson(text));
  if (bundle['resourceType'] !== 'Bundle' || !Array.isArray(bundle['entry'])) return `the FHIR answer is no Bundle: ${clip(text)}`;
  const counts = new Map<string, number>();
  for (const entry of bundle['entry']) {
    const r = asObject(asObject(entry)['resource']);
    if (r['resourceType'] !== 'Observation' || typeof r['id'] !== 'string') continue;
    counts.set(r['id'], (counts.get(r['id']) ?? 0) + 1);
  }
  return { by: 'id', counts };
}
