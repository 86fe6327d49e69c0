import { and, asc, desc, eq, gte, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { medicineIntakes, prescriptions } from '../db/schema.ts';

export type PrescriptionRow = typeof prescriptions.$inferSelect;
export type IntakeRow = typeof medicineIntakes.$inferSelect;

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

  async all(db: Db, patientId: string): Promise<PrescriptionRow[]> {
    return db.select().from(prescriptions).where(eq(prescriptions.patientId, patientId)).orderBy(asc(prescriptions.name));
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

  async insertIntake(db: Db, values: typeof medicineIntakes.$inferInsert & { id: string }): Promise<{ row: IntakeRow; created: boolean } | 'foreign'> {
    const [inserted] = await db.insert(medicineIntakes).values(values).onConflictDoNothing({ target: medicineIntakes.id }).returning();
    if (inserted) return { row: inserted, created: true };
    const [existing] = await db.select().from(medicineIntakes).where(eq(medicineIntakes.id, values.id)).limit(1);
    if (!existing || existing.patientId !== values.patientId) return 'foreign';
    return { row: existing, created: false };
  },

  async intakes(db: Db, patientId: string, since?: Date): Promise<IntakeRow[]> {
    return db
      .select()
      .from(medicineIntakes)
      .where(and(eq(medicineIntakes.patientId, patientId), since ? gte(medicineIntakes.updatedAt, since) : undefined))
      .orderBy(desc(medicineIntakes.takenAt));
  },
};
