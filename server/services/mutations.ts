// Every patient write runs here: in one transaction, and at most once per mutation id
// (docs/sync-protocol.md, "Writes are named mutations with ids").
import type { AppContext } from '../context.ts';
import { isDeadlock, isUniqueViolation } from '../lib/db-errors.ts';
import { APPLIED_MUTATION_KEY, appliedMutationRepo } from '../repositories/applied-mutations.ts';

/** What a write answers: its status and JSON body. */
export interface WriteAnswer {
  status: number;
  body: Readonly<Record<string, unknown>>;
}

export interface MutationAnswer extends WriteAnswer {
  /** True when this is the stored answer of an earlier request with the same mutation id. */
  repeat: boolean;
}

export const ok = (body: Readonly<Record<string, unknown>>): WriteAnswer => ({ status: 200, body });
export const okOrCreated = (r: { created: boolean; body: Readonly<Record<string, unknown>> }): WriteAnswer => ({ status: r.created ? 201 : 200, body: r.body });

/**
 * Whether a write's one-statement add failed only because another copy of the same write got there
 * first: its mutation id is already applied (the statement rolled back whole), or the two deadlocked.
 * The write then goes the general way, which answers it as the copy was answered.
 */
export function lostToAnotherCopy(err: unknown): boolean {
  return isUniqueViolation(err, APPLIED_MUTATION_KEY) || isDeadlock(err);
}

/** How long an applied mutation id is remembered. */
export const APPLIED_MUTATION_TTL_MS = 90 * 24 * 3600_000;

/**
 * Runs `change` in one transaction, handing it a context whose `db` is that transaction (it must
 * use nothing else: on PGlite a query outside the open transaction would wait for it forever).
 *
 * With a mutation id, the id is claimed first. If it was already applied, the first answer comes
 * back and nothing changes. Otherwise the change runs and its answer is stored in the same
 * transaction, so either both the change and its record commit or neither does. A change that
 * throws (a refusal: 4xx, or a failure) rolls everything back and records nothing, so asking again
 * is answered by the rules as they stand then.
 */
export async function runMutation(
  ctx: AppContext,
  patientId: string,
  mutationId: string | undefined,
  change: (tx: AppContext) => Promise<WriteAnswer>,
): Promise<MutationAnswer> {
  return ctx.db.transaction(async (tx) => {
    if (mutationId !== undefined && !(await appliedMutationRepo.claim(tx, patientId, mutationId))) {
      const first = await appliedMutationRepo.answerOf(tx, patientId, mutationId);
      // The claim saw a committed row, and rows are only deleted after 90 days.
      if (!first) throw new Error(`applied mutation ${mutationId} vanished`);
      return { status: first.status, body: first.body, repeat: true };
    }
    const answer = await change({ ...ctx, db: tx });
    if (mutationId !== undefined) await appliedMutationRepo.record(tx, patientId, mutationId, answer);
    return { ...answer, repeat: false };
  });
}
