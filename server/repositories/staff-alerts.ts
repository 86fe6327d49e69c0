import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminHospitals, admins, doctorTokens, glucoseReadings, hospitals, patients, staffPushSubscriptions } from '../db/schema.ts';
import type { PushProvider } from '../push/sender.ts';

/** Whose device it is: an admin (their session's account) or a doctor token. */
export type StaffOwner = { adminId: string } | { doctorTokenId: string };

/** A staff device the scheduler sends an alert to, with who owns it (for the audit log). */
export interface AlertRecipient {
  id: string;
  provider: PushProvider;
  token: string;
  locale: string | null;
  actorKind: 'admin' | 'doctor';
  actorId: string;
  actorLabel: string;
}

const ownedBy = (owner: StaffOwner) =>
  'adminId' in owner ? eq(staffPushSubscriptions.adminId, owner.adminId) : eq(staffPushSubscriptions.doctorTokenId, owner.doctorTokenId);

export const staffAlertRepo = {
  /** A token moves to whoever turned alerts on with it last (a ward's shared tablet changes hands). */
  async upsert(db: Db, owner: StaffOwner, values: { provider: PushProvider; token: string; locale: string | null }): Promise<void> {
    const who = { adminId: 'adminId' in owner ? owner.adminId : null, doctorTokenId: 'doctorTokenId' in owner ? owner.doctorTokenId : null };
    await db
      .insert(staffPushSubscriptions)
      .values({ ...who, ...values })
      .onConflictDoUpdate({
        target: staffPushSubscriptions.token,
        set: { ...who, provider: values.provider, locale: sql`coalesce(excluded.locale, ${staffPushSubscriptions.locale})`, updatedAt: new Date() },
      });
  },

  /** Only the owner's own: nobody turns off someone else's alerts. */
  async removeOwn(db: Db, owner: StaffOwner, tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    const rows = await db
      .delete(staffPushSubscriptions)
      .where(and(ownedBy(owner), inArray(staffPushSubscriptions.token, tokens)))
      .returning({ id: staffPushSubscriptions.id });
    return rows.length;
  },

  async ownTokens(db: Db, owner: StaffOwner): Promise<{ token: string }[]> {
    return db.select({ token: staffPushSubscriptions.token }).from(staffPushSubscriptions).where(ownedBy(owner));
  },

  /**
   * The devices that hear about a patient of `hospitalId`: admins who may see that hospital, and
   * doctor tokens that name it and are neither revoked nor expired at `now`.
   */
  async recipients(db: Db, provider: PushProvider, hospitalId: string, now: Date): Promise<AlertRecipient[]> {
    const s = staffPushSubscriptions;
    const rows = await db
      .select({
        id: s.id,
        provider: s.provider,
        token: s.token,
        locale: s.locale,
        adminId: s.adminId,
        adminEmail: admins.email,
        doctorTokenId: s.doctorTokenId,
        doctorName: doctorTokens.doctorName,
      })
      .from(s)
      .leftJoin(admins, eq(admins.id, s.adminId))
      .leftJoin(doctorTokens, eq(doctorTokens.id, s.doctorTokenId))
      .where(
        and(
          eq(s.provider, provider),
          or(
            sql`exists (select 1 from ${adminHospitals} where ${adminHospitals.adminId} = ${s.adminId} and ${adminHospitals.hospitalId} = ${hospitalId})`,
            and(isNull(doctorTokens.revokedAt), gt(doctorTokens.expiresAt, now), sql`${doctorTokens.hospitalIds} @> ${JSON.stringify([hospitalId])}::jsonb`),
          ),
        ),
      );
    return rows.map((r) => ({
      id: r.id,
      provider: r.provider,
      token: r.token,
      locale: r.locale,
      ...(r.adminId !== null
        ? { actorKind: 'admin' as const, actorId: r.adminId, actorLabel: r.adminEmail ?? '?' }
        : { actorKind: 'doctor' as const, actorId: r.doctorTokenId ?? '?', actorLabel: r.doctorName ?? '?' }),
    }));
  },

  async removeById(db: Db, id: string): Promise<void> {
    await db.delete(staffPushSubscriptions).where(eq(staffPushSubscriptions.id, id));
  },
};

/** What the alert about one reading says, read when it is sent (the reading may have changed since). */
export async function severeLowContext(db: Db, patientId: string, readingId: string) {
  const [row] = await db
    .select({
      name: patients.name,
      hospNo: patients.hospNo,
      hospitalId: hospitals.id,
      timeZone: hospitals.timeZone,
      level: hospitals.severeLowMgDl,
      valueMgDl: glucoseReadings.valueMgDl,
      deletedAt: glucoseReadings.deletedAt,
    })
    .from(patients)
    .innerJoin(hospitals, eq(hospitals.id, patients.hospitalId))
    .leftJoin(glucoseReadings, and(eq(glucoseReadings.id, readingId), eq(glucoseReadings.patientId, patients.id)))
    .where(eq(patients.id, patientId));
  return row;
}
