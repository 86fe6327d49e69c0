// SIGTERM on the real server process (README, "Monitoring": "On SIGTERM the server stops accepting
// connections, finishes the requests in flight and a reminder pass that is running, closes the
// database and exits"), on the embedded database and, in CI's PostgreSQL pass, on PostgreSQL.
//
// At the signal two things are in flight: a patient's write whose body is still arriving (a slow
// network: headers and half the body sent, on a kept-alive connection), and a reminder pass waiting
// for the push service, which holds its answer 2.5 s.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { glucoseReadings, reminderJobs } from './db/schema.ts';
import { startPushPeer, type PushPeer } from './testing/push-peer.ts';
import {
  login,
  mealTimesAway,
  post,
  prepareDatabase,
  PRESCRIPTION,
  refusesConnections,
  sleep,
  slowRequest,
  startServerProcess,
  waitFor,
  type PreparedDatabase,
  type ServerProcess,
} from './testing/server-process.ts';

/** How long the push service takes to answer: the reminder pass is in flight that long. */
const PUSH_ANSWER_MS = 2500;

let peer: PushPeer;
let db: PreparedDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  peer = await startPushPeer();
  db = await prepareDatabase('eddy-shutdown', process.env['DATABASE_URL']);
});
afterAll(async () => {
  await server?.kill();
  await peer?.close();
  await db?.drop();
});

it('on SIGTERM refuses new connections, answers the request in flight in full, lets the reminder pass finish, closes the database and exits 0', async () => {
  server = await startServerProcess('the server', { ...db.env, REMINDERS: '1', REMINDER_INTERVAL_SECONDS: '5', PUSH_ALLOW_INSECURE_ENDPOINTS: '1' });
  const s = server;
  const { patientA } = db.fixture;
  const token = await login(s.url, patientA.hospNo, patientA.password);
  expect((await post(s.url, '/api/users/notificationTimings', mealTimesAway(), { token })).status).toBe(200);
  expect((await post(s.url, '/api/users/notificationToken', { token: peer.subscribe('phone') }, { token })).status).toBe(200);
  peer.delayMs = PUSH_ANSWER_MS;
  const snoozeId = randomUUID();
  const snooze = await post(
    s.url,
    '/api/users/medicines/remindLater',
    { ...PRESCRIPTION, time: '08:00', _id: snoozeId, remindAt: new Date().toISOString() },
    { token },
  );
  expect(snooze.status, snooze.text).toBe(200);

  // The server's next pass (within REMINDER_INTERVAL_SECONDS) sends it; the push service has it now
  // and answers in PUSH_ANSWER_MS: the pass is waiting for it.
  await waitFor('the reminder to reach the push service', () => peer.of('phone').length > 0, 10_000, 20);
  const pushedAt = Date.now();
  const reading = { _id: randomUUID(), type: 'Fasting', value: 123, mutationId: 'shutdown-test:1' };
  const slow = await slowRequest(s.url, '/api/glucose/add', reading, token);
  await sleep(100); // the server has the headers and half the body

  const termAt = Date.now();
  s.child.kill('SIGTERM');
  await waitFor('"shutting down" in the log', () => s.log().includes('"msg":"shutting down"'), 5000, 10);
  await waitFor('new connections to be refused', () => refusesConnections(s.port), 5000, 10);
  expect(s.running(), 'the process waits for the request in flight').toBe(true);
  // The preconditions of what follows: at the signal the pass was still waiting for the push service.
  expect(termAt - pushedAt).toBeLessThan(PUSH_ANSWER_MS - 1000);

  const answer = await slow.finish();
  expect(answer.status, answer.text).toBe(201);
  expect(answer.json['data']).toMatchObject({ _id: reading._id, type: 'Fasting', value: 123 });
  // Closing: the answer says so and the server ends the connection, instead of keeping it alive.
  expect(answer.headers['connection']).toBe('close');
  expect(await slow.closed).toBe(true);
  const connectionEndedAt = Date.now();

  const exit = await s.exited;
  expect(exit, s.log()).toEqual({ code: 0, signal: null, at: exit.at });
  expect(exit.at - termAt, 'within the 10 s limit, not cut off by it').toBeLessThan(9000);
  expect(connectionEndedAt, 'the connection ended after its answer, not with the process').toBeLessThan(exit.at);
  expect(exit.at - pushedAt, 'it waited for the reminder pass').toBeGreaterThan(PUSH_ANSWER_MS - 100);
  expect(s.log()).not.toMatch(/reminder pass failed|shutdown failed|exiting anyway|"level":50/);
  expect(peer.of('phone')).toHaveLength(1);

  // The write and the pass's outcome reached the database before it was closed.
  const database = await db.open();
  try {
    const jobs = await database.db
      .select()
      .from(reminderJobs)
      .where(eq(reminderJobs.dedupeKey, `snooze:${snoozeId}`));
    expect(jobs.map((j) => j.status)).toEqual(['sent']);
    const rows = await database.db.select().from(glucoseReadings).where(eq(glucoseReadings.id, reading._id));
    expect(rows).toHaveLength(1);
  } finally {
    await database.close();
  }
}, 60_000);
