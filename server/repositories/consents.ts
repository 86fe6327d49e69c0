import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { consentRecords } from '../db/schema.ts';

export type ConsentRow = typeof consentRecords.$inferSelect;

export const consentRepo = {
  async insert(db: Db, values: typeof consentRecords.$inferInsert): Promise<ConsentRow> {
    const [row] = await db.insert(consentRecords).values(values).returning();
    if (!row) throw new Error('consent record was not stored');
    return row;
  },
  /** The newest record of this kind on this domain, from one device (a record id, its subject id, or its address hash). */
  async latest(
    db: Db,
    where: { type: string; domain: string } & ({ id: string } | { subjectId: string } | { addressHash: string }),
  ): Promise<ConsentRow | undefined> {
    const [row] = await db
      .select()
      .from(consentRecords)
      .where(
        and(
          eq(consentRecords.type, where.type),
          eq(consentRecords.domain, where.domain),
          'id' in where
            ? eq(consentRecords.id, where.id)
            : 'subjectId' in where
              ? eq(consentRecords.subjectId, where.subjectId)
              : eq(consentRecords.addressHash, where.addressHash),
        ),
      )
      .orderBy(desc(consentRecords.givenAt))
      .limit(1);
    return row;
  },
};
