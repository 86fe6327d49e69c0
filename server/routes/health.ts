import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, apiError, health, readiness as readinessAnswer } from '../../schemas/api.ts';
import { pingDatabase, readiness } from '../services/health-service.ts';

export function healthRoutes(api: TypedApp, ctx: AppContext): void {
  // Liveness: the process answers and the database does.
  api.get('/health', { schema: { summary: 'Liveness: the process and its database answer', response: answers(health) } }, async (_req, reply) => {
    await pingDatabase(ctx);
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, db: ctx.dbKind };
  });

  // Readiness (issue 17): the database answers and has every migration this code needs, so a load
  // balancer sends patients here only then. 503 with what is missing otherwise.
  api.get(
    '/ready',
    {
      schema: {
        summary: 'Readiness: the database answers and has every migration this version needs',
        response: { 200: readinessAnswer, 503: readinessAnswer, '4xx': apiError, '5xx': apiError },
      },
    },
    async (_req, reply) => {
      void reply.header('cache-control', 'no-store');
      const { ready, database, migrations } = await readiness(ctx);
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', db: ctx.dbKind, database, migrations });
    },
  );
}
