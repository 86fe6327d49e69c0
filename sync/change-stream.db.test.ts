// The device's end of the live change feed (sync/change-stream.ts) against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, loginPatient, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { followChanges, type ChangeInfo } from './change-stream.ts';

let h: Harness;
let fx: Fixture;
let baseUrl: string;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = (await h.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(async () => {
  const closing = h.close();
  // Connections the aborted streams' fetch opened and never used (see server/routes/changes.db.test.ts).
  setImmediate(() => h.app.server.closeAllConnections());
  await closing;
});

/** A page whose visibility the test sets. */
function fakePage() {
  const listeners = new Set<() => void>();
  const page = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_: string, l: () => void) => {
      listeners.add(l);
    },
    removeEventListener: (_: string, l: () => void) => {
      listeners.delete(l);
    },
    set(state: DocumentVisibilityState) {
      page.visibilityState = state;
      for (const l of listeners) l();
    },
  };
  return page;
}

async function until<T>(what: string, read: () => T | undefined, ms = 3_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const add = (value: number) =>
  fetch(`${baseUrl}/api/glucose/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ type: 'Random', value }),
  });

describe('following the changes', () => {
  it('says ready with the version, then each change; closes while the page is hidden and catches up when it is shown', async () => {
    const seen: ChangeInfo[] = [];
    const page = fakePage();
    const stop = followChanges({ baseUrl, getToken: () => token, onChange: (i) => seen.push(i), page });
    try {
      const ready = await until('ready', () => seen.find((i) => i.kind === 'ready'));
      expect(ready.version).toEqual(expect.any(Number));
      expect((await add(150)).status).toBe(201);
      const change = await until('a change', () => seen.find((i) => i.kind === 'change'), 1_500);
      expect(change.version).toBeGreaterThan(ready.version ?? Infinity);

      page.set('hidden');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = seen.length;
      expect((await add(160)).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.length).toBe(before);
      page.set('visible');
      const again = await until('ready again', () => seen.slice(before).find((i) => i.kind === 'ready'));
      expect(again.version).toBeGreaterThan(change.version ?? Infinity);
    } finally {
      stop();
    }
  });

  it('stops at a refusal: a session that ended is not asked again and again, and its 401 is told at once', async () => {
    let asked = 0;
    const seen: ChangeInfo[] = [];
    const ended: string[] = [];
    const stop = followChanges({
      baseUrl,
      getToken: () => 'x'.repeat(43),
      onChange: (i) => seen.push(i),
      onUnauthorized: (t) => ended.push(t),
      page: fakePage(),
      fetch: (input, init) => {
        asked++;
        return fetch(input, init);
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop();
    expect(asked).toBe(1);
    expect(seen).toEqual([]);
    expect(ended).toEqual(['x'.repeat(43)]);
  });

  it("a captive portal's 401 page ends no session: the stream is tried again", async () => {
    let asked = 0;
    const ended: string[] = [];
    const stop = followChanges({
      baseUrl,
      getToken: () => token,
      onChange: () => undefined,
      onUnauthorized: (t) => ended.push(t),
      page: fakePage(),
      fetch: async () => {
        asked++;
        return new Response('<html>Sign in to the ward Wi-Fi</html>', { status: 401, headers: { 'content-type': 'text/html' } });
      },
    });
    // The first retry comes after FIRST_RETRY_MS (3 s).
    await until('asked again', () => (asked >= 2 ? true : undefined), 6_000);
    stop();
    expect(ended).toEqual([]);
  });
});
