// POST /api/batch (docs/sync-protocol.md, "Replaying in batches"): a device back online sends the
// writes it queued in batches instead of one request each. The writes run in order in ONE
// transaction, each as its own route would run it (patient-writes.ts: the same schema, the same
// change, at most once per mutation id, in a savepoint of its own). The first write refused (a 4xx:
// its body, a conflict, a record not found) or failing ends the batch: its savepoint is rolled back,
// the writes before it commit, and the answer lists the results of those that ran, the refused one
// last. The device handles each result as the answer of that write's own request; what did not run
// stays queued and goes in its next request.
import { answers, batchAnswer } from '../../schemas/api.ts';
import { batchSchema } from '../../schemas/batch.ts';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../http/errors.ts';
import { isDeadlock, retryOnDeadlock } from '../lib/db-errors.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import { mutationIdOf } from '../http/mutation-reply.ts';
import { describeAjvError, pickAjvError } from '../http/validation-message.ts';
import { bodyAjv } from '../http/validator.ts';
import { unsafeTextProblem } from '../http/plain-text.ts';
import { runMutation } from '../services/mutations.ts';
import { PATIENT_WRITES } from './patient-writes.ts';

export interface BatchResult {
  status: number;
  body: Readonly<Record<string, unknown>>;
  repeat?: true;
}

export function batchRoutes(api: TypedApp, ctx: AppContext): void {
  const ajv = bodyAjv();
  const writes = new Map(PATIENT_WRITES.map((w) => [w.path, { ...w, validate: ajv.compile<unknown>(w.schema) }]));

  api.post(
    '/batch',
    {
      preHandler: patientAccess(ctx, { write: true }),
      schema: {
        summary: 'Replay queued writes in order, in one transaction; each result is the answer its own route would give',
        body: batchSchema,
        response: answers(batchAnswer),
      },
    },
    async (req) => {
      const subject = requireSubject(req);
      let results: BatchResult[] = [];
      // A deadlock with a concurrent write (another copy of the same write, say) rolls the whole batch
      // back, and the batch runs again from its first write, as its own route would run a write again.
      const runBatch = () => {
        results = [];
        return ctx.db.transaction(async (tx) => {
          for (const m of req.body.mutations) {
            const w = writes.get(m.path);
            if (!w) throw new Error(`batch schema let through ${m.path}`);
            // The route's own Ajv changes the body it checks (defaults, extra keys dropped): so does this.
            const body = structuredClone(m.body);
            const unsafe = unsafeTextProblem(body, 'body');
            if (unsafe) {
              results.push({ status: 400, body: { message: unsafe } });
              return;
            }
            if (!w.validate(body)) {
              const error = pickAjvError(w.validate.errors ?? []);
              results.push({ status: 400, body: { message: error ? describeAjvError(error, 'body') : 'body is not valid' } });
              return;
            }
            try {
              const answer = await runMutation({ ...ctx, db: tx }, subject.patientId, mutationIdOf(body), (inner) => w.change(inner, subject, body));
              results.push({ status: answer.status, body: answer.body, ...(answer.repeat ? { repeat: true as const } : {}) });
            } catch (err) {
              if (isDeadlock(err)) throw err;
              if (err instanceof HttpError) {
                results.push({ status: err.statusCode, body: err.body() });
              } else {
                req.log.error({ err, path: m.path }, 'a write of a batch failed');
                results.push({ status: 500, body: { message: 'Internal Server Error' } });
              }
              return;
            }
          }
        });
      };
      await retryOnDeadlock(runBatch);
      for (const [i, r] of results.entries()) if (r.status < 400) ctx.metrics.write(`/api${req.body.mutations[i]?.path ?? ''}`, r.repeat === true);
      // Each body is a JSON object: the answer of its write's own route, or a refusal ({message, …}).
      return { results };
    },
  );
}
