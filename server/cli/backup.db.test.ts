// Backup and restore of the embedded database (issue 17), the way an operator runs them: a backup of
// a data folder with the demo patients and a reading typed just before, restored into a new data
// folder, holds every row of every table, and the restored server logs the patient in and lists it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DEMO, seedDemo } from '../seed/demo.ts';
import { call, loginPatient } from '../testing/harness.ts';
import { adminCli } from './admin.ts';
import { databaseRepo } from '../repositories/database.ts';

let work: string;
let source: string;
let before: Record<string, number>;

async function cli(dataDir: string, env: Record<string, string>, ...argv: string[]) {
  const lines: string[] = [];
  const code = await adminCli(argv, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'eddy-backup-'));
  source = path.join(work, 'source');
  const database = await openDatabase({ dataDir: source });
  try {
    await database.migrate();
    await seedDemo(database.db);
    const app = await buildApp({ config: loadConfig({ DATA_DIR: source, LOG_LEVEL: 'silent' }), database, logger: false });
    const p = DEMO.patients[0];
    const token = await loginPatient(app, p.hospNo, p.password);
    expect((await call(app, 'POST', '/api/glucose/add', { token, body: { type: 'Random', value: 180.2, unit: 'mmol/L', enteredValue: 10 } })).status).toBe(201);
    await app.close();
    before = await databaseRepo.countRows(database.db);
  } finally {
    await database.close();
  }
}, 180_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('npm run admin -- backup / restore', () => {
  it('backs up, and restores into a new data folder with every record', async () => {
    const file = path.join(work, 'backups', 'eddy.tar.gz');
    const backup = await cli(source, {}, 'backup', '--to', file);
    expect(backup.out).toMatch(/^Backed up the embedded database of .* to .*eddy\.tar\.gz: \d+ patients, \d+ glucose readings/);
    expect(backup.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    // A backup never overwrites one.
    const again = await cli(source, {}, 'backup', '--to', file);
    expect(again).toMatchObject({ code: 1, out: expect.stringMatching(/exists already/) });

    const target = path.join(work, 'restored');
    const restore = await cli(target, {}, 'restore', '--from', file);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/^Restored .* into .*restored: /);
    const database = await openDatabase({ dataDir: target });
    try {
      expect(await databaseRepo.countRows(database.db)).toEqual(before);
      expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(500);
      const app = await buildApp({ config: loadConfig({ DATA_DIR: target, LOG_LEVEL: 'silent' }), database, logger: false });
      const p = DEMO.patients[0];
      const token = await loginPatient(app, p.hospNo, p.password);
      const list = await call(app, 'GET', '/api/glucose', { token });
      expect((list.json['random'] as { unit?: string }[]).some((r) => r.unit === 'mmol/L')).toBe(true);
      await app.close();
    } finally {
      await database.close();
    }

    // Never over a database that exists.
    const over = await cli(target, {}, 'restore', '--from', file);
    expect(over).toMatchObject({ code: 1, out: expect.stringMatching(/holds a database already/) });
  }, 240_000);

  it('refuses clearly while the server holds the data folder, and says how for PostgreSQL', async () => {
    // Another live process owns the embedded database, as the running server does.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(path.join(source, 'eddy.lock'), String(holder.pid));
      await expect(cli(source, {}, 'backup', '--to', path.join(work, 'while-running.tar.gz'))).rejects.toThrow(/in use by process \d+\. Stop the server/);
      expect(existsSync(path.join(work, 'while-running.tar.gz'))).toBe(false);
    } finally {
      holder.kill();
      await rm(path.join(source, 'eddy.lock'), { force: true });
    }
    const pg = await cli(source, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'backup', '--to', path.join(work, 'pg.dump'));
    expect(pg).toMatchObject({ code: 1, out: expect.stringMatching(/pg_dump --format=custom/) });
    expect((await cli(source, {}, 'restore', '--from', path.join(work, 'missing.tar.gz'))).out).toMatch(/does not exist/);
    await writeFile(path.join(work, 'not-a-backup.tar.gz'), 'hello');
    const bad = await cli(path.join(work, 'fresh'), {}, 'restore', '--from', path.join(work, 'not-a-backup.tar.gz'));
    expect(bad).toMatchObject({ code: 1, out: expect.stringMatching(/is not a backup of an Eddy embedded database/) });
    expect(await cli(source, {}, 'backup')).toMatchObject({ code: 2, out: expect.stringMatching(/--to <file> is required/) });
  }, 120_000);
});
