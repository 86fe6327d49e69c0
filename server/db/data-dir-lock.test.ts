import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseInUseError, liveness, LOCK_FILE, lockDataDir, parseHolder, type DataDirLock } from './data-dir-lock.ts';

const hasProc = existsSync('/proc/self/stat');

let dir: string;
let lockFile: string;
const taken: DataDirLock[] = [];
let sleeper: ChildProcess;

/** A process id that no process has any more: a child that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (!pid) throw new Error('no child process');
  return pid;
}

const readLock = async () => parseHolder(await readFile(lockFile, 'utf8'));
const plant = (holder: Record<string, unknown> | string) => writeFile(lockFile, typeof holder === 'string' ? holder : JSON.stringify(holder));
const take = async () => {
  const lock = await lockDataDir(dir);
  taken.push(lock);
  return lock;
};

beforeAll(async () => {
  // A live process that is not Eddy, to stand for a running server.
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  await new Promise((resolve) => sleeper.once('spawn', resolve));
});
afterAll(() => {
  sleeper.kill();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eddy-lock-'));
  lockFile = path.join(dir, LOCK_FILE);
});
afterEach(async () => {
  for (const lock of taken.splice(0)) lock.release();
  await rm(dir, { recursive: true, force: true });
});

describe('the data folder lock', () => {
  it('takes a free folder, refuses it to a second opener, and is gone once released', async () => {
    const lock = await take();
    const held = await readLock();
    expect(held).toMatchObject({ pid: process.pid, token: lock.holder.token, host: hostname() });
    // A second opener in this very process is refused too: one PGlite per folder.
    const second = lockDataDir(dir);
    await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(second).rejects.toThrow(new RegExp(`in use by process ${process.pid} \\(.*started ${held.startedAt}\\)\\. Stop the server`));
    expect((await readLock()).token).toBe(lock.holder.token);
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
    lock.release(); // twice is harmless
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes only its own lock', async () => {
    const lock = await take();
    // The lock was taken over meanwhile (an operator deleted it and another process took it).
    await plant({ pid: sleeper.pid, token: 'someone-else' });
    lock.release();
    expect((await readLock()).token).toBe('someone-else');
  });

  it("refuses a live process's lock, naming it; with an older Eddy's bare process id it says how to undo a wrong refusal", async () => {
    await plant({ pid: sleeper.pid, token: 'live', startedAt: '2026-12-01T08:00:00.000Z', command: 'build/server/main.js', host: hostname() });
    await expect(take()).rejects.toThrow(`in use by process ${sleeper.pid} (build/server/main.js, started 2026-12-01T08:00:00.000Z). Stop the server`);
    await plant(String(sleeper.pid));
    await expect(take()).rejects.toThrow(
      new RegExp(
        `in use by process ${sleeper.pid}\\. Stop the server[^]*If process ${sleeper.pid} is not Eddy \\(ps -p ${sleeper.pid}\\), delete ${lockFile.replaceAll('.', '\\.')}`,
      ),
    );
    expect(await readFile(lockFile, 'utf8')).toBe(String(sleeper.pid));
  });

  it("refuses another machine's lock, which it cannot check, and says what to delete", async () => {
    await plant({ pid: deadPid(), token: 'far', host: 'ward-server-2' });
    await expect(take()).rejects.toThrow(
      `runs on another machine or container (ward-server-2), which this one cannot check: if Eddy no longer runs there on this folder, delete ${lockFile}`,
    );
  });

  it.each([
    ['a dead process', () => ({ pid: deadPid(), token: 'dead', host: hostname() })],
    ["an older Eddy's bare process id, dead", () => String(deadPid())],
    ['a process id this process has now (an earlier process had it: a container restarted)', () => ({ pid: process.pid, token: 'earlier' })],
    ['unreadable content', () => '{"pid": '],
    ['an empty file', () => ''],
  ])('takes over the lock of %s', async (_what, holder) => {
    await plant(holder());
    const lock = await take();
    expect((await readLock()).token).toBe(lock.holder.token);
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE]);
  });

  it.runIf(hasProc)("tells a process id given to a new process, and an earlier boot, from the lock's owner (Linux)", async () => {
    const sleeperStart = (await readFile(`/proc/${sleeper.pid}/stat`, 'utf8')).split(') ')[1]?.split(' ')[19];
    const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    expect(liveness({ pid: sleeper.pid ?? 0, token: 't', host: hostname(), boot, ...(sleeperStart ? { procStart: sleeperStart } : {}) })).toBe('alive');
    expect(liveness({ pid: sleeper.pid ?? 0, token: 't', host: hostname(), boot, procStart: '1' })).toBe('dead');
    expect(liveness({ pid: sleeper.pid ?? 0, token: 't', host: hostname(), boot: 'an-earlier-boot' })).toBe('dead');
    await plant({ pid: sleeper.pid, token: 'reused', host: hostname(), procStart: '1' });
    await take();
  });

  it('takes over a stale lock whose takeover was left half-done by a process that died', async () => {
    await plant({ pid: deadPid(), token: 'stale' });
    await writeFile(`${lockFile}.takeover-stale`, JSON.stringify({ pid: deadPid(), token: 'claimant' }));
    const lock = await take();
    expect((await readLock()).token).toBe(lock.holder.token);
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
  });

  it('gives a stale lock to exactly one of many openers at once', async () => {
    for (let round = 0; round < 20; round++) {
      await plant({ pid: deadPid(), token: `stale-${round}` });
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => lockDataDir(dir)));
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DatabaseInUseError);
      expect((await readLock()).token).toBe(won[0]?.holder.token);
      won[0]?.release();
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('goes with a process that exits without releasing it', async () => {
    const script = `import { lockDataDir } from ${JSON.stringify(path.join(import.meta.dirname, 'data-dir-lock.ts'))};
await lockDataDir(${JSON.stringify(dir)});
process.stdout.write('locked');
process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stdout, child.stderr).toBe('locked');
    expect(child.status).toBe(3);
    expect(existsSync(lockFile)).toBe(false);
  });
});
