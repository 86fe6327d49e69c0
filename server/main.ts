// `npm start`: validate configuration, open and migrate the database, seed the demo data into a
// new embedded database, serve the API (and the built web app), and shut down cleanly on a signal.
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseDamagedError, DatabaseInUseError, openDatabase } from './db/client.ts';
import { closeConnectionsAfterAnswer } from './http/graceful-close.ts';
import { DEMO, isDemoSeeded, seedDemo } from './seed/demo.ts';

function shouldSeedDemo(config: Config): boolean {
  if (config.demo === false) return false;
  return config.databaseUrl ? config.demo === true : true;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax });
  } catch (err) {
    // Another process has the data folder, or its database does not open: what to do, not a stack.
    if (err instanceof DatabaseInUseError || err instanceof DatabaseDamagedError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  await database.migrate();

  let app;
  try {
    app = await buildApp({ config, database, reminders: config.reminders });
  } catch (err) {
    // Settings checked against the outside world (e.g. the FCM service-account file).
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      await database.close();
      process.exit(2);
    }
    throw err;
  }
  const seeded = shouldSeedDemo(config) ? await seedDemo(database.db, config.demoNow) : false;
  if (seeded) app.log.info('demo data seeded');

  // SIGTERM (an orchestrator, systemd, a load balancer's drain) or SIGINT: stop accepting connections
  // (a load balancer's health check then fails and it sends patients elsewhere), finish the requests
  // in flight and a reminder pass that is running, close the database, exit 0. At most 10 s.
  const drain = closeConnectionsAfterAnswer(app.server);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s: exiting anyway');
      process.exit(1);
    }, 10_000);
    force.unref();
    drain.begin();
    app.endChangeStreams();
    await app.close();
    await database.close();
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    shutdown(signal).catch((err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  const address = await app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? address.replace('://127.0.0.1', '://localhost');
  const lines = [`Eddy is running at ${url} (API ${url}/api, database: ${database.kind})`];
  if (await isDemoSeeded(database.db)) {
    lines.push(
      'Demo data is loaded. Demo credentials:',
      `  staff area: ${DEMO.admin.email} / ${DEMO.admin.password}`,
      ...DEMO.patients.map((p) => `  patient ${p.hospNo} (${p.name}): password ${p.password}, access key ${p.accessKey}`),
      `  one-time codes are mailed to the hospital's admins; without SMTP_URL they are files in ${config.dataDir}/outbox/`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Eddy failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
