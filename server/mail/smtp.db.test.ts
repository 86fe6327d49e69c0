// OTP mail through a real SMTP peer on loopback (SMTP_URL set), and what happens when it is down.
import { readdir } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Received {
  from: string | undefined;
  to: string[];
  text: string;
}

async function outboxFiles(dataDir: string): Promise<string[]> {
  try {
    return await readdir(path.join(dataDir, 'outbox'));
  } catch {
    return [];
  }
}

describe('OTP mail over SMTP', () => {
  let smtp: SMTPServer;
  let port: number;
  let h: Harness;
  let fx: Fixture;
  const received: Received[] = [];
  const waiters: ((m: Received) => void)[] = [];

  /** The next message the SMTP server accepts (or one it already has and nobody took yet). */
  const nextMessage = (timeoutMs = 10_000) =>
    new Promise<Received>((resolve, reject) => {
      const queued = received.shift();
      if (queued) return resolve(queued);
      const timer = setTimeout(() => reject(new Error('no message reached the SMTP server')), timeoutMs);
      waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 1000,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          const message: Received = {
            from: from ? from.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            text: Buffer.concat(chunks).toString('utf8'),
          };
          const waiter = waiters.shift();
          if (waiter) waiter(message);
          else received.push(message);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
    h = await createHarness({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    fx = await seedFixture(h.db);
  });
  afterAll(async () => {
    await h.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  afterEach(() => {
    received.length = 0;
  });

  it('sends the code to the hospital admin, writes no outbox file, and the code logs in', async () => {
    const res = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: fx.patientA.hospNo } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Please check admin's email for the OTP." });

    const mail = await nextMessage();
    expect(mail.to).toEqual([fx.adminEmail]);
    expect(mail.text).toMatch(/^To: .*admin@test\.hospital/m);
    expect(mail.text).toContain(`One-time code for patient ${fx.patientA.hospNo}`);
    const code = /Code: (\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    expect(await outboxFiles(h.dataDir)).toEqual([]);

    const login = await call(h.app, 'POST', '/api/auth/login', { body: { hospNo: fx.patientA.hospNo, otp: code } });
    expect(login.status).toBe(200);
    expect(typeof login.json['token']).toBe('string');
    expect((await call(h.app, 'GET', '/api/glucose', { token: String(login.json['token']) })).status).toBe(200);
  });

  it('sends nothing for an unknown number but answers the same', async () => {
    const res = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: '999999' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Please check admin's email for the OTP." });
    await expect(nextMessage(500)).rejects.toThrow('no message reached the SMTP server');
    // The waiter that timed out must not swallow a later message.
    waiters.length = 0;
    expect(await outboxFiles(h.dataDir)).toEqual([]);
  });
});

describe('OTP mail when the SMTP server is down', () => {
  let h: Harness;
  let fx: Fixture;

  beforeAll(async () => {
    // A port that was free a moment ago and now has nobody listening on it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    h = await createHarness({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    fx = await seedFixture(h.db);
  });
  afterAll(() => h.close());

  it('answers 503 with a message, not 500', async () => {
    const res = await call(h.app, 'POST', '/api/auth/sendOtp', { body: { hospNo: fx.patientA.hospNo } });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ message: 'The code could not be sent right now. Please try again in a minute.' });
    expect(await outboxFiles(h.dataDir)).toEqual([]);
  });
});
