// One scheduler pass at an instant `now`, the same whether the server's loop or `npm run reminders`
// runs it:
//   1. close rows a crashed instance left mid-send, and expire pending rows older than the
//      catch-up window (a restart after hours of downtime sends nothing stale);
//   2. plan every reminder due in the catch-up window (now − 30 min, now] for patients with a
//      device, inserting each once (unique per patient and dedupe key; every instance plans the
//      same rows and all but the first insert are no-ops);
//   3. claim due rows with FOR UPDATE SKIP LOCKED and send each to every device of its patient.
// Any number of instances may run passes at the same moment: the claim is the only place a row
// changes hands, so each reminder reaches each device once.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { pushMessage } from '../push/messages.ts';
import type { DeviceToken, PushProvider, PushSender, SendOutcome } from '../push/sender.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { pushTokenRepo } from '../repositories/push-tokens.ts';
import { reminderJobRepo, type NewReminderJob, type ReminderJobRow } from '../repositories/reminder-jobs.ts';
import { alertDaysOf } from '../services/profile-service.ts';
import { mealsDueIn, planReminders, type PlanPrescription, type ReminderPayload } from './plan.ts';

/** How late a reminder may still be sent (and how far back a pass plans). */
export const CATCH_UP_MS = 30 * 60_000;
/** A row claimed longer ago than this by an instance that never finished it was interrupted. */
const ABANDONED_MS = 10 * 60_000;
/** Sends per reminder before a reminder that reached no device is given up. */
const MAX_ATTEMPTS = 3;
const BATCH = 20;

export interface ReminderOutcome {
  jobId: string | null;
  hospNo: string;
  timeZone: string;
  kind: ReminderJobRow['kind'];
  dueAt: Date;
  payload: ReminderPayload;
  /** The patient's devices, and how many of them the push service accepted the message for. */
  devices: number;
  reached: number;
  status: 'sent' | 'failed' | 'retry' | 'due';
  error?: string;
}

export interface PassResult {
  now: Date;
  dryRun: boolean;
  /** Rows this pass created (other instances may have created the rest). */
  planned: number;
  expired: number;
  removedDevices: number;
  outcomes: ReminderOutcome[];
}

