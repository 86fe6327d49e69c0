// The fuzz's judge (tests/fuzz/contracts.ts) on answers made up for the purpose: it must call each
// broken rule, and nothing else.
import { describe, expect, it } from 'vitest';
import { judge, type Answer } from './contracts.ts';
import { discoverRoutes, routeKey } from './routes.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});
const reading = { _id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', type: 'Fasting', value: 100, recordedAt: '2026-11-01T08:00:00.000Z', version: 3 };

describe('the fuzz contracts', () => {
  it('has the declared answers of every route', () => {
    expect(
      discoverRoutes()
        .filter((r) => r.response === undefined)
        .map(routeKey),
    ).toEqual([]);
  });

  it('counts a 5xx as a server error', () => {
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(500, { message: 'Internal Server Error' })).serverError).toBe(true);
  });

  it('wants a JSON message on every 4xx', () => {
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(400, { message: 'since must be …' })).violations).toEqual([]);
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(400, { error: 'x' })).violations).toHaveLength(1);
    expect(
      judge(undefined, 'GET', 'none', false, { status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>') }).violations,
    ).toHaveLength(1);
  });

  it('checks a 2xx against its declared shape', () => {
    const ok = { fasting: [reading], postprandial: [], random: [] };
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(200, ok)).violations).toEqual([]);
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(200, { fasting: [] })).violations).toHaveLength(1);
    expect(judge('GET /api/glucose', 'GET', 'patient', true, json(200, { ...ok, random: [{ ...reading, value: 9000 }] })).violations).toHaveLength(1);
    expect(
      judge('POST /api/users/report', 'POST', 'patient', true, { status: 200, headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.7') })
        .violations,
    ).toEqual([]);
  });

  it('accepts a repeated mutation answered with the first answer of another write', () => {
    const first = json(201, { message: 'Glucose reported successfully', data: reading }, { 'x-mutation-repeat': '1' });
    expect(judge('POST /api/symptoms/add', 'POST', 'patient', true, first).violations).toEqual([]);
    // Status and all: a delete sent with an add's mutation id gets the add's 201.
    expect(judge('POST /api/glucose/delete', 'POST', 'patient', true, first).violations).toEqual([]);
    expect(judge('POST /api/glucose/delete', 'POST', 'patient', true, json(201, { nope: 1 }, { 'x-mutation-repeat': '1' })).violations).toHaveLength(1);
  });

  it('calls leaked secrets and answers to callers a route must refuse', () => {
    expect(
      judge('GET /api/admin/users', 'GET', 'admin', true, json(200, { users: [], total: 0, page: 1, limit: 5, pages: 0, passwordHash: 'x' })).violations,
    ).toContain('answer leaks a secret field: $.passwordHash');
    expect(judge('GET /api/glucose', 'GET', 'none', true, json(200, { fasting: [], postprandial: [], random: [] })).violations).toEqual([
      'a guarded route answered 2xx without a valid token',
    ]);
    expect(judge('POST /api/glucose/add', 'POST', 'admin', true, json(201, { message: 'm', data: reading })).violations).toHaveLength(1);
    expect(
      judge(
        'POST /api/admin/hospitals',
        'POST',
        'doctor',
        true,
        json(201, {
          data: {
            _id: reading._id,
            name: 'H',
            timeZone: 'UTC',
            severeLowMgDl: 54,
            identifierSystem: `urn:uuid:${reading._id}`,
            urgentHighMgDl: 400,
            careContact: null,
            requireStaffMfa: false,
          },
        }),
      ).violations,
    ).toHaveLength(1);
    expect(judge('POST /api/admin/alerts/on', 'POST', 'doctor', true, json(200, { message: 'm' })).violations).toEqual([]);
    expect(judge('POST /api/admin/alerts/on', 'POST', 'patient', true, json(200, { message: 'm' })).violations).toEqual([
      'a patient token reached the staff area',
    ]);
  });
});
