// When the change each record (or meal time) holds was made (server/services/record-made.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { recordMade } from '../db/schema.ts';

/** The row's device, locked to the transaction; undefined when no change of `record` is noted. */
async function heldDevice(db: Db, patientId: string, record: string): Promise<{ device: string | null } | undefined> {
  const [held] = await db
    .select({ device: recordMade.device })
    .from(recordMade)
    .where(and(eq(recordMade.patientId, patientId), eq(recordMade.record, record)))
    .for('update');
  return held;
}

export const recordMadeRepo = {
  /**
   * Notes that `record` now holds a change made at `madeAt` (the server's clock when absent or
   * later) by `device` (null: staff, or a write without a mutation id), kept as the later of that
   * and the one noted before. With `onlyIfLater`, nothing is noted when the one noted before was
   * made later by another: `noted` false then. A change of the device whose change the record holds
   * is always later than that one, whatever its clock said: a device sends its changes in the order
   * it made them (its outbox in order; a heal sends what was acknowledged ahead of what waits), and
   * a device clock set back between two of them stamped the later one earlier. `before` is the
   * device of the change noted before (undefined: none was). The row stays locked to the
   * transaction, so two changes of one record are noted one after the other.
   */
  async note(
    db: Db,
    patientId: string,
    record: string,
    madeAt: Date | undefined,
    onlyIfLater: boolean,
    device: string | null = null,
  ): Promise<{ noted: boolean; before: { device: string | null } | undefined }> {
    const held = await heldDevice(db, patientId, record);
    const made = madeAt ? sql`least(${madeAt.toISOString()}::timestamptz, now())` : sql`now()`;
    const rows = await db
      .insert(recordMade)
      .values({ patientId, record, madeAt: made, device })
      .onConflictDoUpdate({
        target: [recordMade.patientId, recordMade.record],
        set: { madeAt: sql`greatest(${recordMade.madeAt}, excluded.made_at)`, device: sql`excluded.device` },
        ...(onlyIfLater ? { setWhere: sql`${recordMade.madeAt} <= excluded.made_at or ${recordMade.device} = excluded.device` } : {}),
      })
      .returning({ record: recordMade.record });
    return { noted: rows.length > 0, before: held ? { device: held.device } : undefined };
  },

  /** The device whose change `record` holds (null: staff's, or unknown); undefined when none is noted. */
  async deviceOf(db: Db, patientId: string, record: string): Promise<string | null | undefined> {
    return (await heldDevice(db, patientId, record))?.device;
  },
};
