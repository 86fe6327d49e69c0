import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';

export const rateLimitRepo = {
  /**
   * Counts one hit in the key's fixed window, in one statement so concurrent instances agree:
   * a window that has ended restarts at 1.
   */
  async hit(db: Db, key: string, windowMs: number): Promise<{ count: number; resetAt: Date }> {
    const now = new Date();
    const resetAt = new Date(now.getTime() + windowMs);
    const [row] = await db
      .insert(rateLimits)
      .values({ key, count: 1, resetAt })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
          resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
        },
      })
      .returning();
    if (!row) throw new Error('rate limit upsert returned no row');
    return { count: row.count, resetAt: row.resetAt };
  },
  async purgeExpired(db: Db): Promise<void> {
    await db.delete(rateLimits).where(sql`${rateLimits.resetAt} < now() - interval '1 hour'`);
  },
};
