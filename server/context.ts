import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db, DbKind } from './db/client.ts';
import type { Metrics } from './http/metrics.ts';
import type { Mailer } from './mail/mailer.ts';
import type { PushSettings } from './push/settings.ts';
import type { ChangeFeed } from './services/change-feed.ts';
import type { ListCache } from './services/list-cache.ts';

/** What services need from the running server; built once in app.ts. */
export interface AppContext {
  db: Db;
  dbKind: DbKind;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  push: PushSettings;
  /** The whole lists of patients' records last sent, kept while unchanged. */
  lists: ListCache;
  /** Which patients' records changed, from any instance, for the live change streams (routes/changes.ts). */
  changes: ChangeFeed;
  /** What /metrics counts beyond requests (NO_METRICS when metrics are off). */
  metrics: Metrics;
  /**
   * Asks this instance's reminder scheduler for a pass soon (a write queued a severe-low alert);
   * nothing when the scheduler does not run here (another instance, or `npm run reminders`, sends it).
   */
  wakeScheduler(): void;
}
