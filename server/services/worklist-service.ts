// GET /api/admin/worklist (issue 18): a hospital's patients, most in need first, each with the
// reasons and the figures behind them. The figures come from one statement in the database
// (server/repositories/worklist.ts), which also orders the patients; this turns them into reasons
// and says why each patient stands where they do (worklist-priority.ts), and records the read of
// each patient listed in the audit log, as every staff read of a patient is.
import type { AppContext } from '../context.ts';
import type { WorklistQuery } from '../../schemas/admin.ts';
import { recordReads, type ReadOrigin } from './admin/audit.ts';
import { worklistRepo, type WorklistFacts } from '../repositories/worklist.ts';
import { checkHospital } from './admin/scope.ts';
import type { StaffPrincipal } from './principal.ts';
import { WORKLIST_DAYS } from '../../schemas/admin.ts';
import { priorityOf } from './worklist-priority.ts';
import { WORKLIST_RULES, type ReasonCode, type WorklistRules } from './worklist-rules.ts';

export interface Reason {
  code: ReasonCode;
  /** In English, for logs and API users; the app words each reason itself from `code` and `value`. */
  text: string;
  /** The figure behind the reason (see reasonsOf); null only for "no data" when there was never a reading. */
  value: number | null;
}

const DAY = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The reasons, most urgent first, each with its figure:
 *   severe-low: the lowest reading (mg/dL); low-time: % of readings below the low level;
 *   no-data: whole days since the last reading (null: never); low-tir: % of readings in range;
 *   missed-doses: % of expected doses marked taken; rising-mean: the rise of the mean (mg/dL);
 *   sparse-data: days of the period with a reading.
 */
export function reasonsOf(f: WorklistFacts, days: number, now: Date, rules: WorklistRules = WORKLIST_RULES): Reason[] {
  const out: Reason[] = [];
  const pct = (part: number, whole: number) => round1((part * 100) / whole);
  if (f.flags.severeLow && f.lowest !== null) {
    out.push({
      code: 'severe-low',
      value: round1(f.lowest),
      text: `${plural(f.severe, 'reading')} below ${rules.severeLowMgDl} mg/dL, lowest ${round1(f.lowest)} mg/dL`,
    });
  }
  if (f.flags.lowTime) {
    const v = pct(f.below, f.readings);
    out.push({ code: 'low-time', value: v, text: `${v} % of readings below ${rules.lowMgDl} mg/dL (target under ${rules.lowTimeAbovePercent} %)` });
  }
  if (f.flags.noData) {
    const since = f.lastReadingAt ? Math.floor((now.getTime() - f.lastReadingAt.getTime()) / DAY) : null;
    out.push({ code: 'no-data', value: since, text: since === null ? 'No readings yet' : `No readings for ${plural(since, 'day')}` });
  }
  if (f.flags.lowTir) {
    const v = pct(f.inRange, f.readings);
    out.push({ code: 'low-tir', value: v, text: `${v} % of readings in range ${rules.lowMgDl}–${rules.highMgDl} mg/dL` });
  }
  if (f.flags.missedDoses) {
    const v = pct(f.takenDoses, f.expectedDoses);
    out.push({ code: 'missed-doses', value: v, text: `${v} % of doses marked taken (${f.takenDoses} of ${f.expectedDoses})` });
  }
  if (f.flags.risingMean && f.mean !== null && f.previousMean !== null) {
    const v = round1(f.mean - f.previousMean);
    out.push({ code: 'rising-mean', value: v, text: `Mean glucose up ${v} mg/dL (${round1(f.previousMean)} → ${round1(f.mean)} mg/dL)` });
  }
  if (f.flags.sparseData) {
    out.push({ code: 'sparse-data', value: f.daysWithReadings, text: `Readings on ${f.daysWithReadings} of ${days} days` });
  }
  return out;
}

export async function worklist(ctx: AppContext, origin: ReadOrigin, principal: StaffPrincipal, q: WorklistQuery, now = new Date()) {
  checkHospital(principal, q.hospitalId);
  const days = q.days ?? WORKLIST_DAYS.default;
  const page = q.page ?? 1;
  const limit = q.limit ?? 20;
  const offset = (page - 1) * limit;
  const { rows, total } = await worklistRepo.page(ctx.db, { hospitalId: q.hospitalId, days, now, limit, offset, rules: WORKLIST_RULES });
  await recordReads(
    ctx,
    principal,
    rows.map((r) => ({ patientId: r.id, hospNo: r.hospNo })),
    'GET /api/admin/worklist',
    origin,
  );
  return {
    patients: rows.map((r, i) => ({
      hospNo: r.hospNo,
      name: r.name,
      reasons: reasonsOf(r, days, now),
      priority: priorityOf(r, offset + i + 1, days, now),
      lastReadingAt: r.lastReadingAt?.toISOString() ?? null,
      lastSyncAt: r.lastSyncAt?.toISOString() ?? null,
    })),
    days,
    computedAt: now.toISOString(),
    total,
    page,
    limit,
    pages: Math.ceil(total / limit),
  };
}
