// docs/sync-protocol.md, "Stated conflicts": an edit made on a version that has moved on is refused
// with 409 {message, current} (never applied over the newer value, never silently dropped), unless
// it changes nothing; meal times merge field by field, so edits of different meals never conflict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, loginAdmin, loginPatient, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';

interface Reading {
  _id: string;
  type: string;
  value: number;
  version: number;
}
interface Profile {
  notificationTimings: { breakfast: string; lunch: string; dinner: string };
  version: number;
}

let h: Harness;
let fx: Fixture;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
  token = await loginPatient(h.app, fx.patientA.hospNo, fx.patientA.password);
});
afterAll(() => h.close());

const post = (url: string, body: Record<string, unknown>) => call(h.app, 'POST', url, { token, body });

async function addReading(value: number): Promise<Reading> {
  const res = await post('/api/glucose/add', { type: 'Fasting', value });
  expect(res.status).toBe(201);
  return res.json['data'] as Reading;
}

const change = (r: Reading, gvalue: number, baseVersion = r.version) =>
  post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue, baseVersion });

describe('a glucose reading edited on an old version', () => {
  it('is refused with 409 and the reading as the server has it', async () => {
    const r = await addReading(120);
    const newer = await change(r, 125);
    expect(newer.status).toBe(200);
    const stale = await change(r, 130);
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({
      message: 'This reading was changed on another device or by your care team since you edited it.',
      current: newer.json['data'],
    });
  });

  it('is accepted as it is when it changes nothing', async () => {
    const r = await addReading(121);
    const newer = await change(r, 126);
    const same = await change(r, 126);
    expect(same.status).toBe(200);
    expect(same.json['data']).toEqual(newer.json['data']);
  });

  it('is refused with current null when the reading was deleted; without baseVersion it is 404 as before', async () => {
    const r = await addReading(122);
    expect((await post('/api/glucose/delete', { glucoseId: r._id })).status).toBe(200);
    const stale = await change(r, 131);
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({ message: 'This reading was deleted on another device.', current: null });
    const plain = await post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue: 131 });
    expect(plain.status).toBe(404);
  });

  it('a delete on an old version is refused; deleting a deleted reading is accepted', async () => {
    const r = await addReading(123);
    const newer = await change(r, 127);
    const stale = await post('/api/glucose/delete', { glucoseId: r._id, baseVersion: r.version });
    expect(stale.status).toBe(409);
    expect(stale.json['current']).toEqual(newer.json['data']);
    const current = newer.json['data'] as Reading;
    expect((await post('/api/glucose/delete', { glucoseId: r._id, baseVersion: current.version })).status).toBe(200);
    expect((await post('/api/glucose/delete', { glucoseId: r._id, baseVersion: r.version })).status).toBe(200);
  });

  it.each(['A then B', 'B then A'])('two devices editing the same reading (%s): the second is told, and keeps theirs on the current version', async (order) => {
    const r = await addReading(140);
    const [first, second] = order === 'A then B' ? [150, 160] : [160, 150];
    const a = await change(r, first);
    expect(a.status).toBe(200);
    const b = await change(r, second);
    expect(b.status).toBe(409);
    const current = b.json['current'] as Reading;
    expect(current.value).toBe(first);
    const kept = await change(r, second, current.version);
    expect(kept.status).toBe(200);
    const list = await call(h.app, 'GET', '/api/glucose', { token });
    expect((list.json['fasting'] as Reading[]).find((x) => x._id === r._id)?.value).toBe(second);
  });
});

