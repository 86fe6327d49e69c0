// GET /api/changes (issue 46): the live change feed, from a write's commit to the event on a stream
// open on this instance or another one of the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let url: string;
let patientToken: string;
let adminToken: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  patientToken = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
  adminToken = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
});
afterAll(async () => {
  const closing = h.close();
  // The test's fetch may leave a connection it opened and never sent a request on (aborting the
  // streams): Node counts it as active until its headers time out, and would wait that long.
  setImmediate(() => h.app.server.closeAllConnections());
  await closing;
});

interface Event {
  event: string;
  data: { version?: number; gap?: boolean };
}

/** A change stream as the device reads it: events in order, each awaited with a deadline. */
async function open(base: string, token: string, query = '') {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/changes${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: Event[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Event['data'] });
          for (const w of waiting.splice(0)) w();
        }
      }
    } catch {
      // aborted
    }
    ended = true;
    for (const w of waiting.splice(0)) w();
  })();
  return {
    res,
    events,
    get ended() {
      return ended;
    },
    /** The `n`th event (0-based), within `ms`. */
    async nth(n: number, ms = 2_000): Promise<Event> {
      const deadline = Date.now() + ms;
      while (events.length <= n) {
        if (ended) throw new Error(`the stream ended after ${events.length} event(s)`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event ${n} within ${ms} ms (${JSON.stringify(events)})`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, left);
        });
      }
      return events[n] as Event;
    },
    async close() {
      controller.abort();
      await done;
    },
    done,
  };
}

async function addReading(base: string, token: string, value: number): Promise<void> {
  const res = await fetch(`${base}/api/glucose/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ type: 'Random', value }),
  });
  expect(res.status).toBe(201);
}

describe('the live change feed', () => {
  it("tells the patient's own stream, a staff review of that patient and the hospital's worklist within a moment of a write, and no one else", async () => {
    const mine = await open(url, patientToken);
    expect(mine.res.status).toBe(200);
    expect(mine.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const review = await open(url, adminToken, `?hospNo=${fx.patientA.hospNo}`);
    const worklist = await open(url, adminToken, `?hospitalId=${fx.hospitalA.id}`);
    const other = await open(url, await loginPatient(h.app, fx.patientA2.hospNo, fx.patientA2.password));
    const ready = await mine.nth(0);
    expect(ready.event).toBe('ready');
    expect((await review.nth(0)).data.version).toBe(ready.data.version);
    expect((await worklist.nth(0)).data).toEqual({});
    await other.nth(0);

    const wrote = Date.now();
    await addReading(url, patientToken, 123);
    const change = await mine.nth(1, 1_000);
    expect(change.event).toBe('change');
    expect(change.data.version).toBeGreaterThan(ready.data.version ?? Infinity);
    expect(Date.now() - wrote).toBeLessThan(1_000);
    expect((await review.nth(1, 1_000)).data.version).toBe(change.data.version);
    expect((await worklist.nth(1, 1_000)).event).toBe('change');
    // The signal carries no health data.
    expect(JSON.stringify(mine.events)).not.toContain('123');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.events.map((e) => e.event)).toEqual(['ready']);
    for (const s of [mine, review, worklist, other]) await s.close();
  });

  it('names what staff may follow: their own hospitals only, with the same answer as for none; a patient names nothing', async () => {
    const foreign = await fetch(`${url}/api/changes?hospNo=${fx.patientB.hospNo}`, {
      headers: { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' },
    });
    expect(foreign.status).toBe(404);
    const missing = await fetch(`${url}/api/changes?hospNo=999999`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' } });
    expect(missing.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
    expect(
      (await fetch(`${url}/api/changes?hospitalId=${fx.hospitalB.id}`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' } }))
        .status,
    ).toBe(404);
    expect((await fetch(`${url}/api/changes`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' } })).status).toBe(400);
    expect(
      (await fetch(`${url}/api/changes?hospNo=${fx.patientA2.hospNo}`, { headers: { authorization: `Bearer ${patientToken}`, accept: 'text/event-stream' } }))
        .status,
    ).toBe(400);
    expect((await fetch(`${url}/api/changes`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    // Without asking for a stream, a client is told what this is rather than kept waiting.
    const plain = await fetch(`${url}/api/changes`, { headers: { authorization: `Bearer ${patientToken}` } });
    expect(plain.status).toBe(406);
    expect(((await plain.json()) as { message: string }).message).toMatch(/text\/event-stream/);
  });

  it('reaches a stream open on another instance of the same database', async () => {
    // A second instance: its own pool and its own listening connection on PostgreSQL; on PGlite,
    // the same embedded database (one process holds it).
    let second: Database | undefined;
    let app: FastifyInstance | undefined;
    try {
      second = h.databaseUrl ? await openDatabase({ databaseUrl: h.databaseUrl, poolMax: 2 }) : undefined;
      app = await buildApp({ config: h.config, database: second ?? h.database, logger: false });
      const otherUrl = await app.listen({ port: 0, host: '127.0.0.1' });
      const there = await open(otherUrl, patientToken);
      const ready = await there.nth(0);
      const wrote = Date.now();
      await addReading(url, patientToken, 140);
      expect((await there.nth(1, 1_000)).data.version).toBeGreaterThan(ready.data.version ?? Infinity);
      expect(Date.now() - wrote).toBeLessThan(1_000);
      // Stopping the instance (main.ts) ends its streams at once: the device opens one again elsewhere.
      const closing = Date.now();
      app.endChangeStreams();
      await app.close();
      app = undefined;
      await there.done;
      expect(there.ended).toBe(true);
      expect(Date.now() - closing).toBeLessThan(2_000);
    } finally {
      await app?.close();
      await second?.close();
    }
  });
});
