// Sign-ins through a hospital's identity provider under way (issue 48), and who each of a provider's
// people is here (staff_identities). Each step takes its row once: a state answers one callback, a
// handoff code opens one session.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oidcLogins, staffIdentities } from '../db/schema.ts';

export type OidcLoginRow = typeof oidcLogins.$inferSelect;
export type OidcOutcome = NonNullable<OidcLoginRow['outcome']>;

export const oidcLoginRepo = {
  /** A new sign-in; the expired ones of any provider go at the same time. */
  async start(db: Db, values: typeof oidcLogins.$inferInsert, now: Date): Promise<void> {
    await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, now));
    await db.insert(oidcLogins).values(values);
  },

  /** Takes the live sign-in of this state, once: a second callback with it finds nothing. */
  async takeByState(db: Db, stateHash: string, now: Date): Promise<OidcLoginRow | undefined> {
    const [row] = await db
      .update(oidcLogins)
      .set({ stateHash: `used:${stateHash}` })
      .where(and(eq(oidcLogins.stateHash, stateHash), gt(oidcLogins.expiresAt, now)))
      .returning();
    return row;
  },

  /** Who signed in, waiting for the page to redeem the handoff code until `expiresAt`. */
  async settle(db: Db, id: string, handoffHash: string, outcome: OidcOutcome, expiresAt: Date): Promise<void> {
    await db.update(oidcLogins).set({ handoffHash, outcome, expiresAt }).where(eq(oidcLogins.id, id));
  },

  /** A sign-in that ended without anyone signed in. */
  async drop(db: Db, id: string): Promise<void> {
    await db.delete(oidcLogins).where(eq(oidcLogins.id, id));
  },

  /** Takes the sign-in of this handoff code, once. */
  async redeem(db: Db, handoffHash: string, now: Date): Promise<OidcLoginRow | undefined> {
    const [row] = await db
      .delete(oidcLogins)
      .where(and(eq(oidcLogins.handoffHash, handoffHash), gt(oidcLogins.expiresAt, now)))
      .returning();
    return row;
  },

  async adminOfSubject(db: Db, providerId: string, subject: string): Promise<string | undefined> {
    const [row] = await db
      .select({ adminId: staffIdentities.adminId })
      .from(staffIdentities)
      .where(and(eq(staffIdentities.providerId, providerId), eq(staffIdentities.subject, subject)))
      .limit(1);
    return row?.adminId;
  },

  async link(db: Db, providerId: string, subject: string, adminId: string): Promise<void> {
    await db.insert(staffIdentities).values({ providerId, subject, adminId }).onConflictDoNothing();
  },
};
