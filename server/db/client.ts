// Opens the one database the server uses: embedded PGlite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both are driven through the same Drizzle pg-core schema, so repositories
// never know which one they talk to.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { migrationsFolder } from '../paths.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DbKind;
  /** Runs the numbered migrations; several instances starting at once take turns. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The embedded database's data folder as a tarball (PGlite only): a test template, a backup. */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
  /** The connection pool's state (PostgreSQL only), for /metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export class DatabaseInUseError extends Error {}

/** Arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 4_242_001;

/**
 * `template`: a tarball from `dumpDataDir()` that PGlite starts from instead of a new, empty cluster:
 * in memory (tests, server/testing/db-template.ts; reading a backup back), or loaded into a `dataDir`
 * that holds no database yet (a restore, server/cli/backup.ts).
 */
export async function openDatabase(opts: { databaseUrl?: string | undefined; dataDir?: string | undefined; poolMax?: number; template?: Blob }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolMax ?? 10);
  return openPglite(opts.dataDir, opts.template);
}

async function openPostgres(url: string, poolMax: number): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  await pool.query('select 1');
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // The advisory lock lives on one connection, so migrate through that same connection.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: InstanceType<typeof PGlite>;
  if (dataDir) {
    const dir = path.resolve(dataDir, 'pgdata');
    await mkdir(dir, { recursive: true });
    await assertNotInUse(dir);
    client = new PGlite(dir, template ? { loadDataDir: template } : {});
  } else {
    client = new PGlite(template ? { loadDataDir: template } : {}); // in memory: tests
  }
  await client.waitReady;
  const db = drizzle(client, { schema });
  let lock: (() => Promise<void>) | undefined;
  if (dataDir) lock = await takeLock(path.resolve(dataDir, 'pgdata'));
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder: migrationsFolder }),
    async close() {
      await client.close();
      await lock?.();
    },
    async dumpDataDir(compression = 'none') {
      const dump = await client.dumpDataDir(compression);
      return dump instanceof Blob ? dump : new Blob([dump]);
    },
  };
}

// PGlite is a single-process database: two processes opening the same folder corrupt it. A lock
// file with the owner's pid lets a CLI command refuse clearly while the server runs.
async function assertNotInUse(dir: string): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const lockFile = path.join(dir, '..', 'eddy.lock');
  let pid: number;
  try {
    pid = Number((await readFile(lockFile, 'utf8')).trim());
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid === process.pid) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale lock from a process that is gone
  }
  throw new DatabaseInUseError(
    `The embedded database in ${path.dirname(dir)} is in use by process ${pid}. Stop the server (or that command) first, or set DATABASE_URL to use PostgreSQL.`,
  );
}

async function takeLock(dir: string): Promise<() => Promise<void>> {
  const { writeFile, rm } = await import('node:fs/promises');
  const lockFile = path.join(dir, '..', 'eddy.lock');
  await writeFile(lockFile, String(process.pid));
  return () => rm(lockFile, { force: true });
}
