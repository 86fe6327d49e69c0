import type { Db } from '../db/client.ts';
import { pushTokens } from '../db/schema.ts';

export const pushTokenRepo = {
  /** A token moves to whoever registered it last (a shared ward tablet changes hands). */
  async upsert(db: Db, values: { patientId: string; provider: 'webpush' | 'fcm'; token: string; deviceId: string | null }): Promise<void> {
    await db
      .insert(pushTokens)
      .values(values)
      .onConflictDoUpdate({
        target: pushTokens.token,
        set: { patientId: values.patientId, provider: values.provider, deviceId: values.deviceId, updatedAt: new Date() },
      });
  },
};
