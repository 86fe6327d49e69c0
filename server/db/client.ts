// Opens the one database the server uses: embedded PGlite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both are driven through the same Drizzle pg-core schema, so repositories
// never know which one they talk to.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { errorCode, errorMessage } from '../lib/errors.ts';
import { migrationsFolder } from '../paths.ts';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export { DatabaseInUseError } from './data-dir-lock.ts';

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
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (a plain name), from any instance
   * of this database, once its transaction has committed. PostgreSQL: on a connection of its own,
   * opened again after it is lost; `onGap` then says that notifications may have been missed.
   * Returns how to stop.
   */
  listen(channel: string, onNotify: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>>;
}

const CHANNEL = /^[a-z_]{1,63}$/;

/** An embedded database that exists but does not open (damaged): the message says what to do. */
export class DatabaseDamagedError extends Error {}

/** Arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 4_242_001;

/**
 * `template`: a tarball from `dumpDataDir()` that PGlite starts from instead of a new, empty cluster:
 * in memory (tests, server/testing/db-template.ts; reading a backup back), or loaded into a `dataDir`
 * that holds no database yet (a restore, server/cli/backup.ts).
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  poolMax?: number;
  template?: Blob;
}): Promise<Database> {
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
    async listen(channel, onNotify, onGap) {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      let current: InstanceType<typeof pg.Client> | undefined;
      let stopped = false;
      let retry: ReturnType<typeof setTimeout> | undefined;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        const lost = () => {
          if (current !== c || stopped) return;
          current = undefined;
          void c.end().catch(() => undefined);
          again();
        };
        c.on('notification', (n) => {
          if (n.channel === channel) onNotify(n.payload ?? '');
        });
        c.on('error', lost);
        c.on('end', lost);
        current = c;
        try {
          await c.connect();
          await c.query(`LISTEN ${channel}`);
        } catch (err) {
          current = undefined;
          void c.end().catch(() => undefined);
          throw err;
        }
      };
      // Lost (the database restarted, a network cut): again each second until it answers.
      const again = () => {
        if (stopped || retry) return;
        retry = setTimeout(() => {
          retry = undefined;
          connect().then(onGap, again);
        }, 1000);
      };
      await connect();
      return async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        await current?.end().catch(() => undefined);
      };
    },
  };
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: InstanceType<typeof PGlite>;
  let lock: { release(): void } | undefined;
  if (dataDir) {
    const root = path.resolve(dataDir);
    await mkdir(root, { recursive: true });
    // Ours before PGlite touches a file in it (issue 45: opening takes seconds, and two processes
    // opening one folder corrupt it for good).
    lock = await lockDataDir(root);
    const dir = path.join(root, 'pgdata');
    const engineLog: string[] = [];
    let opening = true;
    let existed: boolean | undefined;
    try {
      existed = await holdsFiles(dir);
      await mkdir(dir, { recursive: true });
      client = new PGlite(dir, {
        ...(template ? { loadDataDir: template } : {}),
        // The engine's own account of a failed start (its PANIC line); it prints nothing otherwise.
        onStderr: (line: string) => {
          if (opening && engineLog.length < 50) engineLog.push(line);
          return false;
        },
      });
      await client.waitReady;
      opening = false;
    } catch (err) {
      try {
        // A first start (or a restore) that failed half-way leaves nothing a next start would take
        // for a damaged database. Still ours: nobody else has written in it.
        if (existed === false) await rm(dir, { recursive: true, force: true });
      } finally {
        lock.release();
      }
      // A restore loads a template into an empty folder and says itself what went wrong.
      if (existed && !template) throw new DatabaseDamagedError(damagedMessage(root, dir, engineError(engineLog) ?? firstLine(errorMessage(err))));
      throw err;
    }
  } else {
    client = new PGlite(template ? { loadDataDir: template } : {}); // in memory: tests
    await client.waitReady;
  }
  const db = drizzle(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder: migrationsFolder }),
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
    async listen(channel, onNotify) {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      // One process holds the embedded database: nothing is lost between its sessions.
      return client.listen(channel, onNotify);
    },
    async dumpDataDir(compression = 'none') {
      const dump = await client.dumpDataDir(compression);
      return dump instanceof Blob ? dump : new Blob([dump]);
    },
  };
}

async function holdsFiles(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length > 0;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return false;
    throw err;
  }
}

const firstLine = (text: string) => text.split('\n')[0]?.trim() ?? '';

/** The engine's first PANIC, FATAL or ERROR line, without its timestamp and process id. */
export function engineError(log: readonly string[]): string | undefined {
  for (const line of log) {
    const at = line.search(/\b(PANIC|FATAL|ERROR):/);
    if (at >= 0) return line.slice(at).replace(/:\s+/, ': ').trim();
  }
  return undefined;
}

/** What happened and what to do, with the commands of README "Backup and restore". */
export function damagedMessage(root: string, dir: string, cause: string): string {
  const aside = `${dir}.damaged-${new Date().toISOString().slice(0, 10)}`;
  return [
    `The embedded database in ${dir} could not be opened: it may be damaged (the database engine said: ${cause}).`,
    'What to do:',
    `  1. Stop every Eddy process using ${root}, then move the damaged folder aside (keep it until the restore is checked):`,
    `       mv ${dir} ${aside}`,
    '  2. Restore the last backup into the now empty data folder:',
    `       DATA_DIR=${root} npm run admin -- restore --from <the last backup file>`,
    '     (backups are made with `npm run admin -- backup --to <file>`; what was written after the backup is not in it).',
    '  3. Start the server again. A new installation with nothing to keep can instead start again after step 1: it begins with a new, empty database.',
    'See README.md, "Backup and restore".',
  ].join('\n');
}
