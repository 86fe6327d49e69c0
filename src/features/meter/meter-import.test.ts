// The import against a meter simulated in bytes: the Record Access Control Point dialogue, then
// what each record becomes (issue 19).
import { describe, expect, it } from 'vitest';
import { GLUCOSE_MEASUREMENT, GLUCOSE_MEASUREMENT_CONTEXT, RECORD_ACCESS_CONTROL_POINT, type GlucoseMeasurement } from './glucose-profile.ts';
import { fetchRecords, MeterError, meterInstant, planImport, readingIdOf, type CharacteristicLike, type GlucoseServiceLike } from './meter-import.ts';

/** A characteristic that notifies the bytes it is given, as Web Bluetooth does. */
class FakeCharacteristic extends EventTarget implements CharacteristicLike {
  value: DataView | null = null;
  notifying = false;
  written: number[][] = [];
  private readonly onWrite: (bytes: number[]) => void;
  constructor(onWrite: (bytes: number[]) => void = () => undefined) {
    super();
    this.onWrite = onWrite;
  }
  async startNotifications() {
    this.notifying = true;
    return this;
  }
  async stopNotifications() {
    this.notifying = false;
    return this;
  }
  async writeValueWithResponse(value: BufferSource) {
    const bytes = [...new Uint8Array(value instanceof ArrayBuffer ? value : value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength))];
    this.written.push(bytes);
    queueMicrotask(() => this.onWrite(bytes));
  }
  notify(bytes: number[]) {
    if (!this.notifying) throw new Error('notifications are off');
    this.value = new DataView(Uint8Array.from(bytes).buffer);
    this.dispatchEvent(new Event('characteristicvaluechanged'));
  }
}

const time = (minute: number) => [0xea, 0x07, 11, 28, 7, minute, 0];
/** A measurement in kg/L (mg/dL), capillary plasma, finger; `flags` add to 0x02. */
const measurement = (seq: number, mgdl: number, extra: { flags?: number; tail?: number[] } = {}) => [
  0x02 | (extra.flags ?? 0),
  seq & 0xff,
  seq >> 8,
  ...time(seq % 60),
  mgdl & 0xff,
  0xb0 | ((mgdl >> 8) & 0x0f),
  0x12,
  ...(extra.tail ?? []),
];

function fakeMeter(records: { m: number[]; meal?: number }[], answer: 'stored' | 'refuse' | 'silent' = 'stored') {
  const m = new FakeCharacteristic();
  const ctx = new FakeCharacteristic();
  const racp: FakeCharacteristic = new FakeCharacteristic((bytes) => {
    if (answer === 'silent') return;
    if (answer === 'refuse') return racp.notify([0x06, 0x00, 0x01, 0x04]);
    const from = bytes[1] === 0x03 ? (bytes[3] ?? 0) | ((bytes[4] ?? 0) << 8) : 0;
    const chosen = records.filter((r) => ((r.m[1] ?? 0) | ((r.m[2] ?? 0) << 8)) >= from);
    for (const r of chosen) {
      m.notify(r.m);
      if (r.meal !== undefined) ctx.notify([0x02, r.m[1] ?? 0, r.m[2] ?? 0, r.meal]);
    }
    racp.notify([0x06, 0x00, 0x01, chosen.length > 0 ? 0x01 : 0x06]);
  });
  const service: GlucoseServiceLike = {
    async getCharacteristic(uuid) {
      if (uuid === GLUCOSE_MEASUREMENT) return m;
      if (uuid === GLUCOSE_MEASUREMENT_CONTEXT) return ctx;
      if (uuid === RECORD_ACCESS_CONTROL_POINT) return racp;
      throw new Error('NotFoundError');
    },
  };
  return { service, racp };
}

describe('fetching the stored records', () => {
  it('asks for all records the first time, for those after the last one imported later, and stops at the answer', async () => {
    const records = [{ m: measurement(1, 110), meal: 3 }, { m: measurement(2, 145), meal: 2 }, { m: measurement(3, 98) }];
    const { service, racp } = fakeMeter(records);
    const counted: number[] = [];
    const all = await fetchRecords(service, { onRecord: (n) => counted.push(n) });
    expect(racp.written).toEqual([[0x01, 0x01]]);
    expect(all.measurements.map((x) => x.sequence)).toEqual([1, 2, 3]);
    expect([...all.contexts.keys()]).toEqual([1, 2]);
    expect(counted).toEqual([1, 2, 3]);
    expect(all.result).toBe('success');

    const again = fakeMeter(records);
    const newer = await fetchRecords(again.service, { from: 4 });
    expect(again.racp.written).toEqual([[0x01, 0x03, 0x01, 0x04, 0x00]]);
    expect(newer).toMatchObject({ measurements: [], result: 'no records found' });
  });

  it('says so when the meter refuses, or stops answering', async () => {
    await expect(fetchRecords(fakeMeter([], 'refuse').service)).rejects.toThrow(MeterError);
    await expect(fetchRecords(fakeMeter([], 'refuse').service)).rejects.toThrow('The meter refused to send its records (operator not supported).');
    await expect(fetchRecords(fakeMeter([], 'silent').service, { silenceMs: 50 })).rejects.toThrow('The meter stopped answering.');
  });
});

