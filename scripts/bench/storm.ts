// `reconnectStorm` of `npm run bench` (issue 15, docs/requirements.md §11): a ward's Wi-Fi comes back and 500
// devices, each with 20 glucose readings written offline, reconnect within one second and empty
// their outboxes against the real server on PostgreSQL.
//
// Each device is a patient of its own with a live session (made directly in the database: the
// storm is about reconnecting, and 500 password logins would measure password hashing). It sends
// its writes one after another as the app's outbox does (sync/drain.ts): each with its own `_id`
// and mutation id, and after a failure (no answer, a timeout, a 5xx or a 429) the same request
// again after a back-off, so a write is never made twice by the device. Afterwards the server's own
// rows are compared with what each device wrote.
//
// The figure: { devices, writes, drainedMs (first reconnect to the last write answered), errors
// (failed attempts: no answer, timeout, 5xx, 429), lost (a write not on the server, or not with its
// value and time), duplicated (rows on the server that no write explains, or a write stored twice) }.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, inArray, isNull } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client.ts';
import { glucoseReadings, hospitals, patients, sessions } from '../../server/db/schema.ts';
import { sha256 } from '../../server/lib/crypto.ts';
import { startServer } from '../../tests/fixtures/server.ts';

export interface StormFigure {
  devices: number;
  writes: number;
  drainedMs: number;
  errors: number;
  lost: number;
  duplicated: number;
}

export interface StormOptions {
  devices?: number;
  writesEach?: number;
  /** The window in which the devices reconnect, in ms (1,000 by default). */
  withinMs?: number;
  postgresUrl?: string;
  log?: (line: string) => void;
}

export interface Write {
  _id: string;
  mutationId: string;
  type: 'Fasting' | 'Postprandial' | 'Random';
  value: number;
  recordedAt: string;
}

export interface Device {
  patientId: string;
  token: string;
  deviceId: string;
  writes: Write[];
}

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
/** As sync/drain.ts: give up on an answer after 15 s, and wait longer after each failure. */
const REQUEST_TIMEOUT_MS = 15_000;
const backoff = (failures: number) => Math.min(5_000, 250 * 2 ** (failures - 1));
/** A device that cannot empty its outbox in this time fails the benchmark (it would hang otherwise). */
const GIVE_UP_MS = 5 * 60_000;

const TYPES = ['Fasting', 'Postprandial', 'Random'] as const;

function offlineWrites(n: number, device: number, now: number): Write[] {
  return Array.from({ length: n }, (_, i) => ({
    _id: randomUUID(),
    // As the app names them (docs/sync-protocol.md): the device, then the outbox's sequence number.
    mutationId: `storm-${device}:${i + 1}`,
    type: TYPES[i % 3] ?? 'Random',
    value: 70 + ((device * 31 + i * 17) % 250),
    // Written over the hours offline, oldest first, to the millisecond as the app sends them.
    recordedAt: new Date(now - (n - i) * 10 * 60_000 - device).toISOString(),
  }));
}

/** A reading the server holds. */
export interface HeldReading {
  id: string;
  patientId: string;
  type: string;
  value: number;
  recordedAt: Date;
}

/**
 * What the server holds against what each device wrote: a write missing, or held with another
 * value, time or type, is lost; a write held more than once, or a row of the patient that no write
 * explains, is duplicated.
 */
export function tally(devices: ReadonlyArray<Pick<Device, 'patientId' | 'writes'>>, held: readonly HeldReading[]): { lost: number; duplicated: number } {
  const byPatient = new Map<string, HeldReading[]>();
  for (const r of held) byPatient.set(r.patientId, [...(byPatient.get(r.patientId) ?? []), r]);
  let lost = 0;
  let duplicated = 0;
  for (const d of devices) {
    const mine = byPatient.get(d.patientId) ?? [];
    const wanted = new Set(d.writes.map((w) => w._id));
    for (const w of d.writes) {
      const found = mine.filter((r) => r.id === w._id);
      const same = found.filter((r) => r.type === w.type && r.value === w.value && r.recordedAt.toISOString() === w.recordedAt);
      if (same.length === 0) lost++;
      duplicated += Math.max(0, found.length - 1);
    }
    duplicated += mine.filter((r) => !wanted.has(r.id)).length;
  }
  return { lost, duplicated };
}

