import { and, desc, eq, getTableColumns, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { perDb } from '../db/prepared.ts';
import { patients, sessions } from '../db/schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** What a patient's request needs to know of the patient (request.subject). */
export interface SessionPatient {
  hospNo: string;
  hospitalId: string;
  timeZone: string;
}

/**
 * The live (not revoked, not expired) session with that token hash, and for a patient's session
 * what each request needs of the patient, in the same round trip (every request asks: prepared).
 */
const liveSession = perDb((db) =>
  db
    .select({
      ...getTableColumns(sessions),
      patientHospNo: patients.hospNo,
      patientHospitalId: patients.hospitalId,
      patientTimeZone: patients.timeZone,
    })
    .from(sessions)
    .leftJoin(patients, eq(patients.id, sessions.patientId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('eddy_live_session'),
);

export const sessionRepo = {
  async insert(db: Db, values: typeof sessions.$inferInsert): Promise<SessionRow> {
    const [row] = await db.insert(sessions).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  /**
   * The live (not revoked, not expired) session with that token hash, and for a patient's session
   * what each request needs of the patient, in the same round trip (every patient request asks).
   */
  async liveByHash(db: Db, tokenHash: string, now: Date): Promise<(SessionRow & { patient: SessionPatient | null }) | undefined> {
    const [row] = await liveSession(db).execute({ tokenHash, now: now.toISOString() });
    if (!row) return undefined;
    const { patientHospNo, patientHospitalId, patientTimeZone, ...session } = row;
    const patient =
      patientHospNo !== null && patientHospitalId !== null && patientTimeZone !== null
        ? { hospNo: patientHospNo, hospitalId: patientHospitalId, timeZone: patientTimeZone }
        : null;
    return { ...session, patient };
  },

  async revoke(db: Db, id: string): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  },

  async setMethod(db: Db, id: string, method: string): Promise<void> {
    await db.update(sessions).set({ method }).where(eq(sessions.id, id));
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
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(), ...(deviceId ? { deviceId } : {}) })
      .where(eq(sessions.id, id));
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
