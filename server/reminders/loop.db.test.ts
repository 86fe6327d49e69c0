import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { pushTokens, reminderJobs } from '../db/schema.ts';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { startPushPeer, type PushPeer } from '../testing/push-peer.ts';
import { startReminderLoop, WAKE_DELAY_MS } from './loop.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { error: () => undefined };

describe('the reminder loop', () => {
  it('runs a pass at once and then one per interval, never two at a time, and stops cleanly', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const loop = startReminderLoop(
      async () => {
        running += 1;
        most = Math.max(most, running);
        passes += 1;
        await sleep(30); // a pass longer than the interval
        running -= 1;
      },
      5,
      silent,
    );
    await sleep(200);
    await loop.stop();
    expect(most).toBe(1);
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(running).toBe(0); // stop waited for the pass in flight
    const after = passes;
    await sleep(60);
    expect(passes).toBe(after);
  });

  it('keeps going after a failed pass', async () => {
    let passes = 0;
    const errors: unknown[] = [];
    const loop = startReminderLoop(
      () => {
        passes += 1;
        return Promise.reject(new Error('database unreachable'));
      },
      5,
      { error: (obj: unknown) => errors.push(obj) },
    );
    await sleep(60);
    await loop.stop();
    expect(passes).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBe(passes);
  });

  it('runs a pass soon when woken, and once more after a pass that was running when woken', async () => {
    const starts: number[] = [];
    let release: () => void = () => undefined;
    const loop = startReminderLoop(
      () => {
        starts.push(Date.now());
        return starts.length === 2 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
      },
      60_000,
      silent,
    );
    await sleep(50);
    expect(starts).toHaveLength(1); // the first pass, then an hour's wait
    const woken = Date.now();
    loop.wake();
    loop.wake(); // asking twice asks for one pass
    await sleep(WAKE_DELAY_MS + 200);
    expect(starts).toHaveLength(2);
    expect((starts[1] ?? 0) - woken).toBeLessThan(WAKE_DELAY_MS + 150);
    loop.wake(); // while the second pass runs: its claims may have missed the new job
    release();
    await sleep(WAKE_DELAY_MS + 200);
    expect(starts).toHaveLength(3);
    await loop.stop();
  });
});

describe('the server with REMINDERS on', () => {
  let h: Harness;
  let fx: Fixture;
  let peer: PushPeer;
  beforeAll(async () => {
    h = await createHarness();
    fx = await seedFixture(h.db);
    peer = await startPushPeer();
  });
  afterAll(async () => {
    await peer.close();
    await h.close();
  });

  it('sends a due reminder from its own loop, and the loop ends with the server', async () => {
    await h.db.insert(pushTokens).values({ patientId: fx.patientA.id, provider: 'webpush', token: JSON.stringify(peer.subscribe('phone')) });
    const now = new Date();
    await h.db.insert(reminderJobs).values({
      patientId: fx.patientA.id,
      kind: 'glucometerAlert',
      dedupeKey: 'snooze:loop-test',
      dueAt: now,
      payload: { tag: 'gluco-loop', data: { type: 'glucometerAlert', time: '08:00', notificationTime: now.toISOString() } },
    });
    const config = loadConfig({ DATA_DIR: h.dataDir, LOG_LEVEL: 'silent', PUSH_ALLOW_INSECURE_ENDPOINTS: '1', REMINDER_INTERVAL_SECONDS: '5' });
    const app = await buildApp({ config, database: h.database, logger: false, reminders: true });
    try {
      for (let i = 0; i < 100 && peer.of('phone').length === 0; i++) await sleep(20);
      expect(peer.of('phone').map((r) => r.json['data'])).toEqual([{ type: 'glucometerAlert', time: '08:00', notificationTime: now.toISOString() }]);
    } finally {
      await app.close();
    }
  });

  it('sends a severe low to the staff within seconds of its write, not at the next interval', async () => {
    const config = loadConfig({ DATA_DIR: h.dataDir, LOG_LEVEL: 'silent', PUSH_ALLOW_INSECURE_ENDPOINTS: '1', REMINDER_INTERVAL_SECONDS: '3600' });
    const app = await buildApp({ config, database: h.database, logger: false, reminders: true });
    try {
      const nurse = await loginAdmin(app, fx.adminEmail, fx.adminPassword);
      expect((await call(app, 'POST', '/api/admin/alerts/on', { token: nurse, body: { token: peer.subscribe('nurse-phone') } })).status).toBe(200);
      await sleep(100); // the first pass (at start) is over; the next is an hour away
      const patient = await loginPatient(app, fx.patientA.hospNo, fx.patientA.password);
      const written = Date.now();
      const res = await call(app, 'POST', '/api/glucose/add', {
        token: patient,
        body: { _id: '0190a000-0000-7000-8000-00000000beef', type: 'Random', value: 45, recordedAt: new Date().toISOString() },
      });
      expect(res.status).toBe(201);
      for (let i = 0; i < 150 && peer.of('nurse-phone').length === 0; i++) await sleep(20);
      expect(peer.of('nurse-phone')).toHaveLength(1);
      expect(Date.now() - written).toBeLessThan(10_000); // not the hour the interval would take
    } finally {
      await app.close();
    }
  });
});
