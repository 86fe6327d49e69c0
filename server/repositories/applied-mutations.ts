// The (patient, mutation id) → first answer records of docs/sync-protocol.md. Only mutations.ts
// uses these, always inside the transaction of the change they name.
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appliedMutations } from '../db/schema.ts';

export interface StoredAnswer {
  status: number;
  body: Readonly<Record<string, unknown>>;
}

/** The primary key (patient, mutation id): an insert of an id already applied violates it. */
export const APPLIED_MUTATION_KEY = 'applied_mutations_patient_id_mutation_id_pk';

export const appliedMutationRepo = {
  /**
   * Takes the mutation id for this transaction: true when nobody had it. The row is written first,
   * before the change, so a concurrent request with the same id waits on the primary key until this
   * transaction ends: after a commit it finds the answer, after a rollback it takes the id itself.
   */
  async claim(db: Db, patientId: string, mutationId: string): Promise<boolean> {
    const rows = await db
      .insert(appliedMutations)
      .values({ patientId, mutationId, status: 0, response: {} })
      .onConflictDoNothing()
      .returning({ mutationId: appliedMutations.mutationId });
    return rows.length > 0;
  },

  async answerOf(db: Db, patientId: string, mutationId: string): Promise<StoredAnswer | undefined> {
    const [row] = await db
      .select({ status: appliedMutations.status, body: appliedMutations.response })
      .from(appliedMutations)
      .where(and(eq(appliedMutations.patientId, patientId), eq(appliedMutations.mutationId, mutationId)))
      .limit(1);
    return row;
  },

  async record(db: Db, patientId: string, mutationId: string, answer: StoredAnswer): Promise<void> {
    await db
      .update(appliedMutations)
      .set({ status: answer.status, response: answer.body })
      .where(and(eq(appliedMutations.patientId, patientId), eq(appliedMutations.mutationId, mutationId)));
  },

  /** Housekeeping: a device does not retry a write for months. */
  async purgeBefore(db: Db, before: Date): Promise<void> {
    await db.delete(appliedMutations).where(lt(appliedMutations.createdAt, before));
  },
};