const m = (sequence: number, over: Partial<GlucoseMeasurement> = {}): GlucoseMeasurement => ({
  sequence,
  baseTime: { year: 2026, month: 11, day: 28, hours: 7, minutes: 0, seconds: 0 },
  timeOffsetMinutes: 0,
  concentration: { value: 110, unit: 'mg/dL' },
  sampleType: 2,
  sampleLocation: 1,
  status: [],
  contextFollows: false,
  ...over,
});
const noValue = (sequence: number): GlucoseMeasurement => {
  const record = m(sequence);
  delete record.concentration;
  return record;
};
const now = new Date(2026, 10, 28, 12, 0, 0);
/** The offset of the clock the meter's times are read on: this process's zone (minutes east of UTC). */
const offsetAt = (d: Date) => -d.getTimezoneOffset() || 0;
const opts = { now, clockAheadMs: 0, preprandialIsFasting: false, imported: new Set<number>() };

describe('what each record becomes', () => {
  it('a reading at the meter’s time plus its offset, less how far its clock is ahead, valued as measured', () => {
    const plan = planImport(
      { measurements: [m(1, { timeOffsetMinutes: 30 }), m(2, { concentration: { value: 5.43, unit: 'mmol/L' } })], contexts: new Map() },
      { ...opts, clockAheadMs: 10 * 60_000 },
    );
    expect(plan.readings).toEqual([
      {
        sequence: 1,
        type: 'Random',
        value: 110,
        unit: 'mg/dL',
        enteredValue: 110,
        recordedAt: new Date(2026, 10, 28, 7, 20),
        utcOffsetMinutes: offsetAt(new Date(2026, 10, 28, 7, 20)),
        preprandial: false,
      },
      {
        sequence: 2,
        type: 'Random',
        value: 97.3,
        unit: 'mmol/L',
        enteredValue: 5.4,
        recordedAt: new Date(2026, 10, 28, 6, 50),
        utcOffsetMinutes: offsetAt(new Date(2026, 10, 28, 6, 50)),
        preprandial: false,
      },
    ]);
    expect(plan.lastSequence).toBe(2);
  });

  it('takes the meal tag: fasting and after a meal as they are, before a meal Fasting only when the patient says so', () => {
    const contexts = new Map([
      [1, { sequence: 1, meal: 'fasting' as const }],
      [2, { sequence: 2, meal: 'postprandial' as const }],
      [3, { sequence: 3, meal: 'preprandial' as const }],
      [4, { sequence: 4, meal: 'bedtime' as const }],
    ]);
    const records = { measurements: [m(1), m(2), m(3), m(4), m(5)], contexts };
    expect(planImport(records, opts).readings.map((r) => r.type)).toEqual(['Fasting', 'Postprandial', 'Random', 'Random', 'Random']);
    expect(planImport(records, { ...opts, preprandialIsFasting: true }).readings.map((r) => [r.type, r.preprandial])).toEqual([
      ['Fasting', false],
      ['Postprandial', false],
      ['Fasting', true],
      ['Random', false],
      ['Random', false],
    ]);
  });

  it('never imports control solution, meter errors, HI, LO, a value outside 20–600 mg/dL, a reading in the future or one imported before', () => {
    const plan = planImport(
      {
        measurements: [
          m(1, { sampleType: 10 }),
          m(2, { sampleLocation: 4 }),
          m(3, { status: ['stripInsertionError', 'batteryLow'] }),
          m(4, { status: ['resultTooHigh'] }),
          m(5, { status: ['resultTooLow'] }),
          m(6, { concentration: { value: 15, unit: 'mg/dL' } }),
          m(7, { baseTime: { year: 2026, month: 11, day: 28, hours: 13, minutes: 0, seconds: 0 } }),
          m(8),
          m(9, { status: ['timeFault'] }),
          noValue(10),
          m(11, { status: ['batteryLow'] }),
        ],
        contexts: new Map(),
      },
      { ...opts, imported: new Set([8]) },
    );
    expect(plan.skipped.map((s) => [s.sequence, s.reason.kind])).toEqual([
      [1, 'control-solution'],
      [2, 'control-solution'],
      [3, 'meter-error'],
      [4, 'hi'],
      [5, 'lo'],
      [6, 'out-of-range'],
      [7, 'future'],
      [8, 'already-imported'],
      [9, 'time-unknown'],
      [10, 'no-value'],
    ]);
    expect(plan.skipped[2]?.reason).toEqual({ kind: 'meter-error', status: ['stripInsertionError'] });
    expect(plan.readings.map((r) => r.sequence)).toEqual([11]);
    expect(plan.lastSequence).toBe(11);
  });

  it('reads the meter’s clock as this device’s local time', () => {
    expect(meterInstant({ year: 2026, month: 1, day: 31, hours: 23, minutes: 50, seconds: 0 }, 20)).toEqual(new Date(2026, 1, 1, 0, 10));
  });
});

describe('the reading’s id', () => {
  it('is the same UUID for the same record of the same meter, and another for any other', async () => {
    const a = await readingIdOf('meter-A', 7);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await readingIdOf('meter-A', 7)).toBe(a);
    expect(await readingIdOf('meter-A', 8)).not.toBe(a);
    expect(await readingIdOf('meter-B', 7)).not.toBe(a);
  });
});
