// `npm start` on a current build serves in seconds: it builds through build-cached.ts,
// which keeps dist/ and build/ when nothing the build reads changed, instead of a minute or two of
// building the same files again on every start.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from '../tests/fixtures/server.ts';

const root = path.resolve(import.meta.dirname, '..');
// Vitest sets NODE_ENV=test: a build made under it would be a development build of the app.
const outsideEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV'));
/** A start with a fresh embedded database (migrations and demo data) on a current build. */
const START_BUDGET_MS = 30_000;

// `npm start` on a laptop, on the embedded database whatever DATABASE_URL says: CI's PostgreSQL pass
// leaves it to the embedded pass that timed it just before (it runs alone, about 35 s).
it.runIf(!process.env['DATABASE_URL'])(
  'serves within seconds on a current build, says the build was kept, and stops cleanly on a SIGTERM to npm alone',
  async () => {
    // Makes the build current first: in CI `npm test` has just built, elsewhere this may build once.
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cached.ts')], { cwd: root, stdio: 'ignore', timeout: 600_000, env: outsideEnv });
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-start-'));
    const output: string[] = [];
    const started = Date.now();
    const child = spawn('npm', ['start'], {
      cwd: root,
      detached: true,
      env: { ...outsideEnv, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REMINDERS: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    try {
      let serving = false;
      while (!serving && Date.now() - started < 120_000 && child.exitCode === null) {
        serving = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!serving) await new Promise((r) => setTimeout(r, 200));
      }
      const ms = Date.now() - started;
      expect(serving, output.join('')).toBe(true);
      expect(output.join('')).toContain('nothing the build reads changed since the last build');
      expect(ms, `npm start took ${ms} ms to serve`).toBeLessThan(START_BUDGET_MS);

      // `docker stop` and Kubernetes signal only the container's first process, here npm: the server
      // must get the signal and shut down (start script: `… && exec node …`), not be left running.
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const stopAt = Date.now();
      process.kill(child.pid as number, 'SIGTERM');
      const code = await exited;
      expect(code, output.join('')).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(10_000);
      for (let i = 0; i < 20 && !output.join('').includes('"msg":"shutting down"'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(output.join('')).toContain('"msg":"shutting down"');
      const stillServing = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        () => true,
        () => false,
      );
      expect(stillServing, 'the server outlived npm').toBe(false);
    } finally {
      // npm starts node in its own process: end the whole group.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // the whole group has exited
        }
      }
      await new Promise((r) => setTimeout(r, 500));
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  700_000,
);
