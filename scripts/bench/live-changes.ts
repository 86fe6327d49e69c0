// `liveChangeP95Ms` and `openStreamsPerInstance` of `npm run bench` (issue 46): the live change feed.
//
// liveChangeP95Ms: two instances on one PostgreSQL database behind HAProxy (deploy/haproxy.cfg). A
// clinician's review of Maria Lopez is open in Chromium through HAProxy; the patient records a
// reading on another device, through one instance or the other in turn, so half the signals cross
// between instances (LISTEN/NOTIFY). The time from the write being sent to the reading's row being
// in the open review (the frame after it is in the document), 95th percentile of the rounds.
//
// openStreamsPerInstance: memory per open stream. 2,000 patients' devices each hold their own
// stream open on one instance; its resident memory before and after, from the server's own
// /metrics, divided by the streams. Every stream must have been answered, and a write of each of
// 100 of those patients must reach that patient's stream (and no other) within a second.
import { randomBytes, randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { openDatabase } from '../../server/db/client.ts';
import { hospitals, patients, sessions } from '../../server/db/schema.ts';
import { sha256 } from '../../server/lib/crypto.ts';
import { apiAddReading, apiLogin, launchChromium, loginAdmin, startServer } from '../../tests/fixtures/index.ts';

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = 20;
const STREAMS = 2_000;
const WRITERS = 100;
const METRICS_TOKEN = randomBytes(16).toString('hex');

export interface LiveChangeFigures {
  p95Ms: number;
  samples: number[];
}

export interface OpenStreamsFigures {
  streams: number;
  /** Resident memory per open stream, in KB. */
  kbPerStream: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** Writes of 100 of the patients: the slowest signal to reach its stream, in ms. */
  slowestSignalMs: number;
}

/** Nearest-rank percentile (q in 0..1). */
const percentile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * values.length) - 1)] ?? Number.NaN;

const postgres = (given: string | undefined) => given ?? process.env['DATABASE_URL'] ?? DEFAULT_POSTGRES;

async function addReading(url: string, token: string, value: number): Promise<void> {
  const status = await apiAddReading(url, token, { type: 'Fasting', value });
  if (status !== 201 && status !== 200) throw new Error(`a reading was refused: ${status}`);
}

export async function liveChangeLatency(opts: { postgresUrl?: string; log?: (line: string) => void } = {}): Promise<LiveChangeFigures> {
  const log = opts.log ?? (() => undefined);
  const server = await startServer({ databaseUrl: postgres(opts.postgresUrl), env: { REMINDERS: '0' } });
  const browser = await launchChromium();
  try {
    const why = server.balanceUnavailable();
    if (why) throw new Error(`two instances cannot run here: ${why}`);
    const balanced = await server.balance();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginAdmin(page, balanced.url);
    await page.getByRole('radio', { name: /City General Hospital/ }).check();
    await page.getByLabel('Search by name or hospital number').fill('100001');
    await page
      .getByRole('region', { name: 'Patients' })
      .getByRole('button', { name: /Open report.*Maria Lopez/ })
      .click();
    await page.getByText(/^Fetched /).waitFor({ timeout: 60_000 });
    // The review follows the feed once it is shown; give its stream a moment to be answered.
    await page.waitForTimeout(1_000);
    const tokens = await Promise.all(balanced.instances.map((i) => apiLogin(i.url, '100001', 'Demo-patient-1')));
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Values no demo reading has, so the row is this write's.
      const value = 501 + i;
      await page.evaluate((v) => {
        const w = window as unknown as { benchShownAt?: number; benchObserver?: MutationObserver };
        w.benchObserver?.disconnect();
        delete w.benchShownAt;
        const pattern = new RegExp(`^${v}(\\s|$)`);
        const check = () => {
          const named = (t: Element) => document.getElementById(t.getAttribute('aria-labelledby') ?? '')?.textContent?.trim();
          const table = [...document.querySelectorAll('#staff-main table')].find((t) => named(t) === 'Fasting');
          const cells = table ? [...table.querySelectorAll('td, th')] : [];
          if (cells.some((c) => pattern.test((c.textContent ?? '').trim()))) {
            observer.disconnect();
            requestAnimationFrame(() => (w.benchShownAt = performance.timeOrigin + performance.now()));
          }
        };
        const observer = new MutationObserver(check);
        w.benchObserver = observer;
        observer.observe(document, { childList: true, subtree: true, characterData: true });
      }, value);
      const through = i % balanced.instances.length;
      const sent = Date.now();
      await addReading(balanced.instances[through]!.url, tokens[through]!, value);
      await page.waitForFunction(() => (window as unknown as { benchShownAt?: number }).benchShownAt !== undefined, undefined, { timeout: 30_000 });
      const shownAt = await page.evaluate(() => (window as unknown as { benchShownAt: number }).benchShownAt);
      samples.push(Math.round(shownAt - sent));
      // Apart, as readings come: each its own signal, not folded into the one before.
      await page.waitForTimeout(700);
    }
    log(
      `liveChangeP95Ms: ${ROUNDS} readings through ${balanced.instances.map((i) => i.name).join(' and ')} in turn, shown in the open review after ${samples.join(', ')} ms`,
    );
    return { p95Ms: percentile(samples, 0.95), samples };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

/** The server's resident memory, from its /metrics. */
async function residentBytes(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('process_resident_memory_bytes '));
  if (!line) throw new Error('/metrics has no process_resident_memory_bytes');
  return Number(line.split(' ')[1]);
}

