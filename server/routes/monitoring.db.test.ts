// What a hospital's monitoring reads (issue 17): /metrics for those allowed, /api/ready beside the
// liveness /api/health.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginPatient, seedFixture, type Harness } from '../testing/harness.ts';

const TOKEN = 'scrape-me-please-0123456789';

/** The value of one sample line of a Prometheus text page, or undefined. */
function sample(page: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics with a token', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness({ METRICS_TOKEN: TOKEN }, { reminders: true });
    const fx = await seedFixture(h.db);
    token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  });
  afterAll(() => h.close());

  const scrape = (authorization?: string) => h.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('answers only a scraper with the token; anyone else finds no such page', async () => {
    expect((await scrape()).statusCode).toBe(404);
    expect((await scrape('Bearer wrong-token-of-some-length')).statusCode).toBe(404);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(404);
    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts requests by route pattern and status, writes and their repeats, and reminder passes', async () => {
    await call(h.app, 'GET', '/api/health');
    await call(h.app, 'GET', '/api/glucose', { token });
    await call(h.app, 'GET', '/api/glucose', {});
    const body = { type: 'Fasting', value: 101, mutationId: `metrics-device:${Date.now()}` };
    expect((await call(h.app, 'POST', '/api/glucose/add', { token, body })).status).toBe(201);
    // A replay of the same write: answered with the first answer, not applied again.
    const again = await call(h.app, 'POST', '/api/glucose/add', { token, body });
    expect(again.status).toBe(201);
    expect(again.headers['x-mutation-repeat']).toBe('1');
    const batch = await call(h.app, 'POST', '/api/batch', {
      token,
      body: { mutations: [{ path: '/glucose/add', body: { _id: randomUUID(), type: 'Random', value: 140 } }] },
    });
    expect(batch.status).toBe(200);
    await h.app.inject({ method: 'GET', url: '/api/no-such-thing' });

    // The server's own loop runs its first pass at start: wait for it to be counted.
    let page = '';
    for (let i = 0; i < 100 && !(sample(page, 'eddy_reminder_passes_total') ?? 0); i++) {
      page = (await scrape(`Bearer ${TOKEN}`)).body;
      if (!(sample(page, 'eddy_reminder_passes_total') ?? 0)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sample(page, 'eddy_http_requests_total', { route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(page, 'eddy_http_requests_total', { route: '/api/glucose', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(page, 'eddy_http_requests_total', { route: '/api/glucose', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(sample(page, 'eddy_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(page).not.toContain('no-such-thing');
    expect(sample(page, 'eddy_http_request_duration_seconds_count', { route: '/api/glucose/add', status: '201' })).toBe(2);
    expect(sample(page, 'eddy_writes_total', { route: '/api/glucose/add' })).toBe(3);
    expect(sample(page, 'eddy_write_repeats_total', { route: '/api/glucose/add' })).toBe(1);
    expect(sample(page, 'eddy_reminder_passes_total')).toBeGreaterThanOrEqual(1);
    expect(sample(page, 'eddy_reminders_total', { outcome: 'sent' })).toBe(0);
    if (h.databaseUrl) expect(sample(page, 'eddy_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    else expect(page).not.toContain('eddy_db_pool_connections');
  });
});

describe('metrics by address, and off by default', () => {
  it('answers scrapers from METRICS_ALLOW only', async () => {
    const h = await createHarness({ METRICS_ALLOW: '10.0.0.0/8, ::1' });
    try {
      const from = (remoteAddress: string) => h.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect((await from('10.20.30.40')).statusCode).toBe(200);
      expect((await from('::ffff:10.20.30.40')).statusCode).toBe(200);
      expect((await from('::1')).statusCode).toBe(200);
      expect((await from('127.0.0.1')).statusCode).toBe(404);
      expect((await from('192.168.1.10')).statusCode).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('has no /metrics unless configured (a 404, not the web app)', async () => {
    const web = await mkdtemp(path.join(tmpdir(), 'eddy-web-'));
    await writeFile(path.join(web, 'index.html'), '<!doctype html><title>app</title>');
    const h = await createHarness({}, { webRoot: web });
    try {
      expect((await h.app.inject({ method: 'GET', url: '/app/reports' })).statusCode).toBe(200);
      const res = await h.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<title>');
    } finally {
      await h.close();
      await rm(web, { recursive: true, force: true });
    }
  });
});

describe('readiness', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('is ready with the database up and every migration applied, and says what is missing otherwise', async () => {
    const ready = await call(h.app, 'GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.json).toMatchObject({ status: 'ready', database: 'ok', migrations: 'ok' });
    expect(ready.headers['cache-control']).toBe('no-store');

    // As if this code met a database one migration behind it.
    await h.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    const behind = await call(h.app, 'GET', '/api/ready');
    expect(behind.status).toBe(503);
    expect(behind.json).toMatchObject({ status: 'not ready', database: 'ok' });
    expect(String(behind.json['migrations'])).toMatch(/^not applied: \d{4}_[a-z-]+/);
    // Liveness is another question: the process and the database still answer.
    expect((await call(h.app, 'GET', '/api/health')).status).toBe(200);
  });
});
