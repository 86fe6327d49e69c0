// When the change each record (or meal time) holds was made (server/services/record-made.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { recordMade } from '../db/schema.ts';

export const recordMadeRepo = {
  /**
   * Notes that `record` now holds a change made at `madeAt` (the server's clock when absent or
   * later), kept as the later of that and the one noted before. With `onlyIfLater`, nothing is
   * noted when the one noted before was made later: false then. The row stays locked to the
   * transaction, so two changes of one record are noted one after the other.
   */
  async note(db: Db, patientId: string, record: string, madeAt: Date | undefined, onlyIfLater: boolean): Promise<boolean> {
    const made = madeAt ? sql`least(${madeAt.toISOString()}::timestamptz, now())` : sql`now()`;
    const rows = await db
      .insert(recordMade)
      .values({ patientId, record, madeAt: made })
      .onConflictDoUpdate({
        target: [recordMade.patientId, recordMade.record],
        set: { madeAt: sql`greatest(${recordMade.madeAt}, excluded.made_at)` },
        ...(onlyIfLater ? { setWhere: sql`${recordMade.madeAt} <= excluded.made_at` } : {}),
      })
      .returning({ record: recordMade.record });
    return rows.length > 0;
  },
};
