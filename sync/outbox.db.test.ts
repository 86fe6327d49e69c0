import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Dexie } from 'dexie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, createHarness, seedFixture, type Fixture, type Harness } from '../server/testing/harness.ts';
import { destroyDataKey, encryptJson, getDataKey } from './storage/crypto.ts';
import { drainOutbox } from './drain.ts';
import {
  clearOutbox,
  enqueue,
  getReplaySession,
  listRefusals,
  nextMutationId,
  outboxDatabase,
  pendingCount,
  pendingOps,
  setReplaySession,
  type OutboxOp,
} from './outbox.ts';

// The outbox against the real API server over real HTTP: what a device queued reaches the server
// once, in order, with the time it was made, whatever the network and the server do meanwhile.
let h: Harness;
let fx: Fixture;
let baseUrl: string;
let token: string;
const deviceId = randomUUID();

async function api(path: string, body: unknown, bearer?: string): Promise<Response> {
  return fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'X-Device-Id': deviceId,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function login(): Promise<string> {
  const res = await api('/auth/loginWithPassword', { hospNo: fx.patientA.hospNo, password: fx.patientA.password });
  expect(res.status).toBe(200);
  const { token: t } = (await res.json()) as { token: string };
  expect(t).toMatch(/^\S{32,}$/);
  return t;
}

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  token = await login();
});
afterAll(() => h.close());
beforeEach(async () => {
  await clearOutbox();
  await setReplaySession({ token, deviceId });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

type Type = 'Fasting' | 'Postprandial' | 'Random';
interface ServerReading {
  _id: string;
  type: Type;
  value: number;
  recordedAt: string;
}

// Mutation ids as the outbox would make them (it keeps one that is given), so expected and queued
// operations compare equal.
let seq = 0;
const mutationId = () => `${deviceId}:${++seq}`;

const hoursAgo = (n: number) => new Date(Date.now() - n * 3600_000).toISOString();

const addOp = (type: Type, value: number, recordedAt = hoursAgo(1), id = randomUUID()): OutboxOp => ({
  collection: 'glucose',
  docId: id,
  kind: 'add',
  name: 'glucose.add',
  mutationId: mutationId(),
  path: '/glucose/add',
  body: { _id: id, type, value, recordedAt },
  madeAt: Date.parse(recordedAt),
});
const updateOp = (id: string, gtype: Type, gvalue: number): OutboxOp => ({
  collection: 'glucose',
  docId: id,
  kind: 'update',
  name: 'glucose.update',
  mutationId: mutationId(),
  path: '/glucose/update',
  body: { glucoseId: id, gtype, gvalue },
  madeAt: Date.now(),
});
const deleteOp = (id: string): OutboxOp => ({
  collection: 'glucose',
  docId: id,
  kind: 'delete',
  name: 'glucose.delete',
  mutationId: mutationId(),
  path: '/glucose/delete',
  body: { glucoseId: id },
  madeAt: Date.now(),
});

/** Every reading the server holds for the patient, whatever its type. */
async function serverReadings(): Promise<ServerReading[]> {
  const res = await call(h.app, 'GET', '/api/glucose', { token });
  expect(res.status).toBe(200);
  return ['fasting', 'postprandial', 'random'].flatMap((t) => res.json[t] as ServerReading[]);
}
const onServer = async (id: string) => (await serverReadings()).filter((r) => r._id === id);

/** Wraps a fetch to record what is sent; `respond` may answer instead of the network. */
function recordingFetch(respond?: (n: number, url: string, init?: RequestInit) => Promise<Response | undefined> | undefined) {
  const calls: { url: string; body: string }[] = [];
  const impl: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, body: typeof init?.body === 'string' ? init.body : '' });
    return (await respond?.(calls.length, url, init)) ?? fetch(input, init);
  };
  return { impl, calls, paths: () => calls.map((c) => new URL(c.url).pathname) };
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  return `http://127.0.0.1:${port}`;
}

const summary = (ops: OutboxOp[]) => ops.map((o) => `${o.kind}:${o.docId}`);

