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
import type { ReminderKindAndPayload } from '../db/schema.ts';
import { pushMessage, severeLowMessage, type PushMessage } from '../push/messages.ts';
import type { DeviceToken, PushProvider, PushSender, SendOutcome } from '../push/sender.ts';
import { auditRepo } from '../repositories/audit.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { pushTokenRepo } from '../repositories/push-tokens.ts';
import { reminderJobRepo, type NewReminderJob, type ReminderJobOf, type ReminderJobRow } from '../repositories/reminder-jobs.ts';
import { severeLowContext, staffAlertRepo } from '../repositories/staff-alerts.ts';
import { alertDaysOf } from '../services/profile-service.ts';
import { mealsDueIn, planReminders, type PlanPrescription, type ReminderPayload } from './plan.ts';
import { SEVERE_LOW_AUDIT_ACTION, type SevereLowPayload } from './severe-low.ts';

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
  payload: ReminderPayload | SevereLowPayload;
  /** The devices (the patient's; for a severe low, the staff's), and how many of them the push service accepted the message for. */
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
    const outcomes = await sendBatch(deps, claimed, result);
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
  const rows = await medicineRepo.ofPatients(
    db,
    due.map(({ p }) => p.id),
  );
  const byPatient = new Map<string, PlanPrescription[]>();
  for (const r of rows) byPatient.set(r.patientId, [...(byPatient.get(r.patientId) ?? []), r]);
  return due.flatMap(({ p, patient }) =>
    planReminders(patient, byPatient.get(p.id) ?? [], from, to).map((r) => ({
      patientId: p.id,
      kind: r.kind,
      dedupeKey: r.dedupeKey,
      dueAt: r.dueAt,
      payload: r.payload,
    })),
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

type Target = DeviceToken & {
  /** Forgets the device when its push service says it is gone. */
  remove(): Promise<void>;
};

/**
 * Sends one claimed job to its devices and closes its row: sent when any device took it, tried
 * again (while attempts remain) when nothing reached any device for a passing reason, else failed.
 */
async function deliver<T extends Target>(
  deps: SchedulerDeps,
  job: ReminderJobRow,
  targets: readonly T[],
  message: (locale: string | null) => PushMessage,
  result: PassResult,
  noTarget: string,
) {
  const answers = await Promise.all(
    targets.map((d): Promise<SendOutcome> =>
      deps.sender.send(d, message(d.locale)).catch((err: unknown) => ({ ok: false, gone: false, transient: true, error: String(err) })),
    ),
  );
  const reachedTargets = targets.filter((_, i) => answers[i]?.ok === true);
  const errors: string[] = [];
  let transient = false;
  for (const [i, a] of answers.entries()) {
    if (a.ok) continue;
    errors.push(a.error);
    transient ||= a.transient;
    const device = targets[i];
    if (a.gone && device) {
      await device.remove();
      result.removedDevices += 1;
    }
  }
  if (targets.length === 0) errors.push(noTarget);
  const error = errors.length > 0 ? errors.join('; ').slice(0, 1000) : null;
  let status: ReminderOutcome['status'];
  if (reachedTargets.length > 0) {
    status = 'sent';
    await reminderJobRepo.finish(deps.db, job.id, { status: 'sent', sentAt: new Date(result.now), error });
  } else if (transient && job.attempts < MAX_ATTEMPTS) {
    // Nothing reached any device, so trying again cannot duplicate anything.
    status = 'retry';
    await reminderJobRepo.finish(deps.db, job.id, { status: 'pending', error });
  } else {
    status = 'failed';
    await reminderJobRepo.finish(deps.db, job.id, { status: 'failed', error });
  }
  if (errors.length > 0) deps.log?.warn({ jobId: job.id, status, error }, 'push not delivered to every device');
  return { status, error, reachedTargets };
}

async function sendReminders(deps: SchedulerDeps, jobs: ReminderJobOf<'medicine' | 'glucometerAlert'>[], result: PassResult): Promise<ReminderOutcome[]> {
  const ids = [...new Set(jobs.map((j) => j.patientId))];
  const [people, devices] = await Promise.all([patientsOf(deps.db, ids), devicesOf(deps.db, deps.sender.provider, ids)]);
  return Promise.all(
    jobs.map(async (job): Promise<ReminderOutcome> => {
      const { payload } = job;
      const targets = (devices.get(job.patientId) ?? []).map((d) => ({ ...d, remove: () => pushTokenRepo.removeById(deps.db, d.id) }));
      const who = people.get(job.patientId);
      const { status, error, reachedTargets } = await deliver(
        deps,
        job,
        targets,
        (locale) => pushMessage(payload, locale, who?.timeZone),
        result,
        'the patient has no device to send to',
      );
      return {
        jobId: job.id,
        hospNo: who?.hospNo ?? '?',
        timeZone: who?.timeZone ?? 'UTC',
        kind: job.kind,
        dueAt: job.dueAt,
        payload,
        devices: targets.length,
        reached: reachedTargets.length,
        status,
        ...(error ? { error } : {}),
      };
    }),
  );
}

/**
 * A severe-low alert goes to the devices of the patient's hospital's staff who turned alerts on,
 * and each device reached is written to the audit log under its owner. A reading deleted, or
 * changed to no longer be low, before the alert went out is not announced.
 */
async function sendSevereLow(deps: SchedulerDeps, job: ReminderJobOf<'severeLow'>, result: PassResult): Promise<ReminderOutcome> {
  const { payload } = job;
  const about = await severeLowContext(deps.db, job.patientId, payload.readingId);
  const base = {
    jobId: job.id,
    hospNo: about?.hospNo ?? '?',
    timeZone: about?.timeZone ?? 'UTC',
    kind: job.kind,
    dueAt: job.dueAt,
    payload,
    devices: 0,
    reached: 0,
  };
  if (!about || about.valueMgDl === null || about.deletedAt !== null || about.valueMgDl >= about.level) {
    const error = 'the reading was deleted or changed before the alert went out';
    await reminderJobRepo.finish(deps.db, job.id, { status: 'failed', error });
    return { ...base, status: 'failed', error };
  }
  const recipients = await staffAlertRepo.recipients(deps.db, deps.sender.provider, about.hospitalId, result.now);
  const targets = recipients.map((r) => ({ ...r, remove: () => staffAlertRepo.removeById(deps.db, r.id) }));
  const alert = { payload, name: about.name, hospNo: about.hospNo, timeZone: about.timeZone, severeLowMgDl: about.level, sentAt: result.now };
  const { status, error, reachedTargets } = await deliver(
    deps,
    job,
    targets,
    (locale) => severeLowMessage(alert, locale),
    result,
    'no staff device of the hospital has alerts on',
  );
  if (reachedTargets.length > 0) {
    await auditRepo.insert(
      deps.db,
      reachedTargets.map((r) => ({
        actorKind: r.actorKind,
        actorId: r.actorId,
        actorLabel: r.actorLabel,
        patientId: job.patientId,
        hospNo: about.hospNo,
        action: SEVERE_LOW_AUDIT_ACTION,
        ip: null,
        userAgent: null,
      })),
    );
  }
  return { ...base, devices: targets.length, reached: reachedTargets.length, status, ...(error ? { error } : {}) };
}

async function sendBatch(deps: SchedulerDeps, jobs: ReminderJobRow[], result: PassResult): Promise<ReminderOutcome[]> {
  const lows = jobs.filter((j) => j.kind === 'severeLow');
  const [reminders, alerts] = await Promise.all([
    sendReminders(
      deps,
      jobs.filter((j) => j.kind !== 'severeLow'),
      result,
    ),
    Promise.all(lows.map((j) => sendSevereLow(deps, j, result))),
  ]);
  return [...alerts, ...reminders];
}

/** What a pass at `now` would send: planned rows not sent yet, and pending ones (remind later). */
async function dryRunOutcomes(db: Db, provider: PushProvider, planned: NewReminderJob[], from: Date, now: Date): Promise<ReminderOutcome[]> {
  const candidates: ({ patientId: string; dedupeKey: string; dueAt: Date; jobId: string | null } & ReminderKindAndPayload)[] = [];
  const seen = new Set<string>();
  const byPatient = new Map<string, NewReminderJob[]>();
  for (const j of planned) byPatient.set(j.patientId, [...(byPatient.get(j.patientId) ?? []), j]);
  for (const [patientId, jobs] of byPatient) {
    const existing = new Map(
      (
        await reminderJobRepo.byDedupeKeys(
          db,
          patientId,
          jobs.map((j) => j.dedupeKey),
        )
      ).map((r) => [r.dedupeKey, r]),
    );
    for (const j of jobs) {
      const row = existing.get(j.dedupeKey);
      seen.add(`${patientId}|${j.dedupeKey}`);
      if (row && row.status !== 'pending') continue; // already sent, being sent, or given up
      candidates.push({ ...j, jobId: row?.id ?? null });
    }
  }
  for (const row of await reminderJobRepo.pendingDue(db, from, now)) {
    if (seen.has(`${row.patientId}|${row.dedupeKey}`)) continue;
    candidates.push({ ...row, jobId: row.id });
  }
  const ids = [...new Set(candidates.map((c) => c.patientId))];
  const [people, devices] = await Promise.all([patientsOf(db, ids), devicesOf(db, provider, ids)]);
  // A severe low goes to the hospital's staff devices, not the patient's.
  const staffDevices = new Map<string, number>();
  for (const c of candidates) {
    if (c.kind !== 'severeLow' || staffDevices.has(c.patientId)) continue;
    const about = await severeLowContext(db, c.patientId, c.payload.readingId);
    staffDevices.set(c.patientId, about ? (await staffAlertRepo.recipients(db, provider, about.hospitalId, now)).length : 0);
  }
  return candidates
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
    .map((c) => ({
      jobId: c.jobId,
      hospNo: people.get(c.patientId)?.hospNo ?? '?',
      timeZone: people.get(c.patientId)?.timeZone ?? 'UTC',
      kind: c.kind,
      dueAt: c.dueAt,
      payload: c.payload,
      devices: c.kind === 'severeLow' ? (staffDevices.get(c.patientId) ?? 0) : (devices.get(c.patientId)?.length ?? 0),
      reached: 0,
      status: 'due' as const,
    }));
}