describe('lab tests and appointments follow the same rule', () => {
  it('lab test', async () => {
    const add = await post('/api/tests/add', { name: 'HbA1c', value: 7.1, unit: '%', recordedAt: '2026-11-01T08:00:00.000Z' });
    const t = add.json['data'] as { _id: string; version: number };
    const body = (value: number, baseVersion: number) => ({
      testId: t._id,
      name: 'HbA1c',
      value,
      unit: '%',
      recordedAt: '2026-11-01T08:00:00.000Z',
      baseVersion,
    });
    expect((await post('/api/tests/update', body(7.2, t.version))).status).toBe(200);
    const stale = await post('/api/tests/update', body(7.3, t.version));
    expect(stale.status).toBe(409);
    expect(stale.json['message']).toBe('This lab test was changed on another device or by your care team since you edited it.');
    expect(stale.json['current']).toMatchObject({ _id: t._id, value: 7.2 });
    expect((await post('/api/tests/update', body(7.2, t.version))).status).toBe(200);
  });

  it('appointment', async () => {
    const add = await post('/api/appointments/add', { doctor: 'Dr. Lee', date: '2026-12-10T09:00:00.000Z', notes: '' });
    const a = add.json['data'] as { _id: string; version: number };
    const body = (doctor: string, baseVersion: number) => ({ appointmentId: a._id, doctor, date: '2026-12-10T09:00:00.000Z', baseVersion });
    expect((await post('/api/appointments/update', body('Dr. Lee (eyes)', a.version))).status).toBe(200);
    const stale = await post('/api/appointments/update', body('Dr. Leigh', a.version));
    expect(stale.status).toBe(409);
    expect(stale.json['message']).toBe('This appointment was changed on another device or by your care team since you edited it.');
    const staleDelete = await post('/api/appointments/delete', { appointmentId: a._id, baseVersion: a.version });
    expect(staleDelete.status).toBe(409);
    expect(staleDelete.json['current']).toMatchObject({ doctor: 'Dr. Lee (eyes)' });
  });
});

