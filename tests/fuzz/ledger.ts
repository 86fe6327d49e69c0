// What the hostile requests were told about the demo patients' records, and the state check of it.
//
// The hostile requests write to the demo patients as well (as patient 100001 and 100002, with ids
// they share and bodies of every shape), so no model can foretell those lists. What can still be
// held to: every record a 2xx answer named (an add's or update's `data._id`, in a batch's results
// too) is on the server afterwards, once, live or among the deleted ids, and the server holds no
// record that was neither there at the start nor named by a 2xx answer (a refused write that was
// stored anyway, a write applied twice under two ids).
import { kindOfWrite, KINDS, type Kind, type Pulled } from './writes.ts';

export interface LedgerReport {
  /** Records first accepted (not repeats) by a hostile write. */
  accepted: number;
  lost: number;
  duplicated: number;
  unknown: number;
  problems: string[];
}

const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const idOf = (answer: unknown): string | undefined => {
  const id = asObject(asObject(answer)['data'])['_id'];
  return typeof id === 'string' ? id : undefined;
};

export class HostileLedger {
  /** Ids on the server at the start, by `${patient}:${kind}`. */
  private readonly baseline = new Map<string, Set<string>>();
  /** Ids any 2xx answer named, by patient (of any kind: a repeat answers another route's first answer). */
  private readonly named = new Map<string, Set<string>>();
  /** Ids of records a first (not repeated) 2xx answer of an add or update named, by `${patient}:${kind}`. */
  private readonly accepted = new Map<string, Set<string>>();

  start(patient: string, kind: Kind, pulled: Pulled): void {
    this.baseline.set(`${patient}:${kind}`, new Set([...pulled.rows.map((r) => String(r['_id'])), ...pulled.deleted]));
  }

  private name(patient: string, path: string, answer: unknown, repeat: boolean): void {
    const id = idOf(answer);
    if (id === undefined) return;
    const named = this.named.get(patient) ?? new Set<string>();
    named.add(id);
    this.named.set(patient, named);
    const kind = kindOfWrite(path);
    if (repeat || kind === undefined) return;
    const key = `${patient}:${kind}`;
    const accepted = this.accepted.get(key) ?? new Set<string>();
    accepted.add(id);
    this.accepted.set(key, accepted);
  }

  /**
   * A 2xx answer to a patient write (`path` without /api: '/glucose/add', '/batch', …) sent as
   * `patient` with `body`; `repeat` when it was marked as the first answer of its mutation id.
   */
  note(patient: string, path: string, body: unknown, status: number, answer: unknown, repeat: boolean): void {
    if (status < 200 || status >= 300) return;
    if (path !== '/batch') {
      this.name(patient, path, answer, repeat);
      return;
    }
    const mutations = asObject(body)['mutations'];
    const results = asObject(answer)['results'];
    if (!Array.isArray(mutations) || !Array.isArray(results)) return;
    results.forEach((r, i) => {
      const res = asObject(r);
      const p = asObject(mutations[i])['path'];
      if (typeof res['status'] === 'number' && res['status'] < 300 && typeof p === 'string') this.name(patient, p, res['body'], res['repeat'] === true);
    });
  }

  /** The check of one patient's lists, pulled by version at the end. */
  check(patient: string, pulled: ReadonlyMap<Kind, Pulled>): LedgerReport {
    const report: LedgerReport = { accepted: 0, lost: 0, duplicated: 0, unknown: 0, problems: [] };
    const named = this.named.get(patient) ?? new Set<string>();
    for (const kind of KINDS) {
      const list = pulled.get(kind);
      if (!list) throw new Error(`${patient} ${kind} was not pulled`);
      const seen = new Map<string, number>();
      for (const id of [...list.rows.map((r) => String(r['_id'])), ...list.deleted]) seen.set(id, (seen.get(id) ?? 0) + 1);
      const baseline = this.baseline.get(`${patient}:${kind}`) ?? new Set<string>();
      const accepted = this.accepted.get(`${patient}:${kind}`) ?? new Set<string>();
      report.accepted += accepted.size;
      for (const id of accepted) {
        if (seen.has(id)) continue;
        report.lost++;
        report.problems.push(`lost: ${patient} ${kind} ${id} was accepted by a hostile write and is neither a row nor among the deleted ids`);
      }
      for (const [id, n] of seen) {
        if (n > 1) {
          report.duplicated++;
          report.problems.push(`duplicated: ${patient} ${kind} ${id} comes ${n} times in its list (rows and deleted ids)`);
        }
        if (!baseline.has(id) && !named.has(id)) {
          report.unknown++;
          report.problems.push(`unknown: ${patient} ${kind} ${id} is on the server, but was not there at the start and no 2xx answer named it`);
        }
      }
    }
    return report;
  }
}
