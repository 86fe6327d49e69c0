import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hospitals, patients, sessions, syncCounters, type NotificationTimings } from '../db/schema.ts';

export type PatientRow = typeof patients.$inferSelect;
export type PatientInsert = typeof patients.$inferInsert;

/** jsonb `||` merge: the meal times given replace theirs, the others stay as they are (and keep their versions). */
const mergedTimings = (changes: Partial<NotificationTimings>) => sql`${patients.notificationTimings} || ${JSON.stringify(changes)}::jsonb`;

export const patientRepo = {
  async byHospNo(db: Db, hospNo: string): Promise<PatientRow | undefined> {
    const [row] = await db.select().from(patients).where(eq(patients.hospNo, hospNo)).limit(1);
    return row;
  },

  /** The last version handed out for this patient's records and profile (0 before any). */
  async version(db: Db, id: string): Promise<number> {
    const [row] = await db.select({ version: syncCounters.version }).from(syncCounters).where(eq(syncCounters.patientId, id));
    return Number(row?.version ?? 0);
  },

  async byId(db: Db, id: string): Promise<PatientRow | undefined> {
    const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1);
    return row;
  },

  /** Hospital number and time zone: how an operator's report names a patient. */
  async labels(db: Db, ids: string[]): Promise<{ id: string; hospNo: string; timeZone: string }[]> {
    if (ids.length === 0) return [];
    return db.select({ id: patients.id, hospNo: patients.hospNo, timeZone: patients.timeZone }).from(patients).where(inArray(patients.id, ids));
  },

  async withHospital(db: Db, id: string) {
    const [row] = await db
      .select({ patient: patients, hospitalName: hospitals.name, hospital: hospitals })
      .from(patients)
      .innerJoin(hospitals, eq(hospitals.id, patients.hospitalId))
      .where(eq(patients.id, id))
      .limit(1);
    return row;
  },

  async insert(db: Db, values: PatientInsert): Promise<PatientRow> {
    const [row] = await db.insert(patients).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  /** `mergeTimings`: meal times to change one by one, in the same statement (one new version). */
  async update(db: Db, id: string, values: Partial<PatientInsert>, mergeTimings?: Partial<NotificationTimings>): Promise<PatientRow | undefined> {
    const timings = mergeTimings && Object.keys(mergeTimings).length > 0 ? { notificationTimings: mergedTimings(mergeTimings) } : {};
    const [row] = await db
      .update(patients)
      .set({ ...values, ...timings, updatedAt: new Date() })
      .where(eq(patients.id, id))
      .returning();
    return row;
  },

  /**
   * The patient's row, locked until the transaction ends (a check of meal-time versions, then the
   * write). FOR NO KEY UPDATE, not FOR UPDATE: a concurrent insert of this patient's record holds the
   * version counter and then checks its foreign key with KEY SHARE on this row; FOR UPDATE would make
   * it wait on us while we wait on the counter (a deadlock PostgreSQL breaks with an error).
   */
  async lock(db: Db, id: string): Promise<PatientRow | undefined> {
    const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1).for('no key update');
    return row;
  },

  /**
   * Adds or removes one glucometer day in a single statement, so two devices editing at once lose
   * nothing (the two operations commute).
   */
  async changeAlertDay(db: Db, id: string, day: string, op: 'add' | 'remove'): Promise<{ glucometerAlerts: string[]; version: number } | undefined> {
    const expr =
      op === 'add'
        ? sql`case when ${patients.glucometerAlerts} ? ${day} then ${patients.glucometerAlerts} else ${patients.glucometerAlerts} || jsonb_build_array(${day}::text) end`
        : sql`${patients.glucometerAlerts} - ${day}::text`;
    const [row] = await db
      .update(patients)
      .set({ glucometerAlerts: expr, updatedAt: new Date() })
      .where(eq(patients.id, id))
      .returning({ glucometerAlerts: patients.glucometerAlerts, version: patients.version });
    return row;
  },

  /** Patients of the given hospitals whose name or hospital number contains `search`. */
  async search(db: Db, opts: { hospitalIds: string[]; search: string; page: number; limit: number }) {
    if (opts.hospitalIds.length === 0) return { rows: [], total: 0 };
    const pattern = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = and(
      inArray(patients.hospitalId, opts.hospitalIds),
      opts.search ? or(ilike(patients.name, pattern), ilike(patients.hospNo, pattern)) : undefined,
    );
    const [countRow] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(patients)
      .where(where);
    const rows = await db
      .select({
        patient: patients,
        hospitalName: hospitals.name,
        lastSeenAt: sql<Date | null>`(select max(${sessions.lastSeenAt}) from ${sessions} where ${sessions.patientId} = ${patients.id})`.mapWith(
          (v: unknown) => (v == null ? null : new Date(String(v))),
        ),
      })
      .from(patients)
      .innerJoin(hospitals, eq(hospitals.id, patients.hospitalId))
      .where(where)
      .orderBy(asc(patients.name), asc(patients.hospNo))
      .limit(opts.limit)
      .offset((opts.page - 1) * opts.limit);
    return { rows, total: countRow?.n ?? 0 };
  },
};
