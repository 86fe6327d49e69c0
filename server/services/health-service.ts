// What the health and readiness checks ask of the database (routes/health.ts answers with it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { errorMessage } from '../lib/errors.ts';
import { migrationsFolder } from '../paths.ts';
import { databaseRepo } from '../repositories/database.ts';

/** When the newest migration this code ships was made (drizzle records it as created_at). */
const NEWEST_MIGRATION = (() => {
  // drizzle-kit's journal of the migrations shipped with this code: its shape is known, not checked.
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const newest = journal.entries.at(-1);
  if (!newest) throw new Error('no migrations in the journal');
  return newest;
})();

/** Liveness: the database answers (throws when it does not). */
export async function pingDatabase(ctx: AppContext): Promise<void> {
  await databaseRepo.ping(ctx.db);
}

/** Readiness: whether the database answers and has every migration this code needs, and what is missing. */
export async function readiness(ctx: AppContext): Promise<{ ready: boolean; database: string; migrations: string }> {
  let database = 'ok';
  let migrations = 'ok';
  try {
    const applied = await databaseRepo.newestMigrationApplied(ctx.db);
    if (applied < NEWEST_MIGRATION.when) migrations = `not applied: ${NEWEST_MIGRATION.tag} and maybe earlier ones`;
  } catch (err) {
    database = `unreachable: ${errorMessage(err)}`;
    migrations = 'unknown';
  }
  return { ready: database === 'ok' && migrations === 'ok', database, migrations };
}
