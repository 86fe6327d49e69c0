// Builds the Fastify application. It holds no state of its own beyond the database handle, so any
// number of instances can serve the same PostgreSQL database behind a load balancer.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyServerOptions, type RawServerDefault } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { HttpError } from './http/errors.ts';
import { installMetrics, NO_METRICS } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { installResponseCheck } from './http/response-check.ts';
import { databaseRateLimitStore } from './services/rate-limit-store.ts';
import { registerStaticFiles } from './http/static-files.ts';
import { isAppPage, isInAppSection } from './http/app-routes.ts';
import { describeAjvError, pickAjvError } from './http/validation-message.ts';
import { validatorCompiler } from './http/validator.ts';
import { unsafeTextProblem } from './http/plain-text.ts';
import { requestForLog } from './http/log-fields.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createPushSender } from './push/create-sender.ts';
import { resolvePushSettings } from './push/settings.ts';
import { startReminderLoop, type ReminderLoop } from './reminders/loop.ts';
import { runReminderPass } from './reminders/scheduler.ts';
import { projectRoot, webRoot } from './paths.ts';
import { registerRoutes } from './routes/index.ts';
import { ChangeFeed } from './services/change-feed.ts';
import { scheduleHousekeeping } from './services/housekeeping.ts';
import { ListCache } from './services/list-cache.ts';
import { useReportPool } from './reports/pool.ts';

export type App = FastifyInstance;
export type TypedApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, JsonSchemaToTsProvider>;

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Where the server's own logger writes (default stdout); tests read what it logs. */
  logStream?: { write(line: string): void };
  mailer?: Mailer;
  /**
   * Run the reminder scheduler in this process (main.ts passes REMINDERS; tests opt in when they
   * want the loop itself, and otherwise run passes explicitly).
   */
  reminders?: boolean;
  /** The built web app's folder (default dist/); tests serve one of their own. */
  webRoot?: string;
  /**
   * Check every API answer against its route's declared shape (http/response-check.ts): on in the
   * server tests, off in production.
   */
  checkResponses?: boolean;
}

// The project's own package.json, shipped with this code: its shape is known, not checked.
const APP_VERSION = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