describe('meal times merge field by field', () => {
  async function profile(): Promise<Profile> {
    return (await call(h.app, 'GET', '/api/users/', { token })).json['user'] as Profile;
  }
  const setTimes = (times: Partial<Profile['notificationTimings']>, baseVersion: number) => post('/api/users/notificationTimings', { ...times, baseVersion });

  it('two devices editing different meal times on the same version: both kept, in either order', async () => {
    for (const [first, second] of [
      [{ breakfast: '07:05' }, { dinner: '19:55' }],
      [{ dinner: '19:50' }, { breakfast: '07:10' }],
    ] as const) {
      const base = (await profile()).version;
      expect((await setTimes(first, base)).status).toBe(200);
      const res = await setTimes(second, base);
      expect(res.status).toBe(200);
      expect((await profile()).notificationTimings).toMatchObject({ ...first, ...second });
    }
  });

  it('two devices editing the same meal time: the second is refused with the fields and the current profile', async () => {
    const base = (await profile()).version;
    expect((await setTimes({ lunch: '12:10' }, base)).status).toBe(200);
    const stale = await setTimes({ lunch: '12:20', breakfast: '06:50' }, base);
    expect(stale.status).toBe(409);
    expect(stale.json['message']).toBe('Your lunch time was changed by your care team or on another device.');
    expect(stale.json['fields']).toEqual(['lunch']);
    const current = stale.json['current'] as Profile;
    expect(current.notificationTimings.lunch).toBe('12:10');
    expect(current.version).toBe((await profile()).version);
    // Nothing of the refused request was applied, breakfast included.
    expect((await profile()).notificationTimings.breakfast).not.toBe('06:50');
    // The same value as the other device's is no conflict.
    expect((await setTimes({ lunch: '12:10' }, base)).status).toBe(200);
  });

  it("a meal time sent again on no version with what it was made on: another device's change since is a conflict, the same device's own is not (chaos seed 1838412833)", async () => {
    // Made after every change of the tests before (the server notes no time later than its own).
    const made = (order: number) => new Date(Date.now() + order * 1_000).toISOString();
    const before = (await profile()).notificationTimings;
    // Device A's change, sent again by its heal: breakfast 05:30, made a while ago.
    expect((await post('/api/users/notificationTimings', { breakfast: '05:30', madeAt: made(1), mutationId: 'device-a-1838:7' })).status).toBe(200);
    // Device B changes breakfast on what it held before: the server holds another's 05:30.
    const theirs = await post('/api/users/notificationTimings', {
      breakfast: '09:10',
      madeOn: { breakfast: before.breakfast },
      madeAt: made(2),
      mutationId: 'device-b-1838:3',
    });
    expect(theirs.status).toBe(409);
    expect(theirs.json['fields']).toEqual(['breakfast']);
    // Device A's later change, made on what it held before its heal: its own 05:30 is no conflict.
    const mine = await post('/api/users/notificationTimings', {
      breakfast: '08:40',
      madeOn: { breakfast: before.breakfast },
      madeAt: made(3),
      mutationId: 'device-a-1838:9',
    });
    expect(mine.status).toBe(200);
    expect((await profile()).notificationTimings.breakfast).toBe('08:40');
    // Staff change it: device A's next change made on 08:40 is refused as a conflict again.
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect(
      (await call(h.app, 'PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { token: admin, body: { notificationTimings: { breakfast: '07:20' } } })).status,
    ).toBe(200);
    const afterStaff = await post('/api/users/notificationTimings', {
      breakfast: '08:50',
      madeOn: { breakfast: '08:40' },
      madeAt: made(4),
      mutationId: 'device-a-1838:10',
    });
    expect(afterStaff.status).toBe(409);
    expect((await profile()).notificationTimings.breakfast).toBe('07:20');
  });

  it("staff changing lunch while the patient's breakfast edit waits: both are kept", async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const before = await profile();
    const staff = await call(h.app, 'PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { token: admin, body: { notificationTimings: { lunch: '12:30' } } });
    expect(staff.status).toBe(200);
    // Staff sending the whole object with the other times unchanged changes only lunch, too.
    const whole = { ...before.notificationTimings, lunch: '12:35' };
    expect((await call(h.app, 'PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { token: admin, body: { notificationTimings: whole } })).status).toBe(200);
    const queued = await setTimes({ breakfast: '06:45' }, before.version);
    expect(queued.status).toBe(200);
    expect((await profile()).notificationTimings).toEqual({ breakfast: '06:45', lunch: '12:35', dinner: before.notificationTimings.dinner });
    // The patient's old lunch, sent on the old version, would revert the staff's change: refused.
    const stale = await setTimes({ lunch: before.notificationTimings.lunch }, before.version);
    expect(stale.status).toBe(409);
    expect(stale.json['fields']).toEqual(['lunch']);
  });

  it('staff editing on an old copy cannot put back a meal time the patient changed since', async () => {
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    const path = `/api/admin/patients/${fx.patientA.hospNo}`;
    const opened = (await call(h.app, 'GET', path, { token: admin })).json['patient'] as Profile;
    expect((await setTimes({ dinner: '18:40' }, (await profile()).version)).status).toBe(200);
    const form = { ...opened.notificationTimings, breakfast: '06:15' };
    const stale = await call(h.app, 'PATCH', path, { token: admin, body: { notificationTimings: form, baseVersion: opened.version } });
    expect(stale.status).toBe(409);
    expect(stale.json['fields']).toEqual(['dinner']);
    expect(stale.json['message']).toBe('The dinner time was changed by the patient or another staff member since this page was opened.');
    expect((stale.json['current'] as Profile).notificationTimings.dinner).toBe('18:40');
    const onlyBreakfast = await call(h.app, 'PATCH', path, {
      token: admin,
      body: { notificationTimings: { breakfast: '06:15' }, baseVersion: opened.version },
    });
    expect(onlyBreakfast.status).toBe(200);
    expect((await profile()).notificationTimings).toMatchObject({ breakfast: '06:15', dinner: '18:40' });
  });

  it('adding and removing glucometer days never conflict, and answer the new version', async () => {
    const v0 = (await profile()).version;
    const add = await post('/api/users/glucometerAlerts', { day: 'Tuesday' });
    expect(add.status).toBe(200);
    expect(add.json['version']).toBeGreaterThan(v0);
    const remove = await post('/api/users/glucometerAlerts/remove', { day: 'Tuesday' });
    expect(remove.json['version']).toBeGreaterThan(add.json['version'] as number);
  });
});

describe('a write stated on a version the record never had (the device knows a history this server lost)', () => {
  const unknown = { code: 'base-version-unknown', message: expect.stringContaining('restored from an earlier backup') };

  it('an edit or a delete of a reading is refused with its own code and the reading as it is, even when it changes nothing; nothing changes', async () => {
    const r = await addReading(150);
    const ahead = await change(r, 155, r.version + 1);
    expect(ahead.status).toBe(409);
    expect(ahead.json).toEqual({ ...unknown, current: r });
    expect((await change(r, 150, r.version + 5)).json).toEqual({ ...unknown, current: r });
    const del = await post('/api/glucose/delete', { glucoseId: r._id, baseVersion: r.version + 1 });
    expect(del.status).toBe(409);
    expect(del.json).toMatchObject(unknown);
    const list = await call(h.app, 'GET', '/api/glucose', { token });
    expect((list.json['fasting'] as Reading[]).find((x) => x._id === r._id)).toEqual(r);
    // On its own version it goes through as before.
    expect((await change(r, 155)).status).toBe(200);
  });

  it('meal times on a version the profile never had are refused the same way, with the profile as it is', async () => {
    const before = (await call(h.app, 'GET', '/api/users/', { token })).json['user'] as Profile;
    const res = await post('/api/users/notificationTimings', { breakfast: '06:55', baseVersion: before.version + 1 });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ ...unknown, current: { notificationTimings: before.notificationTimings, version: before.version } });
    expect(((await call(h.app, 'GET', '/api/users/', { token })).json['user'] as Profile).notificationTimings).toEqual(before.notificationTimings);
  });
});

describe('a change sent again on no version after a heal is ordered by when it was made (two devices heal in the order they come back)', () => {
  const superseded = { code: 'superseded', message: 'A later change to this entry, made on another device, is already on the server: it stays.' };
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const resend = (r: Reading, gvalue: number, madeAt: string) => post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue, madeAt });
  const valueOf = async (r: Reading) => ((await call(h.app, 'GET', '/api/glucose', { token })).json['fasting'] as Reading[]).find((x) => x._id === r._id);

  it('an edit made before the one the reading holds changes nothing (409 superseded); one made after it applies', async () => {
    const r = await addReading(140);
    expect((await resend(r, 145, at(2))).status).toBe(200);
    const older = await resend(r, 142, at(5));
    expect(older.status).toBe(409);
    expect(older.json).toEqual(superseded);
    expect((await valueOf(r))?.value).toBe(145);
    expect((await resend(r, 147, at(1))).status).toBe(200);
    expect((await valueOf(r))?.value).toBe(147);
    // A removal made before the last edit is superseded too; the reading stays.
    const del = await post('/api/glucose/delete', { glucoseId: r._id, madeAt: at(3) });
    expect(del.json).toEqual(superseded);
    expect((await valueOf(r))?.value).toBe(147);
  });

  it('an edit on a version always applies (a stale one is the stated conflict) and counts as after what its base held; a clock ahead of the server counts as now', async () => {
    const r = await addReading(130);
    const based = await post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue: 131, baseVersion: r.version, madeAt: at(30) });
    expect(based.status).toBe(200);
    const ahead = await resend({ ...r, version: (based.json['data'] as Reading).version }, 133, new Date(Date.now() + 3600_000).toISOString());
    expect(ahead.status).toBe(200);
    // The "future" edit was noted at the server's time: an edit made a moment later still applies.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await resend(r, 134, new Date().toISOString())).status).toBe(200);
    expect((await valueOf(r))?.value).toBe(134);
  });

  it('a change without madeAt (an older app) is noted at the server’s time, and an edit without either applies as the spec says', async () => {
    const r = await addReading(160);
    expect((await post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue: 161 })).status).toBe(200);
    expect((await resend(r, 162, at(1))).json).toEqual(superseded);
    expect((await post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue: 163 })).status).toBe(200);
    expect((await valueOf(r))?.value).toBe(163);
  });

  it('meal times: each is ordered on its own; a request whose every change is older is refused, the others apply; staff count as now', async () => {
    const setTimes = (times: Record<string, string>, madeAt: string) => post('/api/users/notificationTimings', { ...times, madeAt });
    const timings = async () => ((await call(h.app, 'GET', '/api/users/', { token })).json['user'] as Profile).notificationTimings;
    // Earlier tests set these meal times moments ago: "now" is the latest a device can claim.
    expect((await setTimes({ breakfast: '08:31' }, new Date().toISOString())).status).toBe(200);
    const older = await setTimes({ breakfast: '05:45' }, at(0.5));
    expect(older.status).toBe(409);
    expect(older.json).toEqual(superseded);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const mixedAt = new Date();
    const mixed = await setTimes({ breakfast: '05:50', dinner: '19:05' }, mixedAt.toISOString());
    expect(mixed.status).toBe(200);
    expect(await timings()).toMatchObject({ breakfast: '05:50', dinner: '19:05' });
    // Made just before that: breakfast holds a later change and stays; lunch, set earlier, takes it.
    const half = await setTimes({ breakfast: '06:10', lunch: '12:05' }, new Date(mixedAt.getTime() - 1).toISOString());
    expect(half.status).toBe(200);
    expect(await timings()).toMatchObject({ breakfast: '05:50', lunch: '12:05' });
    const partly = await setTimes({ breakfast: '06:00', dinner: '19:10' }, at(0.2));
    expect(partly.json).toEqual(superseded);
    expect(await timings()).toMatchObject({ breakfast: '05:50', dinner: '19:05' });
    const admin = await loginAdmin(h.app, fx.adminEmail, fx.adminPassword);
    expect(
      (await call(h.app, 'PATCH', `/api/admin/patients/${fx.patientA.hospNo}`, { token: admin, body: { notificationTimings: { lunch: '12:40' } } })).status,
    ).toBe(200);
    expect((await setTimes({ lunch: '11:00' }, at(1))).json).toEqual(superseded);
    expect((await timings()).lunch).toBe('12:40');
  });

  it("a device's own later change is never superseded by its own earlier one, whatever its clock said; another device's older change still is", async () => {
    // The device's clock was set back 20 hours between its two changes (its heal sent the first
    // again, stamped with the right time, ahead of the second, stamped with the clock behind).
    const send = (r: Reading, gvalue: number, madeAt: string, mutationId: string) =>
      post('/api/glucose/update', { glucoseId: r._id, gtype: 'Fasting', gvalue, madeAt, mutationId });
    const r = await addReading(190);
    expect((await send(r, 191, at(1), 'own-clock-a:1')).status).toBe(200);
    expect((await send(r, 192, at(20 * 60), 'own-clock-a:2')).status).toBe(200);
    expect((await valueOf(r))?.value).toBe(192);
    // Another device's change made before the first still counts as older, and changes nothing.
    expect((await send(r, 193, at(2), 'own-clock-b:1')).json).toEqual(superseded);
    expect((await valueOf(r))?.value).toBe(192);
    // Meal times likewise, each on its own.
    const setTimes = (times: Record<string, string>, madeAt: string, mutationId: string) =>
      post('/api/users/notificationTimings', { ...times, madeAt, mutationId });
    const timings = async () => ((await call(h.app, 'GET', '/api/users/', { token })).json['user'] as Profile).notificationTimings;
    expect((await setTimes({ breakfast: '05:30' }, new Date().toISOString(), 'own-clock-a:3')).status).toBe(200);
    expect((await setTimes({ breakfast: '08:36' }, at(20 * 60), 'own-clock-a:4')).status).toBe(200);
    expect((await timings()).breakfast).toBe('08:36');
    expect((await setTimes({ breakfast: '07:00' }, at(20 * 60), 'own-clock-b:2')).json).toEqual(superseded);
    expect((await timings()).breakfast).toBe('08:36');
  });

  it('in a batch, a superseded write stops the batch where it stands, as any refusal does', async () => {
    const r = await addReading(170);
    expect((await resend(r, 171, at(1))).status).toBe(200);
    const other = await addReading(180);
    const res = await post('/api/batch', {
      mutations: [
        { path: '/glucose/update', body: { glucoseId: other._id, gtype: 'Fasting', gvalue: 181, madeAt: at(2), mutationId: 'made-at-batch:1' } },
        { path: '/glucose/update', body: { glucoseId: r._id, gtype: 'Fasting', gvalue: 172, madeAt: at(3), mutationId: 'made-at-batch:2' } },
      ],
    });
    expect(res.status).toBe(200);
    const results = res.json['results'] as { status: number; body: Record<string, unknown> }[];
    expect(results.map((x) => x.status)).toEqual([200, 409]);
    expect(results[1]?.body).toEqual(superseded);
    expect((await valueOf(other))?.value).toBe(181);
    expect((await valueOf(r))?.value).toBe(171);
  });
});
