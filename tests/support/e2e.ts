// Shared set-up of the end-to-end tests: the real server (built app, embedded database) as a child
// process that a test can kill and restart, and Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '../..');

/** Why the end-to-end tests cannot run here, or undefined when they can. */
export function e2eUnavailable(): string | undefined {
  if (!existsSync(chromiumPath)) return `no Chromium at ${chromiumPath} (set CHROMIUM_PATH or install Debian's chromium)`;
  if (!existsSync(path.join(root, 'dist', 'index.html'))) return 'the web app is not built (npm run build)';
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  cleanup(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${log.join('')}`);
}

/** Starts `node server/main.ts` on a fresh embedded database with the demo data. */
export async function startServer(): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  const log: string[] = [];
  const launch = async () => {
    child = spawn(process.execPath, [path.join(root, 'server', 'main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
    await waitHealthy(url, child, log);
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    await exited;
  };
  await launch();
  return {
    url,
    port,
    dataDir,
    stop,
    restart: launch,
    async cleanup() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/** Logs in through the API (not the UI) to check what the server holds. */
export async function apiLogin(url: string, hospNo: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/loginWithPassword`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hospNo, password }) });
  const json = (await res.json()) as { token?: string };
  if (!json.token) throw new Error(`login failed: ${res.status}`);
  return json.token;
}

export interface ServerReading {
  _id: string;
  type: string;
  value: number;
  recordedAt: string;
}

export async function serverReadings(url: string, token: string): Promise<ServerReading[]> {
  const res = await fetch(`${url}/api/glucose`, { headers: { authorization: `Bearer ${token}` } });
  const json = (await res.json()) as Record<string, ServerReading[]>;
  return [...(json['fasting'] ?? []), ...(json['postprandial'] ?? []), ...(json['random'] ?? [])];
}