export interface SchedulerDeps {
  db: Db;
  sender: PushSender;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export async function runReminderPass(deps: SchedulerDeps, now: Date, opts: { dryRun?: boolean } = {}): Promise<PassResult> {
  const { db } = deps;
  const from = new Date(now.getTime() - CATCH_UP_MS);
  const result: PassResult = { now, dryRun: opts.dryRun === true, planned: 0, expired: 0, removedDevices: 0, outcomes: [] };
  const planned = await plan(db, deps.sender.provider, from, now);

  if (opts.dryRun) {
    result.outcomes = await dryRunOutcomes(db, deps.sender.provider, planned, from, now);
    return result;
  }

  await reminderJobRepo.failAbandoned(db, new Date(now.getTime() - ABANDONED_MS));
  result.expired = await reminderJobRepo.expireStale(db, from);
  result.planned = (await reminderJobRepo.insertPlanned(db, planned)).length;

  for (;;) {
    const claimed = await reminderJobRepo.claimDue(db, from, now, BATCH);
    if (claimed.length === 0) break;
    const outcomes = await sendBatch(deps, claimed, now, result);
    result.outcomes.push(...outcomes);
    if (claimed.length < BATCH) break;
  }
  const sent = result.outcomes.filter((o) => o.status === 'sent').length;
  if (result.outcomes.length > 0) {
    deps.log?.info({ at: now.toISOString(), sent, failed: result.outcomes.length - sent, expired: result.expired }, 'reminders sent');
  }
  return result;
}

/** The reminders due in (from, to] for every patient with a device. */
async function plan(db: Db, provider: PushProvider, from: Date, to: Date): Promise<NewReminderJob[]> {
  const people = await reminderJobRepo.reachablePatients(db, provider);
  // Meal times come first: only patients with a meal in the window need their prescriptions read.
  const due = people
    .map((p) => ({ p, patient: { timeZone: p.timeZone, notificationTimings: p.notificationTimings, glucometerAlerts: alertDaysOf(p) } }))
    .filter(({ patient }) => mealsDueIn(patient, from, to).length > 0);
  if (due.length === 0) return [];
  const rows = await medicineRepo.ofPatients(db, due.map(({ p }) => p.id));
  const byPatient = new Map<string, PlanPrescription[]>();
  for (const r of rows) byPatient.set(r.patientId, [...(byPatient.get(r.patientId) ?? []), r]);
  return due.flatMap(({ p, patient }) =>
    planReminders(patient, byPatient.get(p.id) ?? [], from, to).map((r) => ({ patientId: p.id, kind: r.kind, dedupeKey: r.dedupeKey, dueAt: r.dueAt, payload: r.payload })),
  );
}

async function patientsOf(db: Db, ids: string[]) {
  return new Map((await patientRepo.labels(db, ids)).map((r) => [r.id, r]));
}

async function devicesOf(db: Db, provider: PushProvider, ids: string[]): Promise<Map<string, DeviceToken[]>> {
  const out = new Map<string, DeviceToken[]>();
  for (const t of await pushTokenRepo.ofPatients(db, provider, ids)) out.set(t.patientId, [...(out.get(t.patientId) ?? []), t]);
  return out;
}

async function sendBatch(deps: SchedulerDeps, jobs: ReminderJobRow[], now: Date, result: PassResult): Promise<ReminderOutcome[]> {
  const ids = [...new Set(jobs.map((j) => j.patientId))];
  const [people, devices] = await Promise.all([patientsOf(deps.db, ids), devicesOf(deps.db, deps.sender.provider, ids)]);
  return Promise.all(
    jobs.map(async (job): Promise<ReminderOutcome> => {
      const payload = job.payload;
      const targets = devices.get(job.patientId) ?? [];
      const answers = await Promise.all(
        targets.map((d): Promise<SendOutcome> =>
          deps.sender.send(d, pushMessage(payload, d.locale)).catch((err: unknown) => ({ ok: false, gone: false, transient: true, error: String(err) })),
        ),
      );
      const reached = answers.filter((a) => a.ok).length;
      const errors: string[] = [];
      let transient = false;
      for (const [i, a] of answers.entries()) {
        if (a.ok) continue;
        errors.push(a.error);
        transient ||= a.transient;
        const device = targets[i];
        if (a.gone && device) {
          await pushTokenRepo.removeById(deps.db, device.id);
          result.removedDevices += 1;
        }
      }
      if (targets.length === 0) errors.push('the patient has no device to send to');
      const error = errors.length > 0 ? errors.join('; ').slice(0, 1000) : null;
      let status: ReminderOutcome['status'];
      if (reached > 0) {
        status = 'sent';
        await reminderJobRepo.finish(deps.db, job.id, { status: 'sent', sentAt: now, error });
      } else if (transient && job.attempts < MAX_ATTEMPTS) {
        // Nothing reached any device, so trying again cannot duplicate anything.
        status = 'retry';
        await reminderJobRepo.finish(deps.db, job.id, { status: 'pending', error });
      } else {
        status = 'failed';
        await reminderJobRepo.finish(deps.db, job.id, { status: 'failed', error });
      }
      if (errors.length > 0) deps.log?.warn({ jobId: job.id, status, error }, 'reminder not delivered to every device');
      const who = people.get(job.patientId);
      return {
        jobId: job.id,
        hospNo: who?.hospNo ?? '?',
        timeZone: who?.timeZone ?? 'UTC',
        kind: job.kind,
        dueAt: job.dueAt,
        payload,
        devices: targets.length,
        reached,
        status,
        ...(error ? { error } : {}),
      };
    }),
  );
}

/** What a pass at `now` would send: planned rows not sent yet, and pending ones (remind later). */
async function dryRunOutcomes(db: Db, provider: PushProvider, planned: NewReminderJob[], from: Date, now: Date): Promise<ReminderOutcome[]> {
  const candidates: { patientId: string; kind: ReminderJobRow['kind']; dedupeKey: string; dueAt: Date; payload: ReminderPayload; jobId: string | null }[] = [];
  const seen = new Set<string>();
  const byPatient = new Map<string, NewReminderJob[]>();
  for (const j of planned) byPatient.set(j.patientId, [...(byPatient.get(j.patientId) ?? []), j]);
  for (const [patientId, jobs] of byPatient) {
    const existing = new Map((await reminderJobRepo.byDedupeKeys(db, patientId, jobs.map((j) => j.dedupeKey))).map((r) => [r.dedupeKey, r]));
    for (const j of jobs) {
      const row = existing.get(j.dedupeKey);
      seen.add(`${patientId}|${j.dedupeKey}`);
      if (row && row.status !== 'pending') continue; // already sent, being sent, or given up
      candidates.push({ ...j, jobId: row?.id ?? null });
    }
  }
  for (const row of await reminderJobRepo.pendingDue(db, from, now)) {
    if (seen.has(`${row.patientId}|${row.dedupeKey}`)) continue;
    candidates.push({ patientId: row.patientId, kind: row.kind, dedupeKey: row.dedupeKey, dueAt: row.dueAt, payload: row.payload, jobId: row.id });
  }
  const ids = [...new Set(candidates.map((c) => c.patientId))];
  const [people, devices] = await Promise.all([patientsOf(db, ids), devicesOf(db, provider, ids)]);
  return candidates
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
    .map((c) => ({
      jobId: c.jobId,
      hospNo: people.get(c.patientId)?.hospNo ?? '?',
      timeZone: people.get(c.patientId)?.timeZone ?? 'UTC',
      kind: c.kind,
      dueAt: c.dueAt,
      payload: c.payload,
      devices: devices.get(c.patientId)?.length ?? 0,
      reached: 0,
      status: 'due' as const,
    }));
}