export async function reconnectStorm(opts: StormOptions = {}): Promise<StormFigure> {
  const devicesN = opts.devices ?? 500;
  const writesEach = opts.writesEach ?? 20;
  const withinMs = opts.withinMs ?? 1_000;
  const log = opts.log ?? (() => undefined);
  const postgresUrl = opts.postgresUrl ?? process.env['DATABASE_URL'] ?? DEFAULT_POSTGRES;

  log(`storm: starting the server on a fresh database on ${new URL(postgresUrl).host}`);
  const server = await startServer({ databaseUrl: postgresUrl, env: { REMINDERS: '0' } });
  try {
    const databaseUrl = server.databaseUrl;
    if (!databaseUrl) throw new Error('the server is not on PostgreSQL');
    const database = await openDatabase({ databaseUrl, poolMax: 4 });
    try {
      // The devices: one patient each, in the demo's first hospital, with a live session.
      const [hospital] = await database.db.select({ id: hospitals.id }).from(hospitals).limit(1);
      if (!hospital) throw new Error('the demo data has no hospital');
      const now = Date.now();
      const devices: Device[] = [];
      for (let i = 0; i < devicesN; i++) {
        devices.push({
          patientId: randomUUID(),
          token: randomBytes(32).toString('base64url'),
          deviceId: `storm-${i}`,
          writes: offlineWrites(writesEach, i, now),
        });
      }
      for (let i = 0; i < devices.length; i += 250) {
        const chunk = devices.slice(i, i + 250);
        await database.db
          .insert(patients)
          .values(
            chunk.map((d, j) => ({ id: d.patientId, hospNo: `9${String(i + j).padStart(6, '0')}`, hospitalId: hospital.id, name: `Storm patient ${i + j}` })),
          );
        await database.db.insert(sessions).values(
          chunk.map((d) => ({
            tokenHash: sha256(d.token),
            kind: 'patient' as const,
            patientId: d.patientId,
            method: 'password',
            deviceId: d.deviceId,
            expiresAt: new Date(now + 86_400_000),
          })),
        );
      }
      log(`storm: ${devicesN} devices with ${writesEach} queued writes each reconnect within ${withinMs} ms`);

      let errors = 0;
      let lastAnswerAt = 0;
      const started = Date.now();
      const drain = async (d: Device, delayMs: number) => {
        await new Promise((r) => setTimeout(r, delayMs));
        for (const w of d.writes) {
          for (let failures = 0; ;) {
            if (Date.now() - started > GIVE_UP_MS) throw new Error(`device ${d.deviceId} could not empty its outbox in ${GIVE_UP_MS / 60_000} min`);
            let status = 0;
            let answer = '';
            try {
              const res = await fetch(`${server.url}/api/glucose/add`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  'x-requested-with': 'XMLHttpRequest',
                  'x-device-id': d.deviceId,
                  authorization: `Bearer ${d.token}`,
                },
                body: JSON.stringify(w),
                signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
              });
              status = res.status;
              answer = await res.text();
            } catch {
              // No answer (connection refused or reset, or the timeout): status stays 0.
            }
            if (status === 200 || status === 201) break;
            if (status >= 400 && status < 500 && status !== 408 && status !== 429)
              throw new Error(`device ${d.deviceId}: a write was refused with ${status}: ${answer.slice(0, 200)}`);
            errors++;
            failures++;
            await new Promise((r) => setTimeout(r, backoff(failures)));
          }
          lastAnswerAt = Date.now();
        }
      };
      await Promise.all(devices.map((d, i) => drain(d, Math.floor((i * withinMs) / devicesN))));
      const drainedMs = lastAnswerAt - started;
      log(`storm: all outboxes empty after ${drainedMs} ms, ${errors} failed attempts`);

      const ids = devices.map((d) => d.patientId);
      const held = await database.db
        .select({
          id: glucoseReadings.id,
          patientId: glucoseReadings.patientId,
          type: glucoseReadings.type,
          value: glucoseReadings.valueMgDl,
          recordedAt: glucoseReadings.recordedAt,
        })
        .from(glucoseReadings)
        .where(and(inArray(glucoseReadings.patientId, ids), isNull(glucoseReadings.deletedAt)));
      const { lost, duplicated } = tally(devices, held);
      return { devices: devicesN, writes: devicesN * writesEach, drainedMs, errors, lost, duplicated };
    } finally {
      await database.close();
    }
  } finally {
    await server.cleanup();
  }
}
