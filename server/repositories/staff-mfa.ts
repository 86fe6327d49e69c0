// An admin's second factor (issue 48): the TOTP secret and its last accepted time step on the
// admin's row, the recovery codes in their own table (hashes only), and the admin sessions a
// second factor newly required must end.
import { and, count, eq, gt, inArray, isNull, lt, ne, notInArray, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminHospitals, adminRecoveryCodes, admins, sessions } from '../db/schema.ts';

/**
 * The session methods that had a second factor: the others end when one becomes required. A sign-in
 * through the hospital's identity provider ('oidc') had the provider's own policy for it.
 */
export const SECOND_FACTOR_METHODS = ['password+totp', 'password+recovery-code', 'oidc'] as const;

export const staffMfaRepo = {
  /** A new secret for a setup: it signs nobody in until confirmed. */
  async startSetup(db: Db, adminId: string, secret: string): Promise<void> {
    await db
      .update(admins)
      .set({ totpSecret: secret, totpEnabledAt: null, totpLastStep: null })
      .where(and(eq(admins.id, adminId), isNull(admins.totpEnabledAt)));
  },

  /**
   * Takes a code's time step as used: false when that step or a later one was used already (a code
   * is good once, also against two logins racing with the same code).
   */
  async useStep(db: Db, adminId: string, step: number): Promise<boolean> {
    const rows = await db
      .update(admins)
      .set({ totpLastStep: step })
      .where(and(eq(admins.id, adminId), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step))))
      .returning({ id: admins.id });
    return rows.length === 1;
  },

  /** The setup confirmed: the secret signs in from now on, with these recovery codes (their hashes) in place of any before. */
  async enable(db: Db, adminId: string, now: Date, recoveryCodeHashes: string[]): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ totpEnabledAt: now }).where(eq(admins.id, adminId));
      await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
      await tx.insert(adminRecoveryCodes).values(recoveryCodeHashes.map((codeHash) => ({ adminId, codeHash })));
    });
  },

  /** Uses a recovery code once: the number left, or undefined when it is none of the admin's unused codes. */
  async useRecoveryCode(db: Db, adminId: string, codeHash: string, now: Date): Promise<number | undefined> {
    const used = await db
      .update(adminRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(adminRecoveryCodes.adminId, adminId), eq(adminRecoveryCodes.codeHash, codeHash), isNull(adminRecoveryCodes.usedAt)))
      .returning({ id: adminRecoveryCodes.id });
    if (used.length === 0) return undefined;
    const [left] = await db
      .select({ n: count() })
      .from(adminRecoveryCodes)
      .where(and(eq(adminRecoveryCodes.adminId, adminId), isNull(adminRecoveryCodes.usedAt)));
    return left?.n ?? 0;
  },

  /** Turns the second factor off (the operator's `reset-mfa`): the next login sets it up again where it is required. */
  async reset(db: Db, adminId: string): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.update(admins).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(admins.id, adminId));
      await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
    });
  },

  /** Ends the admin's live sessions other than `exceptId` (a second factor newly set up). */
  async endOtherSessions(db: Db, adminId: string, exceptId: string | undefined): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.adminId, adminId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined));
  },

  /**
   * A hospital now requires a second factor: the live sessions of its admins opened without one
   * end, but the caller's own (`exceptId`), who is told their next login sets it up.
   */
  /** The admin's sessions opened without a second factor end: a hospital that asks for one was granted to them. */
  async endAdminSessionsWithoutSecondFactor(db: Db, adminId: string, now: Date): Promise<number> {
    const ended = await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(eq(sessions.adminId, adminId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), notInArray(sessions.method, [...SECOND_FACTOR_METHODS])),
      )
      .returning({ id: sessions.id });
    return ended.length;
  },

  async endSessionsWithoutSecondFactor(db: Db, hospitalId: string, exceptId: string, now: Date): Promise<void> {
    const adminIds = db.select({ id: adminHospitals.adminId }).from(adminHospitals).where(eq(adminHospitals.hospitalId, hospitalId));
    await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          inArray(sessions.adminId, adminIds),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          ne(sessions.id, exceptId),
          notInArray(sessions.method, [...SECOND_FACTOR_METHODS]),
        ),
      );
  },
};
