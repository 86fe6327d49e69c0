import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths.ts';
import { openDatabase } from './client.ts';
import { queryRows } from './raw.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs the child until it has committed, then kills it the hard way (SIGKILL). */
async function commitThenKill(dataDir: string, value: number): Promise<void> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'server', 'testing', 'pglite-commit-child.ts'), dataDir, String(value)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('committed')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the child ended (${String(code)}) before committing:\n${err}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

// The randomized fault runs kill the server at random moments; a write it had answered must still be
// there after the restart. PGlite keeps some filesystems' changes in memory until a top-level query
// (electric-sql/pglite#1065: not after a transaction's COMMIT); with a data folder on Node it writes
// through, and this holds it to that.
describe('the embedded database', () => {
  it('keeps a committed transaction when the process is killed right after it', { timeout: 60_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eddy-pglite-'));
    for (const value of [1, 2, 3]) await commitThenKill(dir, value);
    const { db, close } = await openDatabase({ dataDir: dir });
    try {
      const rows = await queryRows<{ value: number }>(db, sql`select value from commit_probe order by value`);
      expect(rows.map((r) => r.value)).toEqual([1, 2, 3]);
    } finally {
      await close();
    }
  });
});
