import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { queryRows } from '../db/raw.ts';
import { migrationsFolder } from '../paths.ts';
import { copyPgliteTemplate, pgliteTemplateTar } from './db-template.ts';
import { createFreshPostgres } from './postgres.ts';

let dir: string | undefined;
let open: Database | undefined;
afterEach(async () => {
  await open?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  open = undefined;
  dir = undefined;
});

async function migrationCount(): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function count(database: Database, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, query);
  return row?.n ?? -1;
}

/** Every migration applied, no rows yet, and writable. */
async function expectMigratedAndEmpty(database: Database): Promise<void> {
  expect(await count(database, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toBe(await migrationCount());
  expect(await count(database, sql`select count(*)::int as n from patients`)).toBe(0);
  await database.migrate(); // nothing left to run
  await database.db.execute(sql`insert into hospitals (name, time_zone) values ('Template Test', 'UTC')`);
}

describe('the test template of the embedded database', () => {
  it('starts an in-memory database migrated and empty, and each copy is its own', { timeout: 120_000 }, async () => {
    open = await openDatabase({ template: await pgliteTemplateTar() });
    await expectMigratedAndEmpty(open);
    const second = await openDatabase({ template: await pgliteTemplateTar() });
    try {
      expect(await count(second, sql`select count(*)::int as n from hospitals`)).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('copies a data folder the server opens migrated and empty', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eddy-template-'));
    await copyPgliteTemplate(dir);
    open = await openDatabase({ dataDir: dir });
    await expectMigratedAndEmpty(open);
  });
});

const postgresUrl = process.env['DATABASE_URL'];

describe.skipIf(!postgresUrl)('the fresh PostgreSQL databases of the tests (the PostgreSQL pass)', () => {
  it('are each a migrated, empty copy of their own, even when made at once', { timeout: 120_000 }, async () => {
    const fresh = await Promise.all([1, 2, 3].map(() => createFreshPostgres(postgresUrl ?? '', 'eddy_tmpl_test')));
    const databases = await Promise.all(fresh.map((f) => openDatabase({ databaseUrl: f.url, poolMax: 1 })));
    try {
      for (const database of databases) await expectMigratedAndEmpty(database);
      // Each holds only its own hospital.
      for (const database of databases) expect(await count(database, sql`select count(*)::int as n from hospitals`)).toBe(1);
    } finally {
      await Promise.all(databases.map((d) => d.close()));
      await Promise.all(fresh.map((f) => f.drop()));
    }
  });
});
