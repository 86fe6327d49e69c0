// nginx for the scale-out test through nginx: the documented site (deploy/nginx.conf) with only its
// addresses, its port and TLS replaced (loopback, plain HTTP), run in the foreground inside a
// minimal main configuration of its own. The answer names the instance it came from
// (X-Upstream-Addr, added here only: the documented file does not tell clients its addresses).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { programPath, replaceOnce as replaceDocumentedOnce, type Backend } from './haproxy.ts';
import { freePort } from './ports.ts';
import { root, waitFor } from './server-process.ts';

export const NGINX_CONFIG = path.join(root, 'deploy', 'nginx.conf');

/** The nginx program, or undefined when not installed. */
export const nginxBinary = (): string | undefined => programPath('nginx');

const replaceOnce = (text: string, pattern: RegExp, replacement: string) => replaceDocumentedOnce(text, pattern, replacement, 'deploy/nginx.conf');

/** deploy/nginx.conf for loopback: the site on `port` in plain HTTP, each instance on its port, no redirect from port 80. */
export function testSite(documented: string, port: number, backends: Backend[]): string {
  let site = replaceOnce(documented, /^(\s*)listen 443 ssl http2;$/m, `$1listen 127.0.0.1:${port};\n$1add_header X-Upstream-Addr $upstream_addr always;`);
  site = replaceOnce(site, /^\s*ssl_certificate\s.*\n/m, '');
  site = replaceOnce(site, /^\s*ssl_certificate_key\s.*\n/m, '');
  // The port-80 server only redirects to HTTPS, which the test has none of.
  site = replaceOnce(site, /\nserver \{\n\s*listen 80;[\s\S]*?\n\}\n?/, '\n');
  const servers = site.match(/^\s*server \d+\.\d+\.\d+\.\d+:\d+ .*$/gm) ?? [];
  if (servers.length !== backends.length) throw new Error(`deploy/nginx.conf names ${servers.length} instances; the test runs ${backends.length}`);
  backends.forEach((b, i) => {
    site = site.replace(servers[i] ?? '', (servers[i] ?? '').replace(/\d+\.\d+\.\d+\.\d+:\d+/, `127.0.0.1:${b.port}`));
  });
  return site;
}

export interface Nginx {
  url: string;
  port: number;
  log(): string;
  stop(): Promise<void>;
}

export async function startNginx(bin: string, backends: Backend[]): Promise<Nginx> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eddy-nginx-'));
  await mkdir(path.join(dir, 'logs'));
  const port = await freePort();
  const site = testSite(await readFile(NGINX_CONFIG, 'utf8'), port, backends);
  await writeFile(path.join(dir, 'eddy.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${path.join(dir, `${k}_temp`)};`).join('\n');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'logs', 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      temp,
      `  include ${path.join(dir, 'eddy.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const output: string[] = [];
  // -e: the log before the configuration is read (Debian's default, /var/log/nginx, may not be writable).
  const child = spawn(bin, ['-p', dir, '-e', path.join(dir, 'logs', 'startup.log'), '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = async () => {
    const files = await Promise.all(['startup.log', 'error.log'].map((f) => readFile(path.join(dir, 'logs', f), 'utf8').catch(() => '')));
    return files.join('');
  };
  let logged = '';
  const proxy: Nginx = {
    url: `http://127.0.0.1:${port}`,
    port,
    log: () => output.join('') + logged,
    async stop() {
      logged = await errorLog();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      () => `nginx to answer; it printed:\n${proxy.log()}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${proxy.log()}${await errorLog()}`);
        const res = await fetch(`${proxy.url}/api/health`).catch(() => undefined);
        return res?.status === 200;
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
