// Backup and restore of the embedded database (issue 17): `npm run admin -- backup --to <file>` and
// `npm run admin -- restore --from <file>`.
//
// The embedded database is one process's (PGlite): while the server runs, its data folder is locked
// and both commands refuse clearly (DatabaseInUseError) rather than copy files in the middle of a
// write. Stopped, a backup is PGlite's own dump of the data folder (a gzipped tarball), written to a
// temporary file and renamed into place, then opened in memory and counted, so a backup that cannot
// be read back is never reported as made. A restore goes only into a data folder that holds no
// database yet (a new DATA_DIR, or the old one moved aside), then brings it to this version's
// migrations.
//
// PostgreSQL is backed up with its own tools (pg_dump / pg_restore, README "Backup and restore"):
// both commands say so with DATABASE_URL set.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { DatabaseInUseError, openDatabase } from '../db/client.ts';
import { databaseRepo } from '../repositories/database.ts';
import { errorMessage } from '../lib/errors.ts';

export class BackupError extends Error {}

const describe = (counts: Record<string, number>) =>
  ['patients', 'glucose_readings', 'medicine_intakes', 'lab_tests', 'appointments', 'symptoms', 'admins']
    .filter((t) => t in counts)
    .map((t) => `${counts[t]} ${t.replace(/_/g, ' ')}`)
    .join(', ');

function embeddedOnly(config: Config, what: 'backup' | 'restore'): void {
  if (!config.databaseUrl) return;
  throw new BackupError(
    what === 'backup'
      ? 'DATABASE_URL is set: back up PostgreSQL with its own tool, for example\n  pg_dump --format=custom --file=eddy.dump "$DATABASE_URL"\n(see README, "Backup and restore").'
      : 'DATABASE_URL is set: restore PostgreSQL with its own tool, for example\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" eddy.dump\n(see README, "Backup and restore").',
  );
}

/** Writes the embedded database of `config.dataDir` to `file`; returns what it holds. */
export async function backupEmbedded(config: Config, file: string): Promise<string> {
  embeddedOnly(config, 'backup');
  const target = path.resolve(file);
  if (existsSync(target)) throw new BackupError(`${target} exists already: choose a new file name (a backup never overwrites one).`);
  if (!existsSync(path.join(config.dataDir, 'pgdata')))
    throw new BackupError(`There is no embedded database in ${path.resolve(config.dataDir)} (DATA_DIR) to back up.`);
  // Opening takes the data folder's lock: a running server makes this throw DatabaseInUseError.
  const database = await openDatabase({ dataDir: config.dataDir });
  let counts: Record<string, number>;
  let dump: Blob;
  try {
    counts = await databaseRepo.countRows(database.db);
    if (!database.dumpDataDir) throw new BackupError('This database cannot be dumped');
    dump = await database.dumpDataDir('gzip');
  } finally {
    await database.close();
  }
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  try {
    // Read back before it counts as a backup.
    const copy = await openDatabase({ template: new Blob([await readFile(partial)]) });
    try {
      const back = await databaseRepo.countRows(copy.db);
      const differs = Object.keys(counts).filter((t) => back[t] !== counts[t]);
      if (differs.length > 0) throw new BackupError(`The backup did not read back the same rows (${differs.join(', ')}); nothing was written.`);
    } finally {
      await copy.close();
    }
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return `Backed up the embedded database of ${path.resolve(config.dataDir)} to ${target}: ${describe(counts)}.`;
}

/** Restores `file` into `config.dataDir`, which must hold no database yet; returns what it holds. */
export async function restoreEmbedded(config: Config, file: string): Promise<string> {
  embeddedOnly(config, 'restore');
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist.`);
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (existsSync(pgdata) && (await readdir(pgdata)).length > 0) {
    throw new BackupError(
      `${path.resolve(config.dataDir)} (DATA_DIR) holds a database already. Restore into a new DATA_DIR, or stop the server and move ${path.resolve(pgdata)} aside first: a restore never overwrites a database.`,
    );
  }
  const tarball = new Blob([await readFile(source)]);
  let database;
  try {
    // The dump is loaded into the empty data folder when the database first starts.
    database = await openDatabase({ dataDir: config.dataDir, template: tarball });
  } catch (err) {
    // Another process has the folder (a server starting on it): what is in it is that process's.
    if (err instanceof DatabaseInUseError) throw err;
    await rm(pgdata, { recursive: true, force: true });
    throw new BackupError(`${source} is not a backup of an Eddy embedded database (${errorMessage(err)}); nothing was restored.`);
  }
  try {
    await database.migrate();
    return `Restored ${source} into ${path.resolve(config.dataDir)}: ${describe(await databaseRepo.countRows(database.db))}.`;
  } finally {
    await database.close();
  }
}
