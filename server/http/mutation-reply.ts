// The one way a patient write route answers: the change runs through runMutation (one transaction,
// at most once per mutation id) and a repeated mutation id is marked with X-Mutation-Repeat.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { runMutation, type WriteAnswer } from '../services/mutations.ts';
import { requireSubject, type Subject } from './guards.ts';

export const MUTATION_REPEAT_HEADER = 'X-Mutation-Repeat';

export async function answerWrite(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  change: (tx: AppContext, subject: Subject) => Promise<WriteAnswer>,
): Promise<FastifyReply> {
  const subject = requireSubject(req);
  const answer = await runMutation(ctx, subject.patientId, mutationIdOf(req.body), (tx) => change(tx, subject));
  if (answer.repeat) void reply.header(MUTATION_REPEAT_HEADER, '1');
  return reply.status(answer.status).send(answer.body);
}

/** The body's mutationId; the route's schema has already checked its form. */
function mutationIdOf(body: unknown): string | undefined {
  const id = typeof body === 'object' && body !== null ? (body as { mutationId?: unknown }).mutationId : undefined;
  return typeof id === 'string' ? id : undefined;
}
