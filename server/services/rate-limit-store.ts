// A store for @fastify/rate-limit that keeps counters in the database, so that several server
// instances behind a load balancer share one limit per client and route.
import type { Db } from '../db/client.ts';
import { rateLimitRepo } from '../repositories/rate-limits.ts';

type IncrCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

export function databaseRateLimitStore(db: Db) {
  return class DatabaseStore {
    readonly prefix: string;
    constructor(options: object = {}) {
      // At run time the plugin passes its merged options, which carry `routeInfo` (the route's
      // options, or {} for the global limit); its type of them does not say so.
      const r = 'routeInfo' in options && typeof options.routeInfo === 'object' && options.routeInfo !== null ? options.routeInfo : {};
      const url = 'url' in r && typeof r.url === 'string' ? r.url : '';
      this.prefix = url ? `${String('method' in r ? r.method : undefined)} ${url}|` : 'global|';
    }

    incr(key: string, cb: IncrCallback, timeWindow: number): void {
      rateLimitRepo.hit(db, this.prefix + key, timeWindow).then(
        ({ count, resetAt }) => cb(null, { current: count, ttl: Math.max(0, resetAt.getTime() - Date.now()) }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: object) {
      return new DatabaseStore(routeOptions);
    }
  };
}
