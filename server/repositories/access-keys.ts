import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accessKeys } from '../db/schema.ts';

export const accessKeyRepo = {
  async live(db: Db, patientId: string, keyHash: string, now: Date) {
    const [row] = await db
      .select()
      .from(accessKeys)
      .where(and(eq(accessKeys.patientId, patientId), eq(accessKeys.keyHash, keyHash), isNull(accessKeys.revokedAt), gt(accessKeys.expiresAt, now)))
      .limit(1);
    return row;
  },
  /** A new key replaces the patient's previous ones: there is one valid key at a time. */
  async replace(db: Db, values: typeof accessKeys.$inferInsert) {
    return db.transaction(async (tx) => {
      await tx
        .update(accessKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(accessKeys.patientId, values.patientId), isNull(accessKeys.revokedAt)));
      const [row] = await tx.insert(accessKeys).values(values).returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    });
  },
};
