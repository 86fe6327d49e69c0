// `npm run reminders` as an operator runs it: a separate process on the server's database (the
// embedded one in DATA_DIR, or PostgreSQL when DATABASE_URL is set), sending to a push-service
// peer on loopback.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { pushTokens, reminderJobs } from '../db/schema.ts';
import { projectRoot } from '../paths.ts';
import { medicineRepo } from '../repositories/medicines.ts';
import { patientRepo } from '../repositories/patients.ts';
import { copyPgliteTemplate } from '../testing/db-template.ts';
import { openTestDatabase, seedFixture, type Fixture } from '../testing/harness.ts';
import { startPushPeer, type PushPeer } from '../testing/push-peer.ts';

let dataDir: string;
let url: string | undefined;
let drop: (() => Promise<void>) | undefined;
let peer: PushPeer;
let fx: Fixture;

/** The database the CLI uses, opened by the test only while no CLI runs (PGlite is one process's). */
async function withDb<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: url, dataDir, poolMax: 2 });
  try {
    await database.migrate();
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'server', 'cli', 'reminders.ts'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url ?? '', PUSH_ALLOW_INSECURE_ENDPOINTS: '1', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-reminders-cli-'));
  peer = await startPushPeer();
  // A migrated embedded database to start from (a new one takes seconds to initialise).
  if (!process.env['DATABASE_URL']) await copyPgliteTemplate(dataDir);
  if (process.env['DATABASE_URL']) {
    const t = await openTestDatabase();
    url = t.url;
    await t.database.close();
    // The CLI opens it itself; the test drops it by name at the end.
    const name = new URL(url ?? '').pathname.slice(1);
    drop = async () => {
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  await withDb(async (db) => {
    fx = await seedFixture(db, 'Europe/Madrid');
    await medicineRepo.insert(db, { patientId: fx.patientA.id, prescrNo: 'RX-CLI', name: 'Metformin 500 mg tablet', dose: '1-0-1' });
    await patientRepo.update(db, fx.patientA.id, { glucometerAlerts: ['2026-12-01'] });
    await db.insert(pushTokens).values({ patientId: fx.patientA.id, provider: 'webpush', token: JSON.stringify(peer.subscribe('phone')), locale: 'en' });
  });
}, 120_000);
afterAll(async () => {
  await peer.close();
  await drop?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm run reminders', () => {
  it('--dry-run prints the plan at that time, and sends and writes nothing', async () => {
    const res = await cli(['--at', '2026-12-01T08:05:00+01:00', '--dry-run']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      `due    2026-12-01 08:00 Europe/Madrid (07:00 UTC)  patient ${fx.patientA.hospNo}  glucometerAlert  glucometer day  → 1 device`,
      `due    2026-12-01 08:00 Europe/Madrid (07:00 UTC)  patient ${fx.patientA.hospNo}  medicine  Metformin 500 mg tablet, dose 1-0-1: 1 at breakfast  → 1 device`,
      'Dry run at 2026-12-01T07:05:00.000Z: 2 reminders due; nothing was sent or written.',
    ]);
    expect(peer.requests).toEqual([]);
    expect(await withDb((db) => db.select().from(reminderJobs))).toEqual([]);
  });

  it('sends what is due, prints each reminder with the devices reached, and never sends it twice', async () => {
    const res = await cli(['--at', '2026-12-01T07:05:00Z']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      `sent   2026-12-01 08:00 Europe/Madrid (07:00 UTC)  patient ${fx.patientA.hospNo}  glucometerAlert  glucometer day  → 1/1 device`,
      `sent   2026-12-01 08:00 Europe/Madrid (07:00 UTC)  patient ${fx.patientA.hospNo}  medicine  Metformin 500 mg tablet, dose 1-0-1: 1 at breakfast  → 1/1 device`,
      'Pass at 2026-12-01T07:05:00.000Z: sent 2 reminders to 2 devices.',
    ]);
    expect(
      peer
        .of('phone')
        .map((r) => (r.json['data'] as { type: string }).type)
        .sort(),
    ).toEqual(['glucometerAlert', 'medicine']);

    const again = await cli(['--at', '2026-12-01T07:20:00Z']);
    expect(again.stdout.trim()).toBe('Pass at 2026-12-01T07:20:00.000Z: sent 0 reminders to 0 devices.');
    expect(peer.requests).toHaveLength(2);
    expect((await withDb((db) => db.select().from(reminderJobs))).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it.each([[['--at', 'tomorrow']], [['--at', '2026-12-01T08:00']], [['--at', '2026-13-01T08:00:00Z']], [['--when', 'now']], [['extra']]])(
    'refuses %j with the usage and exit code 2',
    async (args) => {
      const res = await cli(args);
      expect(res.code).toBe(2);
      expect(res.stdout).toMatch(/Usage: npm run reminders -- \[--at <ISO date and time>\] \[--dry-run\]/);
    },
  );

  it('says clearly that the embedded database is in use while the server runs', async () => {
    const busy = await mkdtemp(path.join(tmpdir(), 'eddy-reminders-busy-'));
    try {
      // The lock a running server holds, with a live process id (this test's).
      await writeFile(path.join(busy, 'eddy.lock'), String(process.pid));
      const res = await cli(['--at', '2026-12-01T07:05:00Z', '--dry-run'], { DATA_DIR: busy, DATABASE_URL: '' });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(new RegExp(`The embedded database in .* is in use by process ${process.pid}\\. Stop the server`));
    } finally {
      await rm(busy, { recursive: true, force: true });
    }
  });
});
