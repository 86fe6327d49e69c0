// `npm run reminders -- --at <ISO time> [--dry-run]`: one scheduler pass as if it were that time.
// It sends what is due then (exactly as the server's own loop would: each reminder once, however
// many instances run) and prints it, so an operator can check a patient's plan; --dry-run prints
// the same without sending or writing anything. Opens the same database as the server; the
// embedded one only while the server is stopped.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DatabaseDamagedError, DatabaseInUseError, openDatabase } from '../db/client.ts';
import { localDate, localTime } from '../lib/time.ts';
import { createPushSender } from '../push/create-sender.ts';
import type { PushSender } from '../push/sender.ts';
import { resolvePushSettings } from '../push/settings.ts';
import { runReminderPass, type PassResult, type ReminderOutcome } from '../reminders/scheduler.ts';
import { isSevereLowPayload } from '../reminders/severe-low.ts';
import { errorMessage } from '../lib/errors.ts';

const USAGE = `Usage: npm run reminders -- [--at <ISO date and time>] [--dry-run]

Runs one reminder pass as if it were --at (default: now): plans the reminders due in the
30 minutes up to then, sends those not sent yet to the patients' devices, and prints each one.

  --at       an ISO 8601 instant with a zone, e.g. 2026-11-24T08:00:00Z or 2026-11-24T08:00+01:00
  --dry-run  print what would be sent; send nothing and change nothing`;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

const options = { at: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

// A dry run must not even look at push settings (that could generate and store VAPID keys).
const noSends = (config: Config): PushSender => ({
  provider: config.push.provider,
  send: () => Promise.reject(new Error('a dry run sends nothing')),
});

export function parseAt(value: string | undefined, now = new Date()): Date | undefined {
  if (value === undefined) return now;
  if (!ISO_INSTANT.test(value.trim())) return undefined;
  const at = new Date(value.trim());
  return Number.isNaN(at.getTime()) ? undefined : at;
}

function describeWhat(payload: ReminderOutcome['payload']): string {
  if (isSevereLowPayload(payload)) return `severe low ${payload.valueMgDl} mg/dL measured ${payload.measuredAt} (to the hospital's staff)`;
  const data = payload.data;
  if (data.type === 'glucometerAlert') return 'glucometer day';
  return `${data.medicineName}, dose ${data.dose}${payload.portion && payload.portion !== data.dose ? `: ${payload.portion}` : ''}${data.meal ? ` at ${data.meal}` : ` at ${data.time}`}${data.snoozed ? ' (remind later)' : ''}`;
}

function describe(o: ReminderOutcome): string {
  const when = `${localDate(o.dueAt, o.timeZone)} ${localTime(o.dueAt, o.timeZone)} ${o.timeZone} (${o.dueAt.toISOString().slice(11, 16)} UTC)`;
  const what = describeWhat(o.payload);
  const devices = o.status === 'due' ? `${o.devices} device${o.devices === 1 ? '' : 's'}` : `${o.reached}/${o.devices} device${o.devices === 1 ? '' : 's'}`;
  const status = { due: 'due', sent: 'sent', failed: 'FAILED', retry: 'RETRY' }[o.status];
  return `${status.padEnd(6)} ${when}  patient ${o.hospNo}  ${o.kind}  ${what}  → ${devices}${o.error && o.status !== 'sent' ? `  (${o.error})` : ''}`;
}

function summary(r: PassResult): string {
  const at = r.now.toISOString();
  if (r.dryRun) return `Dry run at ${at}: ${r.outcomes.length} reminder${r.outcomes.length === 1 ? '' : 's'} due; nothing was sent or written.`;
  const sent = r.outcomes.filter((o) => o.status === 'sent');
  const devices = sent.reduce((n, o) => n + o.reached, 0);
  const extra = [
    r.outcomes.length - sent.length > 0 ? `${r.outcomes.length - sent.length} not delivered` : '',
    r.expired > 0 ? `${r.expired} stale expired unsent` : '',
    r.removedDevices > 0 ? `${r.removedDevices} gone device${r.removedDevices === 1 ? '' : 's'} removed` : '',
  ].filter(Boolean);
  return `Pass at ${at}: sent ${sent.length} reminder${sent.length === 1 ? '' : 's'} to ${devices} device${devices === 1 ? '' : 's'}${extra.length ? ` (${extra.join(', ')})` : ''}.`;
}

export async function remindersCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: false, strict: true });
  } catch (err) {
    out(`${errorMessage(err)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(USAGE);
    return 0;
  }
  const at = parseAt(parsed.values.at);
  if (!at) {
    out(`--at "${parsed.values.at}" is not an ISO date and time with a zone\n\n${USAGE}`);
    return 2;
  }
  const dryRun = parsed.values['dry-run'] === true;
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 4 });
  try {
    await database.migrate();
    const sender = dryRun ? noSends(config) : createPushSender(await resolvePushSettings(config, database.db));
    const result = await runReminderPass({ db: database.db, sender }, at, { dryRun });
    for (const o of result.outcomes) out(describe(o));
    out(summary(result));
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  remindersCli(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      const known = err instanceof ConfigError || err instanceof DatabaseInUseError || err instanceof DatabaseDamagedError;
      process.stderr.write(`${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(known && err instanceof ConfigError ? 2 : 1);
    },
  );
}
