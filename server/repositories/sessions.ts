import { and, desc, eq, gt, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

export const sessionRepo = {
  async insert(db: Db, values: typeof sessions.$inferInsert): Promise<SessionRow> {
    const [row] = await db.insert(sessions).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  /** The live (not revoked, not expired) session with that token hash. */
  async liveByHash(db: Db, tokenHash: string, now: Date): Promise<SessionRow | undefined> {
    const [row] = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1);
    return row;
  },

  async revoke(db: Db, id: string): Promise<void> {
    await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  },

  async revokeAllOfPatient(db: Db, patientId: string, exceptId?: string): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.patientId, patientId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined));
  },

  /** Moves the end of a live session later (never earlier, even if two requests renew at once). */
  async extend(db: Db, id: string, expiresAt: Date): Promise<void> {
    await db
      .update(sessions)
      .set({ expiresAt })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), lt(sessions.expiresAt, expiresAt)));
  },

  async touch(db: Db, id: string, deviceId: string | undefined): Promise<void> {
    await db.update(sessions).set({ lastSeenAt: new Date(), ...(deviceId ? { deviceId } : {}) }).where(eq(sessions.id, id));
  },

  async lastSeenOfPatient(db: Db, patientId: string): Promise<{ lastSeenAt: Date; deviceId: string | null } | undefined> {
    const [row] = await db
      .select({ lastSeenAt: sessions.lastSeenAt, deviceId: sessions.deviceId })
      .from(sessions)
      .where(eq(sessions.patientId, patientId))
      .orderBy(desc(sessions.lastSeenAt))
      .limit(1);
    return row;
  },

  /** Housekeeping: sessions that ended more than a week ago are of no further use. */
  async purgeEnded(db: Db, before: Date): Promise<void> {
    await db.delete(sessions).where(or(lt(sessions.expiresAt, before), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before))));
  },
};
