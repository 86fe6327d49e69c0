// The one way a patient write route answers: the change runs through runMutation (one transaction,
// at most once per mutation id) and a repeated mutation id is marked with X-Mutation-Repeat.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { retryOnDeadlock } from '../lib/db-errors.ts';
import { lostToAnotherCopy, runMutation, type WriteAnswer } from '../services/mutations.ts';
import { requireSubject, type Subject } from './guards.ts';

export const MUTATION_REPEAT_HEADER = 'X-Mutation-Repeat';

export async function answerWrite(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  change: (tx: AppContext, subject: Subject) => Promise<WriteAnswer>,
): Promise<FastifyReply> {
  const subject = requireSubject(req);
  const run = () => runMutation(ctx, subject.patientId, mutationIdOf(req.body), (tx) => change(tx, subject));
  // A deadlock (two copies of the same write taking their locks in opposite orders: see answerAdd)
  // rolled the whole transaction back, so running it again is safe, and then finds its peer's answer.
  const answer = await retryOnDeadlock(run);
  if (answer.status < 400) ctx.metrics.write(req.routeOptions.url ?? req.url, answer.repeat === true);
  if (answer.repeat) {
    // The first answer given to this mutation id, as it was: maybe of another route, whose shape
    // this route's serializer does not know (schemas/api.ts, REPEATABLE_ANSWERS).
    void reply.header(MUTATION_REPEAT_HEADER, '1');
    return reply.status(answer.status).type('application/json; charset=utf-8').send(JSON.stringify(answer.body));
  }
  return reply.status(answer.status).send(answer.body);
}

/**
 * answerWrite for an add, which first tries `add`: a new record with a mutation id in one statement
 * (repositories/synced-records.ts, insertAnswered), the common case of a device's replay, in one
 * round trip instead of a transaction's five. Whatever it cannot settle goes the general way, which
 * gives the same answers: a record id that exists (a replay, or another patient's), a mutation id
 * already applied (its statement then rolled back whole), a deadlock with a concurrent copy of the
 * same write. An add without a mutation id goes the general way too.
 */
export async function answerAdd(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  add: (subject: Subject, mutationId: string) => Promise<string | undefined>,
  change: (tx: AppContext, subject: Subject) => Promise<WriteAnswer>,
): Promise<FastifyReply> {
  const mutationId = mutationIdOf(req.body);
  if (mutationId !== undefined) {
    const subject = requireSubject(req);
    const text = await add(subject, mutationId).catch((err: unknown) => {
      if (lostToAnotherCopy(err)) return undefined;
      throw err;
    });
    if (text !== undefined) {
      ctx.metrics.write(req.routeOptions.url ?? req.url, false);
      return reply.status(201).type('application/json; charset=utf-8').send(text);
    }
  }
  return answerWrite(ctx, req, reply, change);
}

/** The body's mutationId; the route's schema has already checked its form. */
export function mutationIdOf(body: unknown): string | undefined {
  const id = typeof body === 'object' && body !== null && 'mutationId' in body ? body.mutationId : undefined;
  return typeof id === 'string' ? id : undefined;
}
