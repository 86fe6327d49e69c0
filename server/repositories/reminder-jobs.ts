import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { patients, pushTokens, reminderJobs, type ReminderKind, type ReminderKindAndPayload } from '../db/schema.ts';
import type { ReminderPayload } from '../reminders/plan.ts';

type StoredJob = typeof reminderJobs.$inferSelect;

/** A reminder job as read: its payload is the one its kind keeps (a check of `kind` narrows it). */
export type ReminderJobRow = Omit<StoredJob, 'kind' | 'payload'> & ReminderKindAndPayload;
/** A job of that kind (or kinds). */
export type ReminderJobOf<K extends ReminderKind> = Extract<ReminderJobRow, { kind: K }>;

/**
 * The rows, each typed by its kind. Drizzle types `kind` and `payload` as two columns, each on its
 * own; that each payload is its kind's is what the two writers keep: insertPlanned (a reminder, from
 * the planner or remind-later) and migration 0007's trigger (a severe low). A cast with nothing to
 * check at run time: one place, rather than one per reader.
 */
const keyed = (rows: StoredJob[]): ReminderJobRow[] => rows as ReminderJobRow[];

/** A reminder to plan; severe lows are queued by the database (migration 0007), never here. */
export interface NewReminderJob {
  patientId: string;
  kind: Exclude<ReminderKind, 'severeLow'>;
  dedupeKey: string;
  dueAt: Date;
  payload: ReminderPayload;
}

export const reminderJobRepo = {
  /** Patients with at least one device this server can send to: nobody else is planned at all. */
  async reachablePatients(db: Db, provider: 'webpush' | 'fcm') {
    return db
      .select({
        id: patients.id,
        hospNo: patients.hospNo,
        timeZone: patients.timeZone,
        notificationTimings: patients.notificationTimings,
        glucometerAlerts: patients.glucometerAlerts,
      })
      .from(patients)
      .where(sql`exists (select 1 from ${pushTokens} where ${pushTokens.patientId} = ${patients.id} and ${pushTokens.provider} = ${provider})`);
  },

  /** Inserts what is not planned yet; returns the rows this call created. */
  async insertPlanned(db: Db, jobs: NewReminderJob[]): Promise<ReminderJobRow[]> {
    const created: ReminderJobRow[] = [];
    // In slices: one statement's parameters are limited (65,535 in PostgreSQL).
    for (let i = 0; i < jobs.length; i += 1000) {
      const rows = await db
        .insert(reminderJobs)
        .values(jobs.slice(i, i + 1000))
        .onConflictDoNothing({ target: [reminderJobs.patientId, reminderJobs.dedupeKey] })
        .returning();
      created.push(...keyed(rows));
    }
    return created;
  },

  async byDedupeKeys(db: Db, patientId: string, keys: string[]): Promise<ReminderJobRow[]> {
    if (keys.length === 0) return [];
    return keyed(
      await db
        .select()
        .from(reminderJobs)
        .where(and(eq(reminderJobs.patientId, patientId), inArray(reminderJobs.dedupeKey, keys))),
    );
  },

  /**
   * Pending reminders whose moment has passed by more than the catch-up window are never sent: a
   * server that was down for hours must not wake every phone with a burst of stale reminders.
   */
  async expireStale(db: Db, cutoff: Date): Promise<number> {
    const rows = await db
      .update(reminderJobs)
      .set({ status: 'expired', error: 'not sent within the catch-up window' })
      .where(and(eq(reminderJobs.status, 'pending'), lte(reminderJobs.dueAt, cutoff)))
      .returning({ id: reminderJobs.id });
    return rows.length;
  },

  /**
   * A row left in 'sending' by an instance that died mid-send may or may not have reached the
   * phone. It is closed as failed rather than sent again: a duplicate reminder could lead a
   * patient to take a second dose.
   */
  async failAbandoned(db: Db, claimedBefore: Date): Promise<number> {
    const rows = await db
      .update(reminderJobs)
      .set({ status: 'failed', error: 'interrupted while sending' })
      .where(and(eq(reminderJobs.status, 'sending'), lt(reminderJobs.claimedAt, claimedBefore)))
      .returning({ id: reminderJobs.id });
    return rows.length;
  },

  /**
   * Claims up to `limit` due reminders for this instance. The row locks of FOR UPDATE SKIP LOCKED
   * make concurrent claimers (other instances, other passes) take disjoint sets, and the status
   * is re-checked on the locked row, so each reminder is claimed exactly once.
   */
  async claimDue(db: Db, from: Date, now: Date, limit: number): Promise<ReminderJobRow[]> {
    const due = db
      .select({ id: reminderJobs.id })
      .from(reminderJobs)
      .where(and(eq(reminderJobs.status, 'pending'), gt(reminderJobs.dueAt, from), lte(reminderJobs.dueAt, now)))
      .orderBy(asc(reminderJobs.dueAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return keyed(
      await db
        .update(reminderJobs)
        .set({ status: 'sending', claimedAt: now, attempts: sql`${reminderJobs.attempts} + 1` })
        .where(and(inArray(reminderJobs.id, due), eq(reminderJobs.status, 'pending')))
        .returning(),
    );
  },

  async finish(db: Db, id: string, values: { status: 'sent' | 'failed' | 'pending'; sentAt?: Date; error: string | null }): Promise<void> {
    await db
      .update(reminderJobs)
      .set(values)
      .where(and(eq(reminderJobs.id, id), eq(reminderJobs.status, 'sending')));
  },

  /** Pending reminders due in (from, to], for a dry run. */
  async pendingDue(db: Db, from: Date, to: Date): Promise<ReminderJobRow[]> {
    return keyed(
      await db
        .select()
        .from(reminderJobs)
        .where(and(eq(reminderJobs.status, 'pending'), gt(reminderJobs.dueAt, from), lte(reminderJobs.dueAt, to)))
        .orderBy(asc(reminderJobs.dueAt)),
    );
  },

  /** Housekeeping: the history of reminders is kept for a while, then dropped. */
  async purgeBefore(db: Db, before: Date): Promise<void> {
    await db.delete(reminderJobs).where(lt(reminderJobs.dueAt, before));
  },

  /** A one-off reminder (remind later); the same key again creates nothing. */
  async insertOne(db: Db, job: NewReminderJob): Promise<{ row: ReminderJobRow; created: boolean }> {
    const [created] = await reminderJobRepo.insertPlanned(db, [job]);
    if (created) return { row: created, created: true };
    const [existing] = await reminderJobRepo.byDedupeKeys(db, job.patientId, [job.dedupeKey]);
    if (!existing) throw new Error('reminder job vanished');
    return { row: existing, created: false };
  },
};
