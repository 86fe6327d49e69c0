// History marks and the check of acknowledged mutation ids (server/services/history-marks.ts).
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appliedMutations, historyMarks } from '../db/schema.ts';

export const historyMarkRepo = {
  /** When the patient's mark was given; undefined when this database does not hold it. */
  async givenAt(db: Db, patientId: string, id: string): Promise<Date | undefined> {
    const [row] = await db
      .select({ createdAt: historyMarks.createdAt })
      .from(historyMarks)
      .where(and(eq(historyMarks.id, id), eq(historyMarks.patientId, patientId)))
      .limit(1);
    return row?.createdAt;
  },

  /** How many of these mutation ids (distinct) the database holds as applied for the patient. */
  async appliedCount(db: Db, patientId: string, mutationIds: readonly string[]): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(appliedMutations)
      .where(and(eq(appliedMutations.patientId, patientId), inArray(appliedMutations.mutationId, [...mutationIds])));
    return row?.n ?? 0;
  },

  async insert(db: Db, patientId: string, id: string): Promise<void> {
    await db.insert(historyMarks).values({ id, patientId });
  },

  async purgeBefore(db: Db, before: Date): Promise<void> {
    await db.delete(historyMarks).where(lt(historyMarks.createdAt, before));
  },
};