declare module 'fastify' {
  interface FastifyInstance {
    /** Ends every live change stream open here (routes/changes.ts): call before close(). */
    endChangeStreams(): void;
  }
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel, serializers: { req: requestForLog }, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    trustProxy: config.trustProxy,
    bodyLimit: 256 * 1024,
    schemaErrorFormatter: (errors, dataVar) => {
      const where = dataVar === 'querystring' ? 'query' : dataVar;
      const error = pickAjvError(errors);
      return new HttpError(400, error ? describeAjvError(error, where) : `${where} is not valid`);
    },
  });

  app.setValidatorCompiler(validatorCompiler());

  const metricsOn = config.metricsToken !== undefined || config.metricsAllow.length > 0;
  const metrics = metricsOn ? installMetrics(app, { token: config.metricsToken, allow: config.metricsAllow }, database.poolStats) : NO_METRICS;
  // Off: a plain 404, never the web app's page that unknown paths get.
  if (!metricsOn) app.get('/metrics', { schema: { hide: true } }, (_req, reply) => reply.status(404).send({ message: 'Page not found: /metrics' }));

  // Started at the end, once the routes are in place; ctx.wakeScheduler reaches it from then on.
  let reminders: ReminderLoop | undefined;
  const ctx: AppContext = {
    db: database.db,
    dbKind: database.kind,
    config,
    mailer: opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: app.log }),
    log: app.log,
    push: await resolvePushSettings(config, database.db),
    lists: new ListCache(config.listCacheMb * 1024 * 1024),
    changes: new ChangeFeed(database.db, app.log),
    metrics,
    wakeScheduler: () => reminders?.wake(),
  };

  // Clients send `Content-Type: application/json` even on calls without a body (validate, logout):
  // an empty body is "no body", not a parse error.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    // The default parser answers through `done` and returns nothing; its type is both parser styles'.
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- callback style, see above
    jsonParser(req, text, done);
  });

  // Control characters and text-direction overrides are refused in every text of a request, the
  // writes inside a batch included (plain-text.ts); PostgreSQL could not even hold U+0000.
  // A batch checks each of its writes itself, so one write refused leaves the ones before it applied.
  app.addHook('preValidation', async (req) => {
    const body = req.routeOptions.url === '/api/batch' ? undefined : req.body;
    const problem = unsafeTextProblem(body, 'body') ?? unsafeTextProblem(req.query, 'query');
    if (problem) throw new HttpError(400, problem);
  });

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    const status = err.statusCode ?? 500;
    // Our own HttpErrors carry messages written for people, 5xx included (e.g. mail is down).
    if (err instanceof HttpError) return reply.status(status).send(err.body());
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send({ message: 'Internal Server Error' });
    }
    // Fastify's own 4xx (bad JSON, wrong content type, body too large) carry safe messages.
    return reply.status(status).send({ message: err.message });
  });

  const root = opts.webRoot ?? webRoot;
  const hasWebApp = existsSync(path.join(root, 'index.html'));
  app.setNotFoundHandler((req, reply) => {
    const pathOnly = req.url.split('?')[0] ?? req.url;
    if (pathOnly.startsWith('/api/') || pathOnly === '/api') return reply.status(404).send({ message: `Not found: ${req.method} ${pathOnly}` });
    // The app's page for its own routes; a mistyped page under the app's sections gets it too, as a
    // 404, so the app can say "page not found". Anything else (/.env, /metrics, a scanner's probe) is a plain 404.
    if (hasWebApp && req.method === 'GET' && !path.extname(pathOnly)) {
      if (isAppPage(pathOnly)) return reply.sendFile('index.html');
      if (isInAppSection(pathOnly)) return reply.status(404).sendFile('index.html');
    }
    return reply.status(404).send({ message: `Page not found: ${pathOnly}` });
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(ctx.db),
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: (_req, context) => new HttpError(429, `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
  });

  // Read by the staff sign-in through an identity provider (routes/admin-oidc.ts) and nothing else.
  await app.register(cookie);

  await registerOpenApi(app, { version: APP_VERSION });
  if (opts.checkResponses) installResponseCheck(app);

  app.decorateRequest('principal', null);
  app.decorateRequest('subject', null);

  await app.register(
    (api, _o, done) => {
      registerRoutes(api.withTypeProvider<JsonSchemaToTsProvider>(), ctx);
      done();
    },
    { prefix: '/api' },
  );

  if (hasWebApp) await registerStaticFiles(app, root);

  const stopHousekeeping = scheduleHousekeeping(ctx);
  if (opts.reminders) {
    const deps = { db: ctx.db, sender: createPushSender(ctx.push), log: app.log };
    const pass = async (now: Date) => {
      const result = await runReminderPass(deps, now);
      const sent = result.outcomes.filter((o) => o.status === 'sent').length;
      metrics.reminderPass({ sent, failed: result.outcomes.filter((o) => o.status === 'failed').length, expired: result.expired });
      return result;
    };
    reminders = startReminderLoop(pass, config.reminderIntervalSeconds * 1000, app.log);
  }
  await ctx.changes.start(database);
  // Called before close() (main.ts): the HTTP server waits for every answer to finish, and a change
  // stream never finishes on its own. Not a preClose hook: while one runs, Fastify answers the
  // connections it still accepts with 503, which the balancer does not retry (the restart test met it).
  app.decorate('endChangeStreams', () => ctx.changes.endAll());
  const closeReports = useReportPool();
  app.addHook('onClose', async () => {
    await ctx.changes.stop();
    await closeReports();
    await reminders?.stop();
    stopHousekeeping();
    ctx.mailer.close();
  });
  return app;
}
