// The server's log names routes, never patients: no hospital number from a path, no name typed into
// the staff search, no token (issue 48, the threat model's "what the server logs").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { call, loginAdmin, openTestDatabase, seedFixture, type Fixture } from '../testing/harness.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

let app: FastifyInstance;
let fx: Fixture;
let close: () => Promise<void>;
const lines: string[] = [];

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-log-'));
  const { database, drop } = await openTestDatabase();
  app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', AUTH_RATE_LIMIT: '1000' }),
    database,
    logStream: { write: (line) => void lines.push(line) },
  });
  await app.ready();
  fx = await seedFixture(database.db);
  close = async () => {
    await app.close();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => close());

describe("the server's request log", () => {
  it('names the route and the address, not the hospital number, the search or the token', async () => {
    const token = await loginAdmin(app, fx.adminEmail, fx.adminPassword);
    await call(app, 'GET', `/api/admin/patients/${fx.patientA.hospNo}`, { token });
    await call(app, 'GET', '/api/admin/users?search=Zebedee%20Quincy', { token });
    await call(app, 'GET', `/api/admin/nothing/${fx.patientA.hospNo}?search=Zebedee`, { token });
    const logged = lines.join('');
    expect(logged).toContain('"url":"/api/admin/patients/:hospNo"');
    expect(logged).toContain('"url":"/api/admin/users"');
    expect(logged).toContain('"url":"/api/admin/nothing/:value"');
    expect(logged).not.toContain(fx.patientA.hospNo);
    expect(logged).not.toContain('Zebedee');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(fx.adminPassword);
  });
});
