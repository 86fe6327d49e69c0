import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { otps } from '../db/schema.ts';

export type OtpRow = typeof otps.$inferSelect;

export const otpRepo = {
  /** Holds the hospital number's sends until the transaction ends, so two parallel sends cannot both pass the throttle. */
  async lockSends(tx: Db, hospNo: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${hospNo}`}))`);
  },

  /** Removes the codes that expired before `before`. */
  async purgeExpiredBefore(db: Db, before: Date): Promise<void> {
    await db.delete(otps).where(lt(otps.expiresAt, before));
  },

  async latest(db: Db, hospNo: string): Promise<OtpRow | undefined> {
    const [row] = await db.select().from(otps).where(eq(otps.hospNo, hospNo)).orderBy(desc(otps.createdAt)).limit(1);
    return row;
  },

  async insert(db: Db, values: typeof otps.$inferInsert): Promise<OtpRow> {
    const [row] = await db.insert(otps).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  /** Counts a wrong try atomically, so parallel guesses cannot exceed the limit. */
  async recordFailure(db: Db, id: string): Promise<void> {
    await db
      .update(otps)
      .set({ attempts: sql`${otps.attempts} + 1` })
      .where(eq(otps.id, id));
  },

  /** Marks the code used; false when another request used it first (single use under races). */
  async consume(db: Db, id: string, maxAttempts: number): Promise<boolean> {
    const rows = await db
      .update(otps)
      .set({ usedAt: new Date() })
      .where(and(eq(otps.id, id), isNull(otps.usedAt), lt(otps.attempts, maxAttempts), gt(otps.expiresAt, new Date())))
      .returning({ id: otps.id });
    return rows.length === 1;
  },
};
