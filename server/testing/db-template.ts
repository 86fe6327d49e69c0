// A migrated, empty database made once and copied for every test that needs a fresh one.
//
// Embedded (PGlite): a new PGlite runs initdb (measured on the 2-core test machine: 4–10 s, and 1.6 s
// more for the migrations); loading a copy takes about a second. Vitest's server tests load it as a
// tarball into an in-memory PGlite (`pgliteTemplateTar`); the browser tests', chaos runs' and
// fuzzing's servers start on a copy of its data folder (`copyPgliteTemplate`). The copy is kept in
// node_modules/.cache/eddy/.
//
// PostgreSQL: `eddy_template_<digest>` on the server a test run is given, that each fresh database is
// created from (`create database … template …`) instead of migrating it (0.6–1.2 s each).
//
// Both are named by a digest of the PGlite version and the migration files, so a changed migration or
// PGlite makes a new one. Several processes may make one at once: each makes its own temporary copy
// and renames it into place, and the first rename wins.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { migrationsFolder } from '../paths.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'eddy');

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out.sort();
}

let keyPromise: Promise<string> | undefined;
/** A digest of what the template's content depends on: PGlite's version and every migration file. */
export function templateKey(): Promise<string> {
  keyPromise ??= (async () => {
    const hash = createHash('sha256');
    const pglitePkg = JSON.parse(await readFile(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
    hash.update(`pglite ${pglitePkg.version}\n`);
    for (const file of await filesUnder(migrationsFolder)) {
      hash.update(`${path.relative(migrationsFolder, file)}\n`);
      hash.update(await readFile(file));
    }
    return hash.digest('hex').slice(0, 16);
  })();
  return keyPromise;
}

/** Writes `make(tmp)` to a temporary path and renames it to `target`, unless another process got there first. */
async function publish(target: string, make: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  try {
    await make(tmp);
    await rename(tmp, target);
  } catch (err) {
    // A folder cannot be renamed onto a non-empty one: another process published it first.
    if (!existsSync(target)) throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

let tarPromise: Promise<Blob> | undefined;
/** The template as a PGlite data-folder tarball (`new PGlite({ loadDataDir })`). */
export function pgliteTemplateTar(): Promise<Blob> {
  tarPromise ??= (async () => {
    const file = path.join(cacheDir, `pglite-template-${await templateKey()}.tar`);
    if (!existsSync(file)) {
      await publish(file, async (tmp) => {
        const database = await openDatabase({});
        try {
          await database.migrate();
          if (!database.dumpDataDir) throw new Error('the embedded database cannot be dumped');
          const tar = await database.dumpDataDir();
          await writeFile(tmp, Buffer.from(await tar.arrayBuffer()));
        } finally {
          await database.close();
        }
      });
    }
    return new Blob([await readFile(file)]);
  })();
  return tarPromise;
}

/** Copies the template's data folder to `<dataDir>/pgdata`, where the server opens its database. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  const dir = path.join(cacheDir, `pglite-template-${await templateKey()}`);
  if (!existsSync(dir)) {
    await publish(dir, async (tmp) => {
      const database = await openDatabase({ dataDir: tmp });
      await database.migrate();
      await database.close();
      await rm(path.join(tmp, 'eddy.lock'), { force: true });
    });
  }
  await cp(path.join(dir, 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
}

const pgTemplates = new Map<string, Promise<string>>();
/** `pg` error codes met while two processes make or clone the template at once. */
const UNIQUE_VIOLATION = '23505';
const DUPLICATE_DATABASE = '42P04';
const OBJECT_IN_USE = '55006';

/** The name of the migrated template database on the PostgreSQL server of `base`, made if missing. */
export function postgresTemplate(base: string): Promise<string> {
  const server = new URL(base);
  server.pathname = '/';
  let made = pgTemplates.get(server.toString());
  if (!made) {
    made = makePostgresTemplate(base);
    pgTemplates.set(server.toString(), made);
    made.catch(() => pgTemplates.delete(server.toString()));
  }
  return made;
}

async function makePostgresTemplate(base: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `eddy_template_${await templateKey()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const tmp = `${name}_tmp_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${tmp}`);
    try {
      const url = new URL(base);
      url.pathname = `/${tmp}`;
      const database = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${tmp} rename to ${name}`);
    } catch (err) {
      await admin.query(`drop database if exists ${tmp} with (force)`);
      // Another process renamed its copy into place first: PostgreSQL says "already exists", or, when
      // both renames run at the same instant, a unique violation on pg_database's name index.
      const code = (err as { code?: string }).code;
      if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw err;
    }
    return name;
  } finally {
    await admin.end();
  }
}

/** Creates `name` as a copy of the template; a clone started while another holds it is tried again. */
export async function createFromPostgresTemplate(admin: { query(sql: string): Promise<unknown> }, base: string, name: string): Promise<void> {
  const template = await postgresTemplate(base);
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${template}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== OBJECT_IN_USE || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}
