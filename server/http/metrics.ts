// Prometheus metrics at /metrics (issue 17): what a hospital's monitoring watches. Requests and their
// latency by route and status, writes applied and repeats answered again (a device replaying its
// queue), reminder passes (sent, failed, expired), the database pool, and Node's own (event-loop
// delay, memory, handles) from prom-client's default collectors.
//
// Off unless configured: METRICS_TOKEN (scrapers send `Authorization: Bearer <token>`) and/or
// METRICS_ALLOW (addresses or CIDR ranges the scraper connects from; with a proxy in front, set
// TRUST_PROXY so the address is the scraper's, not the proxy's). Anyone else gets 404, as if there
// were no such page. Each app has its own registry (tests run several apps in one process).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { addressAllowed, type AddressRange } from './address-ranges.ts';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Metrics {
  /** A patient write applied (`repeat`: a mutation id already applied, answered again). */
  write(route: string, repeat: boolean): void;
  /** One reminder pass. */
  reminderPass(counts: { sent: number; failed: number; expired: number }): void;
}

export const NO_METRICS: Metrics = { write: () => undefined, reminderPass: () => undefined };

export interface MetricsAccess {
  token: string | undefined;
  /** METRICS_ALLOW's ranges. */
  allow: readonly AddressRange[];
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Registers the collectors, the hooks that count requests and GET /metrics on `app`; returns what
 * services report through (AppContext.metrics). `pool` reads the database pool, when there is one.
 */
export function installMetrics(app: FastifyInstance, access: MetricsAccess, pool: (() => PoolStats) | undefined): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'eddy_http_requests_total', help: 'HTTP requests answered, by route and status', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'eddy_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const writes = new Counter({
    name: 'eddy_writes_total',
    help: 'Patient writes applied, directly or in a batch',
    labelNames: ['route'],
    registers: [registry],
  });
  const repeats = new Counter({
    name: 'eddy_write_repeats_total',
    help: 'Patient writes whose mutation id was already applied, answered with the first answer (replays)',
    labelNames: ['route'],
    registers: [registry],
  });
  const reminders = new Counter({
    name: 'eddy_reminders_total',
    help: 'Reminders by outcome of the passes (sent, failed, expired)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const passes = new Counter({ name: 'eddy_reminder_passes_total', help: 'Reminder passes run', registers: [registry] });
  if (pool) {
    new Gauge({
      name: 'eddy_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = pool();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    // The route's pattern (/api/glucose/:id), never the raw URL: a bounded set of labels.
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const byToken = access.token !== undefined && tokenMatches(req.headers.authorization, access.token);
    const byAddress = access.allow.length > 0 && addressAllowed(req.ip, access.allow);
    if (!byToken && !byAddress) return reply.status(404).send({ message: `Page not found: ${req.url.split('?')[0] ?? ''}` });
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });

  return {
    write(route, repeat) {
      writes.inc({ route });
      if (repeat) repeats.inc({ route });
    },
    reminderPass({ sent, failed, expired }) {
      passes.inc();
      reminders.inc({ outcome: 'sent' }, sent);
      reminders.inc({ outcome: 'failed' }, failed);
      reminders.inc({ outcome: 'expired' }, expired);
    },
  };
}
