import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pushTokens } from '../db/schema.ts';

export type PushTokenRow = typeof pushTokens.$inferSelect;

export const pushTokenRepo = {
  /** A token moves to whoever registered it last (a shared ward tablet changes hands). */
  async upsert(
    db: Db,
    values: { patientId: string; provider: 'webpush' | 'fcm'; token: string; deviceId: string | null; locale: string | null },
  ): Promise<void> {
    await db
      .insert(pushTokens)
      .values(values)
      .onConflictDoUpdate({
        target: pushTokens.token,
        // A device that did not say its language this time keeps the one it said before.
        set: {
          patientId: values.patientId,
          provider: values.provider,
          deviceId: values.deviceId,
          locale: sql`coalesce(excluded.locale, ${pushTokens.locale})`,
          updatedAt: new Date(),
        },
      });
  },

  /** The devices of these patients that `provider` can reach (tokens of the other kind are kept, unused). */
  async ofPatients(db: Db, provider: 'webpush' | 'fcm', patientIds: string[]): Promise<PushTokenRow[]> {
    if (patientIds.length === 0) return [];
    return db
      .select()
      .from(pushTokens)
      .where(and(eq(pushTokens.provider, provider), inArray(pushTokens.patientId, patientIds)));
  },

  /** Only the patient's own: a patient can never unsubscribe someone else's device. */
  async removeOwn(db: Db, patientId: string, tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    const rows = await db
      .delete(pushTokens)
      .where(and(eq(pushTokens.patientId, patientId), inArray(pushTokens.token, tokens)))
      .returning({ id: pushTokens.id });
    return rows.length;
  },

  async ownWebPushTokens(db: Db, patientId: string): Promise<PushTokenRow[]> {
    return db
      .select()
      .from(pushTokens)
      .where(and(eq(pushTokens.patientId, patientId), eq(pushTokens.provider, 'webpush')));
  },

  async removeById(db: Db, id: string): Promise<void> {
    await db.delete(pushTokens).where(eq(pushTokens.id, id));
  },
};
