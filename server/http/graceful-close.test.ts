import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeConnectionsAfterAnswer } from './graceful-close.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A kept-alive connection (HTTP/1.1, no `Connection: close`) with a request whose body is half sent. */
async function halfSent(port: number): Promise<{ socket: Socket; received: () => string; ended: Promise<number> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  const ended = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
  socket.write('POST /echo HTTP/1.1\r\nHost: eddy\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n12345');
  await sleep(50);
  return { socket, received: () => text, ended };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer({ keepAliveTimeout: 72_000 }, handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('closing the HTTP server with a request in flight', () => {
  it('answers that request in full with Connection: close, ends its connection, and close() completes at once', async () => {
    const port = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.end(`got ${body}`));
    });
    const s = server as Server;
    const drain = closeConnectionsAfterAnswer(s);
    const req = await halfSent(port);
    const closed = new Promise<number>((r) => s.close(() => r(Date.now())));
    drain.begin();
    req.socket.write('67890');
    const [closedAt, endedAt] = await Promise.all([closed, req.ended]);
    expect(req.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(req.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(req.received().endsWith('\r\n\r\ngot 1234567890')).toBe(true);
    expect(Math.abs(closedAt - endedAt)).toBeLessThan(1000);
  });

  it('also ends a connection whose answer had started before closing began, once the answer is complete', async () => {
    let finish: (() => void) | undefined;
    const port = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part one, ');
      finish = () => res.end('part two');
    });
    const s = server as Server;
    const drain = closeConnectionsAfterAnswer(s);
    const req = await halfSent(port);
    req.socket.write('67890');
    for (let i = 0; i < 100 && !finish; i++) await sleep(10);
    const closed = new Promise<number>((r) => s.close(() => r(Date.now())));
    drain.begin();
    await sleep(100);
    expect(req.received()).toMatch(/keep-alive/i); // the head was sent before: it promised keep-alive
    finish?.();
    await Promise.all([closed, req.ended]);
    expect(req.received()).toContain('part two');
  });

  it('without it, Node keeps such a connection open after the answer (why this exists)', async () => {
    const port = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const s = server as Server;
    const req = await halfSent(port);
    let closed = false;
    s.close(() => (closed = true));
    req.socket.write('67890');
    await sleep(300);
    expect(req.received()).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(closed).toBe(false);
    req.socket.destroy();
  });
});
