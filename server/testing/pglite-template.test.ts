import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { migrationsFolder } from '../paths.ts';
import { copyPgliteTemplate, pgliteTemplateTar } from './pglite-template.ts';

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

/** Every migration applied, no rows yet, and writable. */
async function expectMigratedAndEmpty(database: Database): Promise<void> {
  const applied = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  expect(applied.rows[0]).toEqual({ n: await migrationCount() });
  const patients = await database.db.execute(sql`select count(*)::int as n from patients`);
  expect(patients.rows[0]).toEqual({ n: 0 });
  await database.migrate(); // nothing left to run
  await database.db.execute(sql`insert into hospitals (name, time_zone) values ('Template Test', 'UTC')`);
}

describe('the test template of the embedded database', () => {
  it('starts an in-memory database migrated and empty, and each copy is its own', { timeout: 120_000 }, async () => {
    open = await openDatabase({ template: await pgliteTemplateTar() });
    await expectMigratedAndEmpty(open);
    const second = await openDatabase({ template: await pgliteTemplateTar() });
    try {
      const hospitals = await second.db.execute(sql`select count(*)::int as n from hospitals`);
      expect(hospitals.rows[0]).toEqual({ n: 0 });
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
