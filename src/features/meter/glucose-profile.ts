// The Bluetooth SIG Glucose Profile (GLP 1.0, Glucose Service 1.0; issue 19), the bytes only: no
// Bluetooth, no clock, no app. Each characteristic is little-endian and made of optional fields that
// a flags byte announces, in a fixed order:
//
// Glucose Measurement (0x2A18): flags u8 · sequence number u16 · base time (year u16, month, day,
//   hours, minutes, seconds: the meter's local clock) · [bit 0] time offset s16 minutes ·
//   [bit 1] concentration SFLOAT + type (low nibble) and sample location (high nibble) u8 ·
//   [bit 3] sensor status annotation u16. Bit 2 gives the concentration's unit: kg/L (0) or mol/L (1);
//   bit 4 says a Glucose Measurement Context with the same sequence number follows.
// Glucose Measurement Context (0x2A34): flags u8 · sequence number u16 · [bit 7] extended flags u8 ·
//   [bit 0] carbohydrate id u8 + SFLOAT kg · [bit 1] meal u8 · [bit 2] tester and health (nibbles) ·
//   [bit 3] exercise duration u16 s + intensity u8 % · [bit 4] medication id u8 + SFLOAT (kg, or
//   litres with bit 5) · [bit 6] HbA1c SFLOAT %.
// Glucose Feature (0x2A51): u16 of supported features.
// Record Access Control Point (0x2A52): op code u8 · operator u8 · operand. Asked: "report stored
//   records" (1) with "all" (1) or "greater than or equal to" (3) a sequence number (filter type 1,
//   u16). Answered: "response code" (6) with the request's op code and a result, or "number of stored
//   records response" (5) with a u16.

/** The assigned numbers the app uses (Bluetooth SIG Assigned Numbers, 16-bit UUIDs). */
export const GLUCOSE_SERVICE = 0x1808;
export const GLUCOSE_MEASUREMENT = 0x2a18;
export const GLUCOSE_MEASUREMENT_CONTEXT = 0x2a34;
export const GLUCOSE_FEATURE = 0x2a51;
export const RECORD_ACCESS_CONTROL_POINT = 0x2a52;

export class GlucoseProfileError extends Error {}

/**
 * IEEE 11073-20601 SFLOAT: a 4-bit signed exponent and a 12-bit signed mantissa, value = m × 10^e.
 * The special values (NaN, NRes, ±INFINITY, reserved) read as NaN: the meter had no number to give.
 */
export function sfloat(raw: number): number {
  // NaN 0x07FF, NRes 0x0800, +INFINITY 0x07FE, −INFINITY 0x0802, reserved 0x0801 (exponent 0 only).
  if (raw >= 0x07fe && raw <= 0x0802) return Number.NaN;
  const mantissaBits = raw & 0x0fff;
  const mantissa = mantissaBits >= 0x0800 ? mantissaBits - 0x1000 : mantissaBits;
  const exponentBits = raw >> 12;
  const exponent = exponentBits >= 0x8 ? exponentBits - 0x10 : exponentBits;
  // Rounded to the mantissa's own decimals: 54 × 10^-5 kg/L is 0.00054, not 0.0005400000000000001.
  const value = mantissa * 10 ** exponent;
  return exponent < 0 ? Number(value.toFixed(-exponent)) : value;
}

/** Reads fields in order, and says which one a message was too short for. */
class Reader {
  private at = 0;
  private readonly bytes: DataView;
  private readonly what: string;
  constructor(bytes: DataView, what: string) {
    this.bytes = bytes;
    this.what = what;
  }
  private need(n: number, field: string): void {
    if (this.at + n > this.bytes.byteLength) throw new GlucoseProfileError(`${this.what}: too short for its ${field} (${this.bytes.byteLength} bytes)`);
  }
  u8(field: string): number {
    this.need(1, field);
    return this.bytes.getUint8(this.at++);
  }
  u16(field: string): number {
    this.need(2, field);
    const v = this.bytes.getUint16(this.at, true);
    this.at += 2;
    return v;
  }
  s16(field: string): number {
    this.need(2, field);
    const v = this.bytes.getInt16(this.at, true);
    this.at += 2;
    return v;
  }
  sfloat(field: string): number {
    return sfloat(this.u16(field));
  }
}

const view = (data: DataView | ArrayBuffer | Uint8Array): DataView =>
  data instanceof DataView ? data : data instanceof ArrayBuffer ? new DataView(data) : new DataView(data.buffer, data.byteOffset, data.byteLength);

