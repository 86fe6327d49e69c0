import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { call } from '../testing/harness.ts';
import { adminCli } from './admin.ts';

// The CLI works on the embedded database in DATA_DIR, the way an operator uses it on a laptop or
// a single server before the first start.
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-cli-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const lines: string[] = [];
  const code = await adminCli(argv, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

describe('npm run admin', () => {
  it('sets up a hospital, an admin and a patient who can then log in', async () => {
    expect(await cli('create-hospital', '--name', 'St. Mary', '--time-zone', 'Europe/London')).toMatchObject({ code: 0 });
    const admin = await cli('create-admin', '--email', 'Nurse@StMary.org', '--name', 'Head Nurse', '--hospital', 'St. Mary', '--password', 'Nurse-pass-1');
    expect(admin.code).toBe(0);
    expect(admin.out).toContain('Created admin nurse@stmary.org');
    const group = await cli(
      'create-admin',
      '--email',
      'group@stmary.org',
      '--name',
      'Group Lead',
      '--hospital',
      'St. Mary',
      '--password',
      'Lead the whole group',
      '--group-admin',
    );
    expect(group.out).toContain('Created group admin group@stmary.org');
    const patient = await cli('create-patient', '--hosp-no', 'SM-1', '--name', 'Pat Doe', '--hospital', 'St. Mary');
    expect(patient.code).toBe(0);
    const temp = /Temporary password[^:]*: (\S+)/.exec(patient.out)?.[1];
    expect(temp).toBeTruthy();

    const database = await openDatabase({ dataDir });
    const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir }), database, logger: false });
    try {
      const login = await call(app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: 'SM-1', password: temp } });
      expect(login.status).toBe(200);
      expect(login.json['mustChangePassword']).toBe(true);
      const staff = await call(app, 'POST', '/api/admin/login', { body: { email: 'nurse@stmary.org', password: 'Nurse-pass-1' } });
      expect(staff.status).toBe(200);
      expect((staff.json['admin'] as { hospitals: { name: string }[] }).hospitals.map((h) => h.name)).toEqual(['St. Mary']);
      // Only the group's administrator may add a hospital.
      const add = { name: 'St. Mary Annex' };
      expect((await call(app, 'POST', '/api/admin/hospitals', { token: String(staff.json['token']), body: add })).status).toBe(403);
      const lead = await call(app, 'POST', '/api/admin/login', { body: { email: 'group@stmary.org', password: 'Lead the whole group' } });
      expect((await call(app, 'POST', '/api/admin/hospitals', { token: String(lead.json['token']), body: add })).status).toBe(201);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('ends the sessions without a second factor of an admin granted a hospital that asks for one', async () => {
    const open = async () => {
      const database = await openDatabase({ dataDir });
      const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir }), database, logger: false });
      return { app, close: async () => (await app.close(), await database.close()) };
    };
    let nurse: string;
    const before = await open();
    try {
      const lead = await call(before.app, 'POST', '/api/admin/login', { body: { email: 'group@stmary.org', password: 'Lead the whole group' } });
      const annex = (lead.json['admin'] as { hospitals: { _id: string; name: string }[] }).hospitals.find((h) => h.name === 'St. Mary Annex');
      if (!annex) throw new Error('the annex of the test before is missing');
      const asks = await call(before.app, 'PATCH', `/api/admin/hospitals/${annex._id}`, { token: String(lead.json['token']), body: { requireStaffMfa: true } });
      expect(asks.status).toBe(200);
      const login = await call(before.app, 'POST', '/api/admin/login', { body: { email: 'nurse@stmary.org', password: 'Nurse-pass-1' } });
      nurse = String(login.json['token']);
      expect((await call(before.app, 'GET', '/api/admin/hospitals', { token: nurse })).status).toBe(200);
    } finally {
      await before.close();
    }
    const granted = await cli('grant', '--email', 'nurse@stmary.org', '--hospital', 'St. Mary Annex');
    expect(granted.out).toContain("St. Mary Annex asks for a second factor: nurse@stmary.org's sessions without one have ended.");
    const after = await open();
    try {
      expect((await call(after.app, 'GET', '/api/admin/hospitals', { token: nurse })).status).toBe(401);
    } finally {
      await after.close();
    }
  });

  it('explains what is wrong', async () => {
    expect((await cli('create-patient', '--hosp-no', 'SM-2', '--name', 'X', '--hospital', 'Nowhere')).out).toMatch(/No hospital named "Nowhere"/);
    expect((await cli('create-hospital', '--name', 'St. Mary')).out).toMatch(/already exists/);
    expect((await cli('create-hospital', '--name', 'Elsewhere', '--time-zone', 'Mars/Base')).out).toMatch(/not an IANA time zone/);
    expect((await cli('create-admin', '--email', 'a@b.c', '--name', 'A', '--hospital', 'St. Mary', '--password', 'short')).out).toMatch(
      /at least 8 characters/,
    );
    expect((await cli('create-admin', '--email', 'a@b.c', '--name', 'A', '--hospital', 'St. Mary', '--password', 'Password1')).out).toMatch(
      /one of the most common/,
    );
    expect((await cli('create-admin', '--email', 'head.nurse@b.c', '--name', 'A', '--hospital', 'St. Mary', '--password', 'Head.Nurse-2026')).out).toMatch(
      /your hospital number, your name/,
    );
    // A name shown to staff that reads backwards (U+202E), or carries a terminal's escape: refused as in the app.
    const reversed = await cli('create-patient', '--hosp-no', 'SM-3', '--name', 'Ann \u202Eeoj', '--hospital', 'St. Mary');
    expect(reversed).toMatchObject({ code: 2 });
    expect(reversed.out).toMatch(/^--name must not contain control characters or text-direction overrides \(found U\+202E\)/);
    expect((await cli('create-hospital', '--name', 'Ward \u001b[31m')).out).toMatch(/^--name must not contain .*U\+001B/);
    expect((await cli('grant', '--email', 'x@y.z', '--hospital', 'St. Mary', '--hospital', 'Other\u2066')).out).toMatch(/^--hospital must not/);
    expect(await cli('frobnicate')).toMatchObject({ code: 2 });
    expect((await cli('--bogus')).code).toBe(2);
    expect((await cli('--help')).out).toMatch(/^Usage: npm run admin/);
  });

  it('refuses to open the embedded database while another process holds it', async () => {
    const { writeFile } = await import('node:fs/promises');
    // pid 1 always exists: it stands for a running server.
    await writeFile(path.join(dataDir, 'eddy.lock'), '1');
    await expect(cli('list-hospitals')).rejects.toThrow(/in use by process 1.*Stop the server/);
    await rm(path.join(dataDir, 'eddy.lock'));
    expect((await cli('list-hospitals')).out).toMatch(/St\. Mary/);
  });
});
