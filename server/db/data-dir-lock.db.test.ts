// Issue 45: two `npm start` on one DATA_DIR a few seconds apart both opened the embedded database,
// and after a clean stop it never opened again. Here processes open one data folder at the same
// moment, many times over: exactly one has it, the others are refused and say by whom, the lock
// outlives them, and it goes with its owner (or, when the owner was killed, to the next opener).
// Then the database still opens; and a database that does not open says what to do, not a stack.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPgliteTemplate } from '../testing/db-template.ts';
import { freePort } from '../testing/ports.ts';
import { get, root, waitFor } from '../testing/server-process.ts';
import { openDatabase } from './client.ts';
import { LOCK_FILE, parseHolder } from './data-dir-lock.ts';
import { queryRows } from './raw.ts';

let work: string;
let dataDir: string;
let lockFile: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'eddy-lock-race-'));
  dataDir = path.join(work, 'data');
  lockFile = path.join(dataDir, LOCK_FILE);
  await copyPgliteTemplate(dataDir);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
}

function start(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  if (!child.pid) throw new Error(`${args.join(' ')} did not start`);
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  return {
    child,
    pid: child.pid,
    output: () => output.join(''),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    running: () => child.exitCode === null && child.signalCode === null,
  };
}

const startServer = async (dir: string) => {
  const port = await freePort();
  return {
    port,
    proc: start([path.join(root, 'server', 'main.ts')], {
      DATA_DIR: dir,
      DATABASE_URL: '',
      DEMO: '0',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REMINDERS: '0',
    }),
  };
};

const lockHolder = async () => (existsSync(lockFile) ? parseHolder(await readFile(lockFile, 'utf8')) : undefined);

/** What may be left in the data folder: the database and, while someone holds it, the lock; no temporary or takeover file. */
const leftovers = async () => (await readdir(dataDir)).filter((f) => f !== 'pgdata' && f !== LOCK_FILE);

function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (!pid) throw new Error('no child process');
  return pid;
}

/** The refusal names the holder and what to do, and is no stack trace. */
function expectRefusal(text: string, holderPid: number): void {
  expect(text).toContain(`The embedded database in ${dataDir} is in use by process ${holderPid} (`);
  expect(text).toContain('Stop the server (or that command) first, or set DATA_DIR to another folder');
  expect(text).not.toMatch(/^\s+at /m);
}

// The embedded database's own folder lock: these servers and commands run on PGlite whatever
// DATABASE_URL says, so CI's PostgreSQL pass (DATABASE_URL set) leaves them to the embedded pass
// that ran them just before (they take about 45 s of a worker). LOCK_TESTS_ALL=1 runs them there too.
const embeddedPass = !process.env['DATABASE_URL'] || process.env['LOCK_TESTS_ALL'] === '1';
/**
 * Rounds of two whole servers started at once. Each costs about 11 s of a worker (two servers
 * start, one serves); the race for the lock itself runs twenty times in the contender test below at
 * a seventh of that. Four rounds start twice on a free folder and twice on a killed server's lock;
 * LOCK_SERVER_ROUNDS=10 (as until 2026-12-05, 112 s) or more makes it a soak.
 */
const SERVER_ROUNDS = Math.max(4, Number(process.env['LOCK_SERVER_ROUNDS'] ?? 4));