describe('draining the outbox', () => {
  it('sends adds, an update and a delete in order; the server has each effect once', async () => {
    const a = addOp('Fasting', 112, hoursAgo(3));
    const b = addOp('Random', 140, hoursAgo(2));
    const ops = [a, b, updateOp(a.docId, 'Postprandial', 181), deleteOp(b.docId)];
    for (const op of ops) await enqueue(op);
    expect(await pendingCount()).toBe(4);
    expect(await pendingOps()).toEqual(ops);

    const net = recordingFetch();
    const result = await drainOutbox({ baseUrl, fetchImpl: net.impl });
    expect(result).toEqual({ sent: ops, rejected: [], kept: 0, stuck: 0, unauthorized: false });
    // Two batches: a record's later write waits for the version its earlier one gets.
    expect(net.paths()).toEqual(['/api/batch', '/api/batch']);
    expect(net.calls.map((c) => JSON.parse(c.body) as unknown)).toEqual([
      { mutations: [a, b].map((o) => ({ path: o.path, body: { ...o.body, mutationId: o.mutationId } })) },
      // An edit and a removal say when they were made (a write sent again after a heal is ordered by it).
      { mutations: ops.slice(2).map((o) => ({ path: o.path, body: { ...o.body, madeAt: new Date(o.madeAt).toISOString(), mutationId: o.mutationId } })) },
    ]);
    expect(await pendingCount()).toBe(0);

    expect(await onServer(a.docId)).toEqual([expect.objectContaining({ _id: a.docId, type: 'Postprandial', value: 181, recordedAt: a.body['recordedAt'] })]);
    expect(await onServer(b.docId)).toEqual([]);

    // A second drain has nothing left to send.
    const again = await drainOutbox({ baseUrl, fetchImpl: net.impl });
    expect(again).toEqual({ sent: [], rejected: [], kept: 0, stuck: 0, unauthorized: false });
    expect(net.calls).toHaveLength(2);
  });

  it('sends one write alone on its own route', async () => {
    const a = addOp('Fasting', 113);
    await enqueue(a);
    const net = recordingFetch();
    expect((await drainOutbox({ baseUrl, fetchImpl: net.impl })).sent).toEqual([a]);
    expect(net.paths()).toEqual(['/api/glucose/add']);
  });

  it('handles each result of a batch as the answer to its own request: a refusal moves on, the writes after it go next', async () => {
    const ops = [addOp('Fasting', 114), addOp('Random', 1000), addOp('Random', 115), addOp('Postprandial', 116)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch();
    const result = await drainOutbox({ baseUrl, fetchImpl: net.impl });
    expect(net.paths()).toEqual(['/api/batch', '/api/batch']);
    expect(result).toEqual({
      sent: [ops[0], ops[2], ops[3]],
      rejected: [{ op: ops[1], status: 400, message: 'value must be between 20 and 600 mg/dL' }],
      kept: 0,
      stuck: 0,
      unauthorized: false,
    });
    expect(await listRefusals()).toEqual([expect.objectContaining({ op: ops[1], status: 400 })]);
    for (const op of [ops[0], ops[2], ops[3]]) expect(await onServer(op?.docId ?? '')).toHaveLength(1);
  });

  it('keeps a write whose result in a batch is a 5xx, and everything after it', async () => {
    const ops = [addOp('Fasting', 117), addOp('Random', 118), addOp('Random', 119)];
    for (const op of ops) await enqueue(op);
    // The server runs the first write and fails on the second.
    const net = recordingFetch(async (n, url, init) => {
      if (n !== 1) return undefined;
      const batch = JSON.parse(String(init?.body)) as { mutations: unknown[] };
      const first = await fetch(url, { ...init, body: JSON.stringify({ mutations: batch.mutations.slice(0, 1) }) });
      const { results } = (await first.json()) as { results: unknown[] };
      return Response.json({ results: [...results, { status: 500, body: { message: 'Internal Server Error' } }] });
    });
    expect(await drainOutbox({ baseUrl, fetchImpl: net.impl })).toEqual({ sent: [ops[0]], rejected: [], kept: 2, stuck: 0, unauthorized: false });
    expect(await pendingOps()).toEqual(ops.slice(1));
    expect((await drainOutbox({ baseUrl })).sent).toEqual(ops.slice(1));
    for (const op of ops) expect(await onServer(op.docId)).toHaveLength(1);
  });

  it('sends the writes one at a time to a server that does not take batches', async () => {
    const ops = [addOp('Fasting', 120), addOp('Random', 121)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch((_n, url) =>
      url.endsWith('/api/batch') ? Promise.resolve(Response.json({ message: 'Not found: POST /api/batch' }, { status: 404 })) : undefined,
    );
    expect(await drainOutbox({ baseUrl, fetchImpl: net.impl })).toEqual({ sent: ops, rejected: [], kept: 0, stuck: 0, unauthorized: false });
    expect(net.paths()).toEqual(['/api/batch', '/api/glucose/add', '/api/glucose/add']);
    expect(await listRefusals()).toEqual([]);
  });

  it('an add whose answer was lost is sent again and still stored once, at the time it was made', async () => {
    const a = addOp('Fasting', 99, hoursAgo(5));
    await enqueue(a);
    // The request reaches the server, but the connection drops before the answer arrives.
    const lossy: typeof fetch = async (input, init) => {
      await fetch(input, init);
      throw new TypeError('network connection lost');
    };
    expect(await drainOutbox({ baseUrl, fetchImpl: lossy })).toMatchObject({ sent: [], kept: 1 });
    expect(await onServer(a.docId)).toHaveLength(1);

    expect((await drainOutbox({ baseUrl })).sent).toEqual([a]);
    expect(await onServer(a.docId)).toEqual([expect.objectContaining({ _id: a.docId, type: 'Fasting', value: 99, recordedAt: a.body['recordedAt'] })]);
  });

  it('reports a write the server refuses, removes it and goes on with the next', async () => {
    const bad = addOp('Fasting', 1000);
    const good = addOp('Random', 150);
    await enqueue(bad);
    await enqueue(good);
    const result = await drainOutbox({ baseUrl });
    expect(result.rejected).toEqual([{ op: bad, status: 400, message: 'value must be between 20 and 600 mg/dL' }]);
    expect(result.sent).toEqual([good]);
    expect(result.kept).toBe(0);
    expect(await pendingCount()).toBe(0);
    expect(await onServer(bad.docId)).toEqual([]);
    expect(await onServer(good.docId)).toHaveLength(1);
    // Refused is not dropped: it waits, sealed, for the patient to decide.
    expect(await listRefusals()).toEqual([expect.objectContaining({ op: bad, status: 400, message: 'value must be between 20 and 600 mg/dL' })]);
  });

  it('keeps every entry, in order, while the server cannot be reached', async () => {
    const ops = [addOp('Fasting', 101, hoursAgo(3)), addOp('Random', 102, hoursAgo(2)), addOp('Postprandial', 103, hoursAgo(1))];
    for (const op of ops) await enqueue(op);
    const offline = await closedPortUrl();
    const net = recordingFetch();

    const result = await drainOutbox({ baseUrl: offline, fetchImpl: net.impl });
    expect(result).toEqual({ sent: [], rejected: [], kept: 3, stuck: 0, unauthorized: false });
    expect(net.calls).toHaveLength(1); // it stops at the first failure instead of hammering
    expect(await pendingOps()).toEqual(ops);
    await drainOutbox({ baseUrl: offline });
    expect(await pendingOps()).toEqual(ops);

    const back = await drainOutbox({ baseUrl });
    expect(summary(back.sent)).toEqual(summary(ops));
    for (const op of ops) expect((await onServer(op.docId)).map((r) => r.recordedAt)).toEqual([op.body['recordedAt']]);
  });

  it('treats a request that hangs past the timeout like a network failure', async () => {
    const op = addOp('Fasting', 104);
    await enqueue(op);
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    expect(await drainOutbox({ baseUrl, fetchImpl: hanging, timeoutMs: 50 })).toEqual({ sent: [], rejected: [], kept: 1, stuck: 0, unauthorized: false });
    expect(await pendingOps()).toEqual([op]);
  });

  it('keeps every entry of a batch the server answers with a 5xx, and counts the attempt against the first', async () => {
    const ops = [addOp('Fasting', 105), addOp('Random', 106), addOp('Random', 107)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch((n) => (n === 1 ? Promise.resolve(Response.json({ message: 'Service Unavailable' }, { status: 503 })) : undefined));

    const result = await drainOutbox({ baseUrl, fetchImpl: net.impl });
    expect(result).toEqual({ sent: [], rejected: [], kept: 3, stuck: 0, unauthorized: false });
    expect(net.calls).toHaveLength(1);
    expect(await pendingOps()).toEqual(ops);
    expect((await outboxDatabase().entries.orderBy('seq').toArray()).map((e) => e.attempts)).toEqual([1, 0, 0]);
    expect(await onServer(ops[0]?.docId ?? '')).toEqual([]);

    expect((await drainOutbox({ baseUrl })).sent).toEqual(ops);
    for (const op of ops) expect(await onServer(op.docId)).toHaveLength(1);
  });

  it.each([500, 502, 504, 408, 429])('keeps an entry answered with %i', async (status) => {
    const op = addOp('Fasting', 108);
    await enqueue(op);
    const failing: typeof fetch = () => Promise.resolve(new Response('{}', { status, headers: { 'content-type': 'application/json' } }));
    expect(await drainOutbox({ baseUrl, fetchImpl: failing })).toEqual({ sent: [], rejected: [], kept: 1, stuck: 0, unauthorized: false });
    expect(await pendingOps()).toEqual([op]);
  });

  it('a revoked token (401) sets unauthorized and keeps the entries for the next session', async () => {
    const old = token;
    expect((await api('/auth/logout', {}, old)).status).toBe(200);
    const ops = [addOp('Fasting', 109), addOp('Random', 110)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch();
    const result = await drainOutbox({ baseUrl, fetchImpl: net.impl });
    // The result names the token the refused entries were sent with: the runtime ends only that session.
    expect(result).toEqual({ sent: [], rejected: [], kept: 2, stuck: 0, unauthorized: true, token: old });
    expect(net.calls).toHaveLength(1);
    expect(await pendingOps()).toEqual(ops);

    token = await login();
    await setReplaySession({ token, deviceId });
    expect((await drainOutbox({ baseUrl })).sent).toEqual(ops);
    for (const op of ops) expect(await onServer(op.docId)).toHaveLength(1);
  });

  it('without a session it sends nothing and keeps everything', async () => {
    await clearOutbox();
    await enqueue(addOp('Fasting', 111));
    const net = recordingFetch();
    expect(await drainOutbox({ baseUrl, fetchImpl: net.impl })).toEqual({ sent: [], rejected: [], kept: 1, stuck: 0, unauthorized: false });
    expect(net.calls).toHaveLength(0);
  });

  it('concurrent drains send each entry once', async () => {
    const ops = [addOp('Fasting', 121), addOp('Random', 122), addOp('Postprandial', 123)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch();
    const results = await Promise.all([1, 2, 3].map(() => drainOutbox({ baseUrl, fetchImpl: net.impl })));
    expect(net.calls).toHaveLength(1);
    expect(summary(results.flatMap((r) => r.sent))).toEqual(summary(ops));
  });

  it('concurrent drains send each entry once even without Web Locks', async () => {
    vi.stubGlobal('navigator', {});
    expect(globalThis.navigator.locks).toBeUndefined();
    const ops = [addOp('Fasting', 124), addOp('Random', 125)];
    for (const op of ops) await enqueue(op);
    const net = recordingFetch();
    const results = await Promise.all([1, 2].map(() => drainOutbox({ baseUrl, fetchImpl: net.impl })));
    expect(net.calls).toHaveLength(1);
    expect(summary(results.flatMap((r) => r.sent))).toEqual(summary(ops));
  });
});

describe('what the outbox keeps on the device', () => {
  /** Every row of every object store of a database, as the browser would keep it on disk. */
  async function rawRows(name: string): Promise<string> {
    const raw = new Dexie(name);
    await raw.open();
    try {
      const tables = await Promise.all(raw.tables.map(async (t) => [t.name, await t.toArray()] as const));
      return JSON.stringify(tables);
    } finally {
      raw.close();
    }
  }

  it('holds neither the token nor a glucose value in plain form', async () => {
    const ops = [addOp('Fasting', 347, '2026-01-05T10:00:00.000Z'), updateOp(randomUUID(), 'Postprandial', 283)];
    for (const op of ops) await enqueue(op);
    // A failed attempt rewrites the row (attempt count): that row must be sealed too.
    await drainOutbox({ baseUrl: await closedPortUrl() });

    const text = await rawRows('eddy-outbox');
    expect(text).toContain('sealed');
    for (const plain of [token, deviceId, 'Fasting', 'Postprandial', 'glucose', 'recordedAt', '2026-01-05', 'Bearer']) expect(text).not.toContain(plain);
    // Digits can occur inside base64url by chance; a plain value would stand on its own.
    expect(text).not.toMatch(/(?<![A-Za-z0-9_-])(347|283)(?![A-Za-z0-9_-])/);
    expect(await pendingOps()).toEqual(ops);
  });

  it('opens each entry once however often a sync reads the outbox, and hands out copies', async () => {
    const ops = [addOp('Fasting', 101), addOp('Random', 102), updateOp(randomUUID(), 'Postprandial', 103)];
    for (const op of ops) await enqueue(op);
    const decrypt = vi.spyOn(globalThis.crypto.subtle, 'decrypt');
    try {
      // A sync of seven collections reads it for each pull, for each push and for the drain.
      for (let i = 0; i < 9; i++) expect(await pendingOps()).toEqual(ops);
      expect(decrypt).toHaveBeenCalledTimes(ops.length);
      const given = await pendingOps();
      given[0]!.body['value'] = 999;
      expect((await pendingOps())[0]?.body['value']).toBe(101);
      // A new entry is opened once more; the others are not opened again.
      await enqueue(addOp('Fasting', 104));
      expect(await pendingOps()).toHaveLength(4);
      expect(decrypt).toHaveBeenCalledTimes(ops.length + 1);
    } finally {
      decrypt.mockRestore();
      await clearOutbox();
    }
  });

  it('clearOutbox removes every entry and the session', async () => {
    const taken = await nextMutationId();
    await enqueue(addOp('Fasting', 131));
    await enqueue(addOp('Random', 132));
    await clearOutbox();
    expect(await pendingCount()).toBe(0);
    expect(await pendingOps()).toEqual([]);
    expect(await getReplaySession()).toBeUndefined();
    const tables = JSON.parse(await rawRows('eddy-outbox')) as [string, unknown[]][];
    for (const [name, rows] of tables) if (name !== 'counter' && name !== 'parked') expect(rows, name).toEqual([]);
    // The mutation counter outlives every session: a reused mutation id would lose a write.
    expect(tables.find(([name]) => name === 'counter')?.[1]).toEqual([expect.objectContaining({ id: 'mutations', next: Number(taken.split(':')[1]) + 1 })]);
    expect(await nextMutationId()).not.toBe(taken);
    const net = recordingFetch();
    expect((await drainOutbox({ baseUrl, fetchImpl: net.impl })).sent).toEqual([]);
    expect(net.calls).toHaveLength(0);
  });

  it('entries sealed under a destroyed key are dropped, not sent, and do not block newer ones', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const orphan = addOp('Fasting', 141);
    await enqueue(orphan);
    await destroyDataKey();
    expect(await getReplaySession()).toBeUndefined();
    await getDataKey();
    expect(await getReplaySession()).toBeUndefined(); // sealed under the old key: no session

    await setReplaySession({ token, deviceId });
    const fresh = addOp('Random', 142);
    await enqueue(fresh);
    expect(await pendingCount()).toBe(2);
    expect(await pendingOps()).toEqual([fresh]);

    const net = recordingFetch();
    expect(await drainOutbox({ baseUrl, fetchImpl: net.impl })).toEqual({ sent: [fresh], rejected: [], kept: 0, stuck: 0, unauthorized: false });
    expect(net.calls).toHaveLength(1);
    expect(await pendingCount()).toBe(0);
    expect(await onServer(orphan.docId)).toEqual([]);
    expect(warn).toHaveBeenCalledWith('Outbox entry that no longer decrypts dropped');
  });

  it('an entry sealed with the data key but for another purpose does not open as an operation', async () => {
    // The outbox binds entries with additional data 'outbox'; a session blob is not an operation.
    const key = await getDataKey();
    const db = new Dexie('eddy-outbox');
    await db.open();
    try {
      await db.table('entries').add({ sealed: await encryptJson(key, { token, deviceId }, 'session'), attempts: 0 });
    } finally {
      db.close();
    }
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const net = recordingFetch();
    expect(await pendingOps()).toEqual([]);
    expect((await drainOutbox({ baseUrl, fetchImpl: net.impl })).sent).toEqual([]);
    expect(net.calls).toHaveLength(0);
    expect(await pendingCount()).toBe(0);
  });

  it('a captive portal answering its HTML page (200, 302, 401, 403, 511) is no answer: nothing is removed, refused or logged out', async () => {
    // Issue 44: hospital Wi-Fi before its login answers every request itself. Read as the API's
    // answer, a 200 removed the entry as sent (lost) and a 401 ended the session.
    const a = addOp('Random', 233);
    await enqueue(a);
    const page = '<!doctype html><title>Hospital Wi-Fi</title><form>Room number</form>';
    for (const status of [200, 302, 401, 403, 511]) {
      const portal: typeof fetch = async () =>
        new Response(page, { status: status === 302 ? 200 : status, headers: { 'content-type': 'text/html; charset=utf-8' } });
      const result = await drainOutbox({ baseUrl, fetchImpl: portal });
      expect(result.sent).toEqual([]);
      expect(result.rejected).toEqual([]);
      expect(result.unauthorized).toBe(false);
      expect(await pendingCount()).toBe(1);
      expect(await listRefusals()).toEqual([]);
    }
    // A 2xx whose body breaks off on the way is no answer either.
    const cut: typeof fetch = async () =>
      new Response(new ReadableStream({ start: (c) => c.error(new TypeError('network error')) }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    expect((await drainOutbox({ baseUrl, fetchImpl: cut })).sent).toEqual([]);
    expect(await pendingCount()).toBe(1);
    // The portal gone, the entry goes, once.
    expect((await drainOutbox({ baseUrl })).sent).toEqual([a]);
    expect(await onServer(a.docId)).toHaveLength(1);
  });
});