interface Follower {
  patientId: string;
  token: string;
  ready: Promise<void>;
  /** When each change event arrived (ms since the epoch). */
  changes: number[];
  abort: AbortController;
}

function follow(url: string, patientId: string, token: string): Follower {
  const abort = new AbortController();
  const changes: number[] = [];
  let heard: () => void = () => undefined;
  let failed: (err: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    heard = resolve;
    failed = reject;
  });
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'ready') heard();
      else if (e.event === 'change') changes.push(Date.now());
    },
  });
  (async () => {
    const res = await fetch(`${url}/api/changes`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: abort.signal });
    if (res.status !== 200 || !res.body) throw new Error(`a stream was answered ${res.status}`);
    const decoder = new TextDecoder();
    for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  })().catch((err: unknown) => {
    if (!abort.signal.aborted) failed(err instanceof Error ? err : new Error(String(err)));
  });
  return { patientId, token, ready, changes, abort };
}

export async function openStreams(opts: { postgresUrl?: string; log?: (line: string) => void } = {}): Promise<OpenStreamsFigures> {
  const log = opts.log ?? (() => undefined);
  const server = await startServer({ databaseUrl: postgres(opts.postgresUrl), env: { REMINDERS: '0', METRICS_TOKEN } });
  const followers: Follower[] = [];
  try {
    const databaseUrl = server.databaseUrl;
    if (!databaseUrl) throw new Error('the server is not on PostgreSQL');
    const database = await openDatabase({ databaseUrl, poolMax: 4 });
    const devices = Array.from({ length: STREAMS }, () => ({ patientId: randomUUID(), token: randomBytes(32).toString('base64url') }));
    try {
      const [hospital] = await database.db.select({ id: hospitals.id }).from(hospitals).limit(1);
      if (!hospital) throw new Error('the demo data has no hospital');
      const expiresAt = new Date(Date.now() + 86_400_000);
      for (let i = 0; i < devices.length; i += 500) {
        const chunk = devices.slice(i, i + 500);
        await database.db
          .insert(patients)
          .values(
            chunk.map((d, j) => ({ id: d.patientId, hospNo: `8${String(i + j).padStart(6, '0')}`, hospitalId: hospital.id, name: `Stream patient ${i + j}` })),
          );
        await database.db.insert(sessions).values(
          chunk.map((d, j) => ({
            tokenHash: sha256(d.token),
            kind: 'patient' as const,
            patientId: d.patientId,
            method: 'password',
            deviceId: `stream-${i + j}`,
            expiresAt,
          })),
        );
      }
    } finally {
      await database.close();
    }
    // Warmed: a few streams opened and closed, so the code paths are loaded before the baseline.
    const warm = devices.slice(0, 20).map((d) => follow(server.url, d.patientId, d.token));
    await Promise.all(warm.map((f) => f.ready));
    for (const f of warm) f.abort.abort();
    await new Promise((r) => setTimeout(r, 2_000));
    const before = await residentBytes(server.url);
    // Opened in waves of 200, as devices come back to a ward's Wi-Fi.
    for (let i = 0; i < devices.length; i += 200) {
      const wave = devices.slice(i, i + 200).map((d) => follow(server.url, d.patientId, d.token));
      followers.push(...wave);
      await Promise.all(wave.map((f) => f.ready));
    }
    await new Promise((r) => setTimeout(r, 2_000));
    const after = await residentBytes(server.url);
    log(
      `openStreamsPerInstance: ${followers.length} streams open and answered; resident memory ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MB`,
    );

    // 100 of them write a reading each, 20 ms apart: each signal to its own stream, within a second.
    const writers = followers.filter((_, i) => i % (STREAMS / WRITERS) === 0);
    let slowest = 0;
    for (const w of writers) {
      const heardBefore = w.changes.length;
      const sent = Date.now();
      await addReading(server.url, w.token, 150);
      const deadline = sent + 1_000;
      while (w.changes.length === heardBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      if (w.changes.length === heardBefore) throw new Error(`a write's signal did not reach its stream within 1 s (patient ${w.patientId})`);
      slowest = Math.max(slowest, (w.changes[heardBefore] ?? sent) - sent);
      await new Promise((r) => setTimeout(r, 20));
    }
    const writing = new Set(writers.map((w) => w.patientId));
    const strays = followers.filter((f) => !writing.has(f.patientId) && f.changes.length > 0).length;
    log(`openStreamsPerInstance: ${WRITERS} patients wrote, each signal reached its stream within ${slowest} ms; ${strays} streams heard a change not theirs`);
    if (strays > 0) throw new Error(`${strays} streams heard changes that were not their patient's`);
    return {
      streams: followers.length,
      kbPerStream: Math.round(((after - before) / followers.length / 1024) * 10) / 10,
      rssBeforeMb: Math.round((before / 2 ** 20) * 10) / 10,
      rssAfterMb: Math.round((after / 2 ** 20) * 10) / 10,
      slowestSignalMs: slowest,
    };
  } finally {
    for (const f of followers) f.abort.abort();
    await server.cleanup();
  }
}
