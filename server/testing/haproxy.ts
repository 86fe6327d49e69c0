// HAProxy for the scale-out test: the documented configuration (deploy/haproxy.cfg) with only its
// addresses, ports and runtime socket replaced, run in the foreground, and its runtime API
// (`show stat`) to see which instance is up and which has a request in flight.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';
import { root, waitFor } from './server-process.ts';

export const HAPROXY_CONFIG = path.join(root, 'deploy', 'haproxy.cfg');

/** A program in /usr/sbin (where Debian's packages put daemons), /usr/local/sbin or on PATH; undefined when not installed. */
export function programPath(name: string): string | undefined {
  const dirs = ['/usr/sbin', '/usr/local/sbin', ...(process.env['PATH'] ?? '').split(path.delimiter)];
  return dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

/** The haproxy program, or undefined when not installed. */
export const haproxyBinary = (): string | undefined => programPath('haproxy');

export interface Backend {
  /** As named in deploy/haproxy.cfg: eddy1, eddy2. */
  name: string;
  port: number;
}

/** `pattern` replaced where it matches exactly once in the documented file `file` (else the test's template is out of date). */
export function replaceOnce(text: string, pattern: RegExp, replacement: string, file = 'deploy/haproxy.cfg'): string {
  const found = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? [];
  if (found.length !== 1) throw new Error(`${file}: expected one line matching ${pattern}, found ${found.length}: the test templates that line`);
  return text.replace(pattern, replacement);
}

/** deploy/haproxy.cfg for loopback: the frontend on `port`, each instance on its port, the socket in `socket`. */
export function testConfig(documented: string, port: number, backends: Backend[], socket: string): string {
  let cfg = replaceOnce(documented, /^(\s*)bind :80$/m, `$1bind 127.0.0.1:${port}`);
  cfg = replaceOnce(cfg, /^(\s*stats socket )\/run\/haproxy\/admin\.sock /m, `$1${socket} `);
  for (const b of backends) cfg = replaceOnce(cfg, new RegExp(`^(\\s*server ${b.name} )\\S+( .*)$`, 'm'), `$1127.0.0.1:${b.port}$2`);
  const servers = cfg.match(/^\s*server .*$/gm) ?? [];
  if (servers.length !== backends.length) throw new Error(`deploy/haproxy.cfg names ${servers.length} instances; the test runs ${backends.length}`);
  return cfg;
}

/** One row of `show stat`: a frontend, a backend or one of its servers, by the CSV's column names. */
export type StatRow = Record<string, string>;

export interface Haproxy {
  url: string;
  port: number;
  /** A command of the runtime API and its answer. */
  command(line: string): Promise<string>;
  /** The rows of `show stat` of the instances (proxy "eddy"), by server name. */
  servers(): Promise<Map<string, StatRow>>;
  log(): string;
  stop(): Promise<void>;
}

function runtimeCommand(socket: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(socket);
    let out = '';
    s.on('data', (d: Buffer) => (out += d.toString()));
    s.on('end', () => resolve(out));
    s.on('error', reject);
    s.write(`${line}\n`);
  });
}

export async function startHaproxy(bin: string, backends: Backend[]): Promise<Haproxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eddy-haproxy-'));
  const port = await freePort();
  const socket = path.join(dir, 'admin.sock');
  const cfgFile = path.join(dir, 'haproxy.cfg');
  await writeFile(cfgFile, testConfig(await readFile(HAPROXY_CONFIG, 'utf8'), port, backends, socket));
  const output: string[] = [];
  // -db: stay in the foreground, logging to stdout as the configuration says.
  const child = spawn(bin, ['-db', '-f', cfgFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const command = (line: string) => runtimeCommand(socket, line);
  const proxy: Haproxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    command,
    async servers() {
      const [head = '', ...lines] = (await command('show stat')).trim().split('\n');
      const columns = head.replace(/^# /, '').split(',');
      const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i] ?? String(i), v])));
      return new Map(rows.filter((r) => r['pxname'] === 'eddy' && r['svname'] !== 'FRONTEND' && r['svname'] !== 'BACKEND').map((r) => [r['svname'] ?? '', r]));
    },
    log: () => output.join(''),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    // Up when every instance has passed its readiness check.
    await waitFor(
      () => `HAProxy to see every instance ready; it printed:\n${proxy.log()}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${proxy.log()}`);
        const servers = await proxy.servers().catch(() => undefined);
        return servers !== undefined && backends.every((b) => servers.get(b.name)?.['status'] === 'UP' && servers.get(b.name)?.['check_status'] === 'L7OK');
      },
      20_000,
      100,
    );
  } catch (err) {
    await proxy.stop();
    throw err;
  }
  return proxy;
}
