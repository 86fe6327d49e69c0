// The database's JSON of a row (json-view.ts, used by the list answers) must be what the server's
// own DTOs (services/dto.ts, used by the write answers) make of the same row: same keys in the same
// order, same values, timestamps to the millisecond as toISOString writes them.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, glucoseReadings, labTests, medicineIntakes, symptoms } from '../db/schema.ts';
import { appointmentDto, glucoseDto, intakeDto, labTestDto, symptomDto } from '../services/dto.ts';
import { createHarness, seedFixture, type Fixture, type Harness } from '../testing/harness.ts';
import { appointmentRepo, glucoseRepo, intakeRepo, labTestRepo, symptomRepo } from './records.ts';

let h: Harness;
let fx: Fixture;

beforeAll(async () => {
  h = await createHarness();
  fx = await seedFixture(h.db);
});
afterAll(() => h.close());

/** Odd but valid text: quotes, backslashes, control characters, scripts, emoji, a line separator. */
const ODD = 'Dr "Quote" \\ back\nslash\ttab \u0001 ✓ مرحبا नमस्ते 🩸 \u2028 end';

/** Sets a row's timestamps to instants with microseconds, which JSON carries to the millisecond. */
async function microseconds(table: string, column: string, id: string): Promise<void> {
  await h.db.execute(
    sql`update ${sql.raw(`"${table}"`)} set ${sql.raw(`"${column}"`)} = '2026-03-04 05:06:07.123999+00', updated_at = '1999-12-31 23:59:59.999501+00' where id = ${id}`,
  );
}

type Dto = { _id: string; type?: string; version: number };
type Repo<Row> = {
  listChanges(db: Harness['db'], patientId: string): Promise<{ rows: Row[] }>;
  listChangesJson(db: Harness['db'], patientId: string): Promise<{ groups: Map<string | null, string> }>;
  pullSinceJson(db: Harness['db'], patientId: string, since: number, limit: number): Promise<{ groups: Map<string | null, string> }>;
};

/**
 * Both shapes of every live row of the patient: the DTO of each row (newest first), and the
 * database's JSON texts of them, joined per group, as a pull by version (oldest change first) and
 * as the list (newest first) write them.
 */
async function both<Row>(repo: Repo<Row>, dto: (row: Row) => Dto) {
  const dtos = (await repo.listChanges(h.db, fx.patientA.id)).rows.map(dto);
  expect(dtos.length).toBeGreaterThan(0);
  const pulled = (await repo.pullSinceJson(h.db, fx.patientA.id, 0, 10_000)).groups;
  const { groups } = await repo.listChangesJson(h.db, fx.patientA.id);
  return { dtos, pulled, groups };
}

/**
 * Same values, and for values JSON writes one way only, the same text byte for byte: each group of
 * the list joined in the list's order, and of the pull in version order.
 */
function expectSame({ dtos, pulled, groups }: { dtos: Dto[]; pulled: Map<string | null, string>; groups: Map<string | null, string> }, bytes = true) {
  const byVersion = [...dtos].sort((a, b) => a.version - b.version);
  for (const [joinedGroups, order] of [
    [groups, dtos],
    [pulled, byVersion],
  ] as const) {
    let listed = 0;
    for (const [group, joined] of joinedGroups) {
      const mine = order.filter((d) => group === null || d.type === group);
      expect(JSON.parse(`[${joined}]`)).toEqual(mine);
      if (bytes) expect(joined).toBe(mine.map((d) => JSON.stringify(d)).join(','));
      listed += mine.length;
    }
    expect(listed).toBe(dtos.length);
  }
}

describe('the database writes a row as the DTOs do', () => {
  it('glucose readings, with fractional values and microsecond timestamps', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await h.db.insert(glucoseReadings).values([
      { id: ids[0]!, patientId: fx.patientA.id, type: 'Fasting', valueMgDl: 95, recordedAt: new Date('2026-01-02T03:04:05.006Z') },
      { id: ids[1]!, patientId: fx.patientA.id, type: 'Postprandial', valueMgDl: 181.3333333333333, recordedAt: new Date('2026-01-02T03:04:05Z') },
      { id: ids[2]!, patientId: fx.patientA.id, type: 'Random', valueMgDl: 0.1 + 0.2, recordedAt: new Date('2026-01-02T03:04:05.999Z') },
    ]);
    await microseconds('glucose_readings', 'recorded_at', ids[0]!);
    const found = await both(glucoseRepo, glucoseDto);
    expect(
      [...found.pulled.values()].some((t) => t.includes('"recordedAt":"2026-03-04T05:06:07.123Z",') && t.includes(',"updatedAt":"1999-12-31T23:59:59.999Z",')),
    ).toBe(true);
    expectSame(found);
  });

  it('symptoms with odd text', async () => {
    await h.db
      .insert(symptoms)
      .values({ id: randomUUID(), patientId: fx.patientA.id, symptom: ODD, day: '2026-01-02', recordedAt: new Date('2026-01-02T10:00:00Z') });
    expectSame(await both(symptomRepo, symptomDto));
  });

  it('appointments, notes empty or odd', async () => {
    const id = randomUUID();
    await h.db.insert(appointments).values([
      { id, patientId: fx.patientA.id, doctor: ODD, date: new Date('2027-05-06T07:08:09.010Z'), notes: ODD },
      { id: randomUUID(), patientId: fx.patientA.id, doctor: 'Dr Lee', date: new Date('2026-05-06T07:08:09Z') },
    ]);
    await microseconds('appointments', 'date', id);
    expectSame(await both(appointmentRepo, appointmentDto));
  });

  it('lab tests, with and without a unit, large and small values', async () => {
    await h.db.insert(labTests).values([
      { id: randomUUID(), patientId: fx.patientA.id, name: 'HbA1c', value: 6.5, unit: '%', recordedAt: new Date('2026-01-02T03:04:05Z') },
      { id: randomUUID(), patientId: fx.patientA.id, name: ODD, value: 1234567.125, unit: null, recordedAt: new Date('2026-01-03T03:04:05Z') },
      { id: randomUUID(), patientId: fx.patientA.id, name: 'Tiny', value: 0.000123, unit: 'mmol/L', recordedAt: new Date('2026-01-04T03:04:05Z') },
    ]);
    expectSame(await both(labTestRepo, labTestDto));
  });

  it('doses taken: slot or none, extra or not', async () => {
    await h.db.insert(medicineIntakes).values([
      {
        id: randomUUID(),
        patientId: fx.patientA.id,
        prescrNo: 'RX-1',
        medicineName: ODD,
        dose: '1 tab',
        takenAt: new Date('2026-01-02T08:00:00.5Z'),
        slot: 'breakfast',
        day: '2026-01-02',
        extra: false,
      },
      {
        id: randomUUID(),
        patientId: fx.patientA.id,
        prescrNo: 'RX-2',
        medicineName: 'Metformin',
        dose: '500 mg',
        takenAt: new Date('2026-01-02T20:00:00Z'),
        slot: null,
        day: null,
        extra: true,
      },
    ]);
    expectSame(await both(intakeRepo, intakeDto));
  });

  it('keeps a value JSON writes with an exponent equal as a number', async () => {
    // PostgreSQL writes 1e-07 where JavaScript writes 1e-7: the texts differ, the numbers do not.
    await h.db
      .insert(labTests)
      .values({ id: randomUUID(), patientId: fx.patientA.id, name: 'Trace', value: 1e-7, unit: null, recordedAt: new Date('2026-01-05T03:04:05Z') });
    expectSame(await both(labTestRepo, labTestDto), false);
  });
});
