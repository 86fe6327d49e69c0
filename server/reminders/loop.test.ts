import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { pushTokens, reminderJobs } from '../db/schema.ts';
import { createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { startPushPeer, type PushPeer } from '../testing/push-peer.ts';
import { startReminderLoop } from './loop.ts';

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
});
