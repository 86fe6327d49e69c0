import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, apiError, health, readiness } from '../../schemas/api.ts';
import { migrationsFolder } from '../paths.ts';
import { databaseRepo } from '../repositories/database.ts';
import { errorMessage } from '../lib/errors.ts';

/** When the newest migration this code ships was made (drizzle records it as created_at). */
const NEWEST_MIGRATION = (() => {
  // drizzle-kit's journal of the migrations shipped with this code: its shape is known, not checked.
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const newest = journal.entries.at(-1);
  if (!newest) throw new Error('no migrations in the journal');
  return newest;
})();

export function healthRoutes(api: TypedApp, ctx: AppContext): void {
  // Liveness: the process answers and the database does.
  api.get('/health', { schema: { summary: 'Liveness: the process and its database answer', response: answers(health) } }, async (_req, reply) => {
    await databaseRepo.ping(ctx.db);
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, db: ctx.dbKind };
  });

  // Readiness (issue 17): the database answers and has every migration this code needs, so a load
  // balancer sends patients here only then. 503 with what is missing otherwise.
  api.get('/ready', { schema: { summary: 'Readiness: the database answers and has every migration this version needs', response: { 200: readiness, 503: readiness, '4xx': apiError, '5xx': apiError } } }, async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    let database = 'ok';
    let migrations = 'ok';
    try {
      const applied = await databaseRepo.newestMigrationApplied(ctx.db);
      if (applied < NEWEST_MIGRATION.when) migrations = `not applied: ${NEWEST_MIGRATION.tag} and maybe earlier ones`;
    } catch (err) {
      database = `unreachable: ${errorMessage(err)}`;
      migrations = 'unknown';
    }
    const ready = database === 'ok' && migrations === 'ok';
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', db: ctx.dbKind, database, migrations });
  });
}