/** The meter's local date and time, as its clock showed it (no time zone: the patient's). */
export interface MeterTime {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** The sample's type (the Type nibble of the Type-Sample Location field). */
export const SAMPLE_TYPES = {
  1: 'capillary whole blood',
  2: 'capillary plasma',
  3: 'venous whole blood',
  4: 'venous plasma',
  5: 'arterial whole blood',
  6: 'arterial plasma',
  7: 'undetermined whole blood',
  8: 'undetermined plasma',
  9: 'interstitial fluid',
  10: 'control solution',
} as const;
export const CONTROL_SOLUTION_TYPE = 10;
export const CONTROL_SOLUTION_LOCATION = 4;

/** Sensor Status Annotation bits (Glucose Service 1.0, 3.1.1.6). */
export const SENSOR_STATUS = {
  batteryLow: 1 << 0,
  sensorMalfunction: 1 << 1,
  sampleSizeInsufficient: 1 << 2,
  stripInsertionError: 1 << 3,
  stripTypeIncorrect: 1 << 4,
  resultTooHigh: 1 << 5,
  resultTooLow: 1 << 6,
  temperatureTooHigh: 1 << 7,
  temperatureTooLow: 1 << 8,
  readInterrupted: 1 << 9,
  generalDeviceFault: 1 << 10,
  timeFault: 1 << 11,
} as const;
export type SensorStatus = keyof typeof SENSOR_STATUS;

export interface GlucoseMeasurement {
  sequence: number;
  baseTime: MeterTime;
  /** Minutes the meter added to its base time (a clock changed since the record), 0 when absent. */
  timeOffsetMinutes: number;
  /** The value in the unit the meter reported, converted to the unit it shows: mg/dL or mmol/L. */
  concentration?: { value: number; unit: 'mg/dL' | 'mmol/L' };
  sampleType?: number;
  sampleLocation?: number;
  /** The status bits that are set (none when the field is absent). */
  status: SensorStatus[];
  /** A Glucose Measurement Context with the same sequence number follows. */
  contextFollows: boolean;
}

export function parseMeasurement(data: DataView | ArrayBuffer | Uint8Array): GlucoseMeasurement {
  const r = new Reader(view(data), 'Glucose Measurement');
  const flags = r.u8('flags');
  const sequence = r.u16('sequence number');
  const baseTime: MeterTime = {
    year: r.u16('base time'),
    month: r.u8('base time'),
    day: r.u8('base time'),
    hours: r.u8('base time'),
    minutes: r.u8('base time'),
    seconds: r.u8('base time'),
  };
  const m: GlucoseMeasurement = { sequence, baseTime, timeOffsetMinutes: 0, status: [], contextFollows: (flags & 0x10) !== 0 };
  if (flags & 0x01) m.timeOffsetMinutes = r.s16('time offset');
  if (flags & 0x02) {
    const raw = r.sfloat('glucose concentration');
    const typeLocation = r.u8('type and sample location');
    m.sampleType = typeLocation & 0x0f;
    m.sampleLocation = typeLocation >> 4;
    if (!Number.isNaN(raw)) {
      // kg/L × 100,000 = mg/dL; mol/L × 1,000 = mmol/L (rounded to what a meter shows and beyond).
      m.concentration =
        flags & 0x04 ? { value: Number((raw * 1000).toFixed(2)), unit: 'mmol/L' } : { value: Number((raw * 100_000).toFixed(1)), unit: 'mg/dL' };
    }
  }
  if (flags & 0x08) {
    const bits = r.u16('sensor status annotation');
    m.status = (Object.keys(SENSOR_STATUS) as SensorStatus[]).filter((k) => (bits & SENSOR_STATUS[k]) !== 0);
  }
  return m;
}

/** The Meal field of the context (Glucose Service 1.0, 3.2.1.5). */
export const MEALS = { 1: 'preprandial', 2: 'postprandial', 3: 'fasting', 4: 'casual', 5: 'bedtime' } as const;
export type Meal = (typeof MEALS)[keyof typeof MEALS];

export interface GlucoseContext {
  sequence: number;
  meal?: Meal;
  carbohydrateGrams?: number;
  hba1cPercent?: number;
}

export function parseContext(data: DataView | ArrayBuffer | Uint8Array): GlucoseContext {
  const r = new Reader(view(data), 'Glucose Measurement Context');
  const flags = r.u8('flags');
  const c: GlucoseContext = { sequence: r.u16('sequence number') };
  if (flags & 0x80) r.u8('extended flags');
  if (flags & 0x01) {
    r.u8('carbohydrate id');
    const kg = r.sfloat('carbohydrate');
    if (!Number.isNaN(kg)) c.carbohydrateGrams = Number((kg * 1000).toFixed(1));
  }
  if (flags & 0x02) {
    const meal = MEALS[r.u8('meal') as keyof typeof MEALS] as Meal | undefined;
    if (meal) c.meal = meal;
  }
  if (flags & 0x04) r.u8('tester and health');
  if (flags & 0x08) {
    r.u16('exercise duration');
    r.u8('exercise intensity');
  }
  if (flags & 0x10) {
    r.u8('medication id');
    r.u16('medication');
  }
  if (flags & 0x40) {
    const a1c = r.sfloat('HbA1c');
    if (!Number.isNaN(a1c)) c.hba1cPercent = a1c;
  }
  return c;
}

/** Glucose Feature bits the import cares about. */
export const FEATURES = { multipleBond: 1 << 9, timeFault: 1 << 10 } as const;

export function parseFeature(data: DataView | ArrayBuffer | Uint8Array): number {
  return new Reader(view(data), 'Glucose Feature').u16('features');
}

/** RACP op codes, operators and results (Glucose Service 1.0, 3.4). */
export const RACP = {
  reportStoredRecords: 1,
  deleteStoredRecords: 2,
  abort: 3,
  reportNumberOfRecords: 4,
  numberOfRecordsResponse: 5,
  responseCode: 6,
  all: 1,
  greaterOrEqual: 3,
  filterSequenceNumber: 1,
} as const;

export const RACP_RESULTS = {
  1: 'success',
  2: 'op code not supported',
  3: 'invalid operator',
  4: 'operator not supported',
  5: 'invalid operand',
  6: 'no records found',
  7: 'abort unsuccessful',
  8: 'procedure not completed',
  9: 'operand not supported',
} as const;
export type RacpResult = (typeof RACP_RESULTS)[keyof typeof RACP_RESULTS] | 'unknown';

/** "Report stored records": all of them, or those from sequence number `from` on. */
export function reportRecordsRequest(from?: number): Uint8Array<ArrayBuffer> {
  if (from === undefined) return Uint8Array.of(RACP.reportStoredRecords, RACP.all);
  if (!Number.isInteger(from) || from < 0 || from > 0xffff) throw new GlucoseProfileError(`not a sequence number: ${from}`);
  return Uint8Array.of(RACP.reportStoredRecords, RACP.greaterOrEqual, RACP.filterSequenceNumber, from & 0xff, from >> 8);
}

/** "Report number of stored records" with the same filter (for a progress bar). */
export function countRecordsRequest(from?: number): Uint8Array<ArrayBuffer> {
  const req = reportRecordsRequest(from);
  req[0] = RACP.reportNumberOfRecords;
  return req;
}

export type RacpAnswer = { kind: 'response'; requestOpCode: number; result: RacpResult } | { kind: 'count'; count: number };

export function parseRacp(data: DataView | ArrayBuffer | Uint8Array): RacpAnswer {
  const r = new Reader(view(data), 'Record Access Control Point');
  const op = r.u8('op code');
  r.u8('operator');
  if (op === RACP.numberOfRecordsResponse) return { kind: 'count', count: r.u16('number of records') };
  if (op === RACP.responseCode) {
    const requestOpCode = r.u8('request op code');
    const code = r.u8('response code');
    return { kind: 'response', requestOpCode, result: RACP_RESULTS[code as keyof typeof RACP_RESULTS] ?? 'unknown' };
  }
  throw new GlucoseProfileError(`Record Access Control Point: unexpected op code ${op}`);
}

/** Current Time Service (0x1805), Current Time (0x2A2B): many meters have one; it tells the meter's clock. */
export const CURRENT_TIME_SERVICE = 0x1805;
export const CURRENT_TIME = 0x2a2b;

/** The Current Time's Exact Time 256: a date time (as the base time), day of week, 1/256 s, adjust reason. */
export function parseCurrentTime(data: DataView | ArrayBuffer | Uint8Array): MeterTime {
  const r = new Reader(view(data), 'Current Time');
  return {
    year: r.u16('date time'),
    month: r.u8('date time'),
    day: r.u8('date time'),
    hours: r.u8('date time'),
    minutes: r.u8('date time'),
    seconds: r.u8('date time'),
  };
}
