import { and, asc, eq, gt, gte, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { medicineIntakes, prescriptions } from '../db/schema.ts';
import type { IntakeRow } from './records.ts';

export type PrescriptionRow = typeof prescriptions.$inferSelect;
export type { IntakeRow } from './records.ts';

export const medicineRepo = {
  /** Active on `today` (the patient's local date): no end date, or the end date is today or later. */
  async active(db: Db, patientId: string, today: string, since?: Date): Promise<PrescriptionRow[]> {
    return db
      .select()
      .from(prescriptions)
      .where(
        and(
          eq(prescriptions.patientId, patientId),
          or(isNull(prescriptions.endDate), gte(prescriptions.endDate, today)),
          since ? gte(prescriptions.updatedAt, since) : undefined,
        ),
      )
      .orderBy(asc(prescriptions.name));
  },

  /** Prescriptions (active or not) whose version is above `since`, oldest change first: a page is `limit` of them. */
  async changedSince(db: Db, patientId: string, since: number, limit: number): Promise<PrescriptionRow[]> {
    return db
      .select()
      .from(prescriptions)
      .where(and(eq(prescriptions.patientId, patientId), gt(prescriptions.version, since)))
      .orderBy(asc(prescriptions.version))
      .limit(limit + 1);
  },

  /**
   * Ids of prescriptions no longer active. An end date that passes at midnight changes no row, so
   * every ended one is listed; a device removing an id it does not hold is harmless.
   */
  async endedIds(db: Db, patientId: string, today: string): Promise<string[]> {
    const rows = await db
      .select({ id: prescriptions.id })
      .from(prescriptions)
      .where(and(eq(prescriptions.patientId, patientId), lt(prescriptions.endDate, today)));
    return rows.map((r) => r.id);
  },

  /** Every prescription, ended ones too; with `since`, those changed at or after it. */
  async all(db: Db, patientId: string, since?: Date): Promise<PrescriptionRow[]> {
    return db
      .select()
      .from(prescriptions)
      .where(and(eq(prescriptions.patientId, patientId), since ? gte(prescriptions.updatedAt, since) : undefined))
      .orderBy(asc(prescriptions.name));
  },

  /** Every prescription of these patients (the scheduler decides which are active on which day). */
  async ofPatients(db: Db, patientIds: string[]): Promise<PrescriptionRow[]> {
    if (patientIds.length === 0) return [];
    return db.select().from(prescriptions).where(inArray(prescriptions.patientId, patientIds));
  },

  async byPrescrNo(db: Db, patientId: string, prescrNo: string): Promise<PrescriptionRow | undefined> {
    const [row] = await db
      .select()
      .from(prescriptions)
      .where(and(eq(prescriptions.patientId, patientId), eq(prescriptions.prescrNo, prescrNo)))
      .limit(1);
    return row;
  },

  async byId(db: Db, patientId: string, id: string): Promise<PrescriptionRow | undefined> {
    const [row] = await db
      .select()
      .from(prescriptions)
      .where(and(eq(prescriptions.patientId, patientId), eq(prescriptions.id, id)))
      .limit(1);
    return row;
  },

  async insert(db: Db, values: typeof prescriptions.$inferInsert): Promise<PrescriptionRow> {
    const [row] = await db.insert(prescriptions).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  async update(db: Db, patientId: string, id: string, values: Partial<typeof prescriptions.$inferInsert>): Promise<PrescriptionRow | undefined> {
    const [row] = await db
      .update(prescriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(prescriptions.patientId, patientId), eq(prescriptions.id, id)))
      .returning();
    return row;
  },

  /**
   * Records a dose unless its id exists (a replay: the stored row, created=false), the id is another
   * patient's ('foreign'), or its slot already holds a dose ('slot-taken'). The one-per-slot rule is
   * the partial unique index's: ON CONFLICT without a target yields to every unique index, so two
   * devices recording the same slot at once cannot both succeed, and the transaction stays usable
   * for reading the dose that won.
   */
  async insertDose(
    db: Db,
    values: typeof medicineIntakes.$inferInsert & { id: string },
  ): Promise<{ row: IntakeRow; created: boolean } | 'foreign' | 'slot-taken'> {
    const [inserted] = await db.insert(medicineIntakes).values(values).onConflictDoNothing().returning();
    if (inserted) return { row: inserted, created: true };
    const [existing] = await db.select().from(medicineIntakes).where(eq(medicineIntakes.id, values.id)).limit(1);
    if (existing) return existing.patientId === values.patientId ? { row: existing, created: false } : 'foreign';
    return 'slot-taken';
  },

  /** The dose (not an extra one) recorded for that prescription, day and slot, if any. */
  async doseInSlot(db: Db, patientId: string, prescrNo: string, day: string, slot: NonNullable<IntakeRow['slot']>): Promise<IntakeRow | undefined> {
    const [row] = await db
      .select()
      .from(medicineIntakes)
      .where(
        and(
          eq(medicineIntakes.patientId, patientId),
          eq(medicineIntakes.prescrNo, prescrNo),
          eq(medicineIntakes.day, day),
          eq(medicineIntakes.slot, slot),
          eq(medicineIntakes.extra, false),
          isNull(medicineIntakes.deletedAt),
        ),
      )
      .limit(1);
    return row;
  },
};
