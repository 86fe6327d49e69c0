// Two server instances on one PostgreSQL database behind a real nginx running the documented site
// (deploy/nginx.conf), as server/scale-out.db.test.ts does behind HAProxy: the site passes the
// API on, and the live change stream (issue 46) event by event — a stream one instance serves
// hears, within a second, a write the other took; with that instance gone, the stream opened again
// through nginx is served by the other and hears the next write.
//
// Runs in CI's PostgreSQL pass (DATABASE_URL). Without nginx it fails in CI (.ci/run installs
// Debian's nginx-light) and is skipped elsewhere, saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDelays, openEventStream, type EventStream } from './testing/event-stream.ts';
import { nginxBinary, startNginx, testSite, type Nginx } from './testing/nginx.ts';
import { call, login, prepareDatabase, startServerProcess, type PreparedDatabase, type ServerProcess } from './testing/server-process.ts';

const postgres = process.env['DATABASE_URL'];
const nginx = nginxBinary();
const skipped = !postgres
  ? 'needs PostgreSQL: set DATABASE_URL, as CI’s PostgreSQL pass does'
  : !nginx && process.env['CI'] !== 'true'
    ? 'needs nginx (apt-get install nginx-light)'
    : undefined;

/** The change stream through nginx, and the port of the instance serving it (nginx's X-Upstream-Addr). */
async function openStream(base: string, token: string): Promise<EventStream & { port: number }> {
  const stream = await openEventStream(base, token);
  expect(stream.res.status).toBe(200);
  return { ...stream, port: Number(/:(\d+)$/.exec(stream.res.headers.get('x-upstream-addr') ?? '')?.[1]) };
}

describe('the documented nginx site, templated for the test', () => {
  it('keeps everything but the addresses, the port and TLS', async () => {
    const { readFile } = await import('node:fs/promises');
    const { NGINX_CONFIG } = await import('./testing/nginx.ts');
    const site = testSite(await readFile(NGINX_CONFIG, 'utf8'), 8080, [
      { name: 'eddy1', port: 4001 },
      { name: 'eddy2', port: 4002 },
    ]);
    expect(site).toContain('listen 127.0.0.1:8080;');
    expect(site).toMatch(/server 127\.0\.0\.1:4001 max_fails=1 fail_timeout=5s;/);
    expect(site).toMatch(/server 127\.0\.0\.1:4002 max_fails=1 fail_timeout=5s;/);
    const directives = site.replace(/#.*$/gm, '');
    expect(directives).not.toMatch(/ssl_certificate|listen 80;|listen 443/);
    // The stream's own location, unbuffered, stays as documented.
    expect(site).toMatch(/location = \/api\/changes \{[^}]*proxy_buffering off;/);
  });
});

describe.skipIf(skipped !== undefined)(`two server instances behind nginx on one PostgreSQL${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  let db: PreparedDatabase;
  let instances: ServerProcess[] = [];
  let proxy: Nginx;
  let token: string;

  beforeAll(async () => {
    if (!nginx) throw new Error('nginx is not installed: the nginx scale-out test needs it in CI (.ci/run installs Debian’s nginx-light)');
    db = await prepareDatabase('eddy-nginx', postgres);
    const env = { ...db.env, TRUST_PROXY: '1' };
    instances = await Promise.all([startServerProcess('eddy1', env), startServerProcess('eddy2', env)]);
    proxy = await startNginx(
      nginx,
      instances.map((i) => ({ name: i.name, port: i.port })),
    );
    const { patientA } = db.fixture;
    token = await login(proxy.url, patientA.hospNo, patientA.password);
  }, 120_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(instances.map((i) => i.kill()));
    await db?.drop();
  });

  it('passes the API on to both instances', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await call(proxy.url, '/api/glucose', { token });
      expect(res.status).toBe(200);
      served.add(String(res.headers['x-upstream-addr']));
    }
    expect(served.size).toBe(2);
  });

  it('streams the live changes event by event: a stream one instance serves hears, within a second, a write the other took; after that instance dies, the stream opened again hears the next (issue 46)', async () => {
    const first = await openStream(proxy.url, token);
    let second: (EventStream & { port: number }) | undefined;
    try {
      await first.until(/event: ready/, 5_000);
      const serving = instances.find((i) => i.port === first.port);
      const other = instances.find((i) => i.port !== first.port);
      if (!serving || !other) throw new Error(`the stream's instance is not known (X-Upstream-Addr port ${first.port})`);
      const wrote = Date.now();
      const write = await call(other.url, '/api/glucose/add', { token, body: { type: 'Random', value: 188 } });
      expect(write.status, write.text).toBe(201);
      await first.until(/event: change/, 1_000);
      expect(Date.now() - wrote).toBeLessThan(1_000);
      // Each event passes at once, not held back for more to send with it.
      const delays = await eventDelays(
        first,
        async (i) => {
          const res = await call(other.url, '/api/glucose/add', { token, body: { type: 'Random', value: 150 + i } });
          expect(res.status, res.text).toBe(201);
        },
        5,
      );
      expect(delays[2], `write to event, ms: ${delays.map(Math.round).join(', ')}`).toBeLessThan(180);

      // The stream's instance dies: the device opens the stream again through nginx, which tries
      // the dead instance, fails over to the other (proxy_next_upstream error) and serves it there.
      await serving.kill();
      first.close();
      second = await openStream(proxy.url, token);
      expect(second.port).toBe(other.port);
      await second.until(/event: ready/, 5_000);
      const again = Date.now();
      const next = await call(proxy.url, '/api/glucose/add', { token, body: { type: 'Random', value: 189 } });
      expect(next.status, next.text).toBe(201);
      await second.until(/event: change/, 1_000);
      expect(Date.now() - again).toBeLessThan(1_000);
    } finally {
      first.close();
      second?.close();
    }
  }, 60_000);
});
