// Issue 48: text with control characters or text-direction overrides is refused with the field
// named, on a route of its own and inside a batch, where the writes before it stay applied.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

let h: Harness;
let fx: Fixture;
let token: string;
let seq = 0;
const mid = () => `plain-text-device:${++seq}`;
const appointment = (doctor: string, notes = '') => ({
  _id: randomUUID(),
  doctor,
  date: new Date(Date.now() + 86_400_000).toISOString(),
  notes,
  mutationId: mid(),
});

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

describe('text with control characters or text-direction overrides', () => {
  it('is refused on its route with the field named, and nothing is stored', async () => {
    const res = await call(h.app, 'POST', '/api/appointments/add', { token, body: appointment('Dr \u202etimS') });
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe('doctor must not contain control characters or text-direction overrides (found U+202E)');
    const esc = await call(h.app, 'POST', '/api/appointments/add', { token, body: appointment('Dr Smith', 'bring \u001b[2J the meter') });
    expect(esc.status).toBe(400);
    expect(esc.json['message']).toMatch(/^notes must not contain/);
    const list = await call(h.app, 'GET', '/api/appointments', { token });
    expect(JSON.stringify(list.json)).not.toMatch(/timS|the meter/);
  });

  it('is accepted in any script, with line breaks and the marks Arabic needs', async () => {
    const res = await call(h.app, 'POST', '/api/appointments/add', { token, body: appointment('د. سميث\u200f', 'line one\nline two — मधुमेह 😀') });
    expect(res.status).toBe(201);
  });

  it('inside a batch refuses that write only: the writes before it stay', async () => {
    const first = appointment('Dr Before');
    const res = await call(h.app, 'POST', '/api/batch', {
      token,
      body: {
        mutations: [
          { path: '/appointments/add', body: first },
          { path: '/appointments/add', body: appointment('Dr \u2066Iso\u2069') },
          { path: '/appointments/add', body: appointment('Dr After') },
        ],
      },
    });
    expect(res.status).toBe(200);
    const results = res.json['results'] as { status: number; body: { message?: string } }[];
    expect(results.map((r) => r.status)).toEqual([201, 400]);
    expect(results[1]?.body.message).toBe('doctor must not contain control characters or text-direction overrides (found U+2066)');
    const list = JSON.stringify((await call(h.app, 'GET', '/api/appointments', { token })).json);
    expect(list).toContain('Dr Before');
    expect(list).not.toContain('Dr After');
  });

  it('is refused in names staff write and see: a patient’s name, a doctor token’s name', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const patient = await call(h.app, 'PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { token: admin, body: { name: 'Maria \u202ezepoL' } });
    expect(patient.status).toBe(400);
    expect(patient.json['message']).toMatch(/^name must not contain control characters/);
    const search = await call(h.app, 'GET', '/api/admin/users?search=%1B', { token: admin });
    expect(search.status).toBe(400);
    expect(search.json['message']).toMatch(/^search must not contain/);
  });

  it('leaves a password as it was typed, so an older password with such a character still signs in', async () => {
    const res = await call(h.app, 'POST', '/api/auth/loginWithPassword', { body: { hospNo: fx.patientA.hospNo, password: 'wrong\u202e' } });
    expect(res.status).toBe(401);
  });
});