describe.runIf(embeddedPass)('one data folder, opened by several processes at the same moment', () => {
  it(
    `two servers started at once, ${SERVER_ROUNDS} times: exactly one serves, the other is refused and leaves the lock alone`,
    { timeout: SERVER_ROUNDS * 30_000 },
    async () => {
      for (let round = 0; round < SERVER_ROUNDS; round++) {
        const before = await lockHolder(); // from round 1 on, every second round starts on a killed server's lock
        const pair = await Promise.all([startServer(dataDir), startServer(dataDir)]);
        // The loser ends by itself, quickly: it never opens the database.
        const first = await Promise.race([
          ...pair.map(async (s) => ({ s, exit: await s.proc.exited })),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`round ${round}: neither server was refused`)), 60_000).unref()),
        ]);
        const loser = first.s;
        const winner = pair.find((s) => s !== loser);
        if (!winner) throw new Error('no winner');
        const at = `round ${round}${before ? ` (on the lock of dead process ${before.pid})` : ''}: ${loser.proc.output()}`;
        expect(first.exit.code, at).toBe(1);
        expectRefusal(loser.proc.output(), winner.proc.pid);
        expect((await lockHolder())?.pid, at).toBe(winner.proc.pid);

        await waitFor(
          `the winner of round ${round} to answer`,
          async () => {
            if (!winner.proc.running()) throw new Error(`the winner of round ${round} exited: ${winner.proc.output()}`);
            return (await get(`http://127.0.0.1:${winner.port}`, '/api/health').catch(() => undefined))?.status === 200;
          },
          60_000,
          100,
        );
        expect((await lockHolder())?.pid).toBe(winner.proc.pid);

        if (round % 2 === 0) {
          winner.proc.child.kill('SIGTERM');
          expect(await winner.proc.exited).toMatchObject({ code: 0 });
          expect(existsSync(lockFile), 'a clean stop removes its lock').toBe(false);
        } else {
          // Killed outright (a power cut, the OOM killer): its lock stays, with a process id that is gone.
          winner.proc.child.kill('SIGKILL');
          await winner.proc.exited;
          expect((await lockHolder())?.pid).toBe(winner.proc.pid);
        }
        expect(await leftovers()).toEqual([]);
      }
    },
  );

  it('four processes at once, twenty times, with pauses in the middle of every step: exactly one has it', { timeout: 240_000 }, async () => {
    const contender = path.join(root, 'server', 'testing', 'lock-contender.ts');
    for (let round = 0; round < 20; round++) {
      // Of every four rounds two start on a free folder, one on the lock of the winner killed the round
      // before, one on an older Eddy's lock (a bare process id) of a process that is gone.
      if (round % 4 === 3) await writeFile(lockFile, String(deadPid()));
      const before = await lockHolder();
      const procs = Array.from({ length: 4 }, () => start([contender, dataDir, 'jitter']));
      const said = await Promise.all(
        procs.map((p) =>
          waitFor(
            () => `contender ${p.pid} to say what happened: ${p.output()}`,
            () => /\n/.test(p.output()) && p.output(),
            30_000,
            10,
          ),
        ),
      );
      const at = `round ${round}${before ? ` (on the lock of dead process ${before.pid})` : ''}:\n${said.join('')}`;
      const winners = procs.filter((_, i) => said[i] === 'won\n');
      expect(winners, at).toHaveLength(1);
      const winner = winners[0];
      if (!winner) throw new Error(at);
      for (const [i, p] of procs.entries()) {
        if (p === winner) continue;
        expectRefusal(said[i] ?? '', winner.pid);
        expect(await p.exited).toMatchObject({ code: 0 });
      }
      expect((await lockHolder())?.pid, `the losers leave the lock alone: ${at}`).toBe(winner.pid);
      if (round % 4 === 1) {
        winner.child.kill('SIGKILL');
        await winner.exited;
      } else {
        winner.child.stdin?.end();
        expect(await winner.exited).toMatchObject({ code: 0 });
        expect(existsSync(lockFile)).toBe(false);
      }
      expect(await leftovers(), at).toEqual([]);
    }
  });

  it('after all that the database opens and holds what it held', async () => {
    const database = await openDatabase({ dataDir });
    try {
      await database.migrate();
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(row?.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
    expect(existsSync(lockFile)).toBe(false);
  });
});

describe.runIf(embeddedPass)('a database that does not open', () => {
  it("says what happened and how to restore the last backup, not the engine's stack, and leaves no lock", { timeout: 60_000 }, async () => {
    const damaged = path.join(work, 'damaged');
    await cp(path.join(dataDir, 'pgdata'), path.join(damaged, 'pgdata'), { recursive: true });
    // The write-ahead log is gone: the engine cannot find a checkpoint to start from.
    const wal = path.join(damaged, 'pgdata', 'pg_wal');
    for (const f of await readdir(wal)) if (/^[0-9A-F]{24}$/.test(f)) await rm(path.join(wal, f));

    const server = (await startServer(damaged)).proc;
    expect(await server.exited).toMatchObject({ code: 1 });
    const admin = start([path.join(root, 'server', 'cli', 'admin.ts'), 'list-hospitals'], { DATA_DIR: damaged, DATABASE_URL: '' });
    expect(await admin.exited).toMatchObject({ code: 1 });
    for (const said of [server.output(), admin.output()]) {
      expect(said).toContain(
        `The embedded database in ${path.join(damaged, 'pgdata')} could not be opened: it may be damaged (the database engine said: PANIC: could not locate a valid checkpoint record`,
      );
      expect(said).toContain(`mv ${path.join(damaged, 'pgdata')} ${path.join(damaged, 'pgdata')}.damaged-`);
      expect(said).toContain(`DATA_DIR=${damaged} npm run admin -- restore --from <the last backup file>`);
      expect(said).not.toMatch(/RuntimeError|Aborted\(\)|^\s+at /m);
    }
    expect(await readdir(damaged)).toEqual(['pgdata']);
  });
});
