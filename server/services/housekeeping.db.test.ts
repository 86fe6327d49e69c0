import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMutations, otps, rateLimits, reminderJobs, sessions } from '../db/schema.ts';
import { sha256 } from '../lib/crypto.ts';
import { createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { housekeeping } from './housekeeping.ts';

let h: Harness;
let fx: Fixture;
beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
});
afterAll(() => h.close());

describe('housekeeping', () => {
  it('removes long-ended sessions, old codes, old rate-limit windows, month-old reminders and mutation ids past 90 days, and keeps live ones', async () => {
    const now = new Date();
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
    await h.db.insert(sessions).values([
      { tokenHash: sha256('live'), kind: 'patient', patientId: fx.patientA.id, method: 'password', expiresAt: new Date(now.getTime() + 86_400_000) },
      { tokenHash: sha256('old'), kind: 'patient', patientId: fx.patientA.id, method: 'password', expiresAt: daysAgo(8) },
      { tokenHash: sha256('revoked'), kind: 'patient', patientId: fx.patientA.id, method: 'password', expiresAt: daysAgo(-1), revokedAt: daysAgo(9) },
    ]);
    await h.db.insert(otps).values([
      { hospNo: 'x', codeHash: 'a$b', expiresAt: daysAgo(2) },
      { hospNo: 'y', codeHash: 'a$b', expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    await h.db.insert(rateLimits).values([
      { key: 'old', count: 3, resetAt: daysAgo(1) },
      { key: 'new', count: 3, resetAt: new Date(now.getTime() + 60_000) },
    ]);
    const job = (dedupeKey: string, dueAt: Date) => ({
      patientId: fx.patientA.id,
      kind: 'glucometerAlert' as const,
      dedupeKey,
      dueAt,
      payload: { tag: dedupeKey, data: { type: 'glucometerAlert' as const, time: '08:00', notificationTime: dueAt.toISOString() } },
      status: 'sent' as const,
    });
    await h.db.insert(reminderJobs).values([job('gluco:old', daysAgo(31)), job('gluco:recent', daysAgo(29))]);
    await h.db.insert(appliedMutations).values([
      { patientId: fx.patientA.id, mutationId: 'device-1:1', status: 200, response: {}, createdAt: daysAgo(91) },
      { patientId: fx.patientA.id, mutationId: 'device-1:2', status: 200, response: {}, createdAt: daysAgo(89) },
    ]);
    await housekeeping(h, now);
    expect((await h.db.select().from(sessions)).map((s) => s.tokenHash)).toEqual([sha256('live')]);
    expect((await h.db.select().from(otps)).map((o) => o.hospNo)).toEqual(['y']);
    expect((await h.db.select().from(rateLimits)).map((r) => r.key)).toEqual(['new']);
    expect((await h.db.select().from(reminderJobs)).map((r) => r.dedupeKey)).toEqual(['gluco:recent']);
    expect((await h.db.select().from(appliedMutations)).map((m) => m.mutationId)).toEqual(['device-1:2']);
  });
});
