// The Glucose Profile's byte layouts (Glucose Service 1.0, section 3), one flag combination at a time.
import { describe, expect, it } from 'vitest';
import {
  countRecordsRequest,
  GlucoseProfileError,
  parseContext,
  parseFeature,
  parseMeasurement,
  parseRacp,
  reportRecordsRequest,
  sfloat,
} from './glucose-profile.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);
/** 2026-11-28 07:45:10, the base time's seven bytes. */
const BASE = [0xea, 0x07, 11, 28, 7, 45, 10];
const baseTime = { year: 2026, month: 11, day: 28, hours: 7, minutes: 45, seconds: 10 };

describe('SFLOAT', () => {
  it('is a 12-bit mantissa times ten to a 4-bit exponent, both signed', () => {
    expect(sfloat(0xb036)).toBe(0.00054); // 54 × 10^-5 (kg/L: 54 mg/dL)
    expect(sfloat(0xc036)).toBe(0.0054); // 54 × 10^-4 (mol/L: 5.4 mmol/L)
    expect(sfloat(0x0064)).toBe(100);
    expect(sfloat(0x1064)).toBe(1000);
    expect(sfloat(0xf800 | 0x0ffe)).toBe(-0.2); // mantissa −2, exponent −1
  });

  it('reads the special values as no number', () => {
    for (const raw of [0x07ff, 0x0800, 0x07fe, 0x0802, 0x0801]) expect(sfloat(raw)).toBeNaN();
  });
});

describe('Glucose Measurement', () => {
  it('with no optional field: the sequence number and the base time', () => {
    expect(parseMeasurement(bytes(0x00, 0x05, 0x00, ...BASE))).toEqual({ sequence: 5, baseTime, timeOffsetMinutes: 0, status: [], contextFollows: false });
  });

  it('with a time offset (signed minutes) and a concentration in kg/L, capillary plasma from a finger', () => {
    const m = parseMeasurement(bytes(0x03, 0x2c, 0x01, ...BASE, 0xc4, 0xff, 0x36, 0xb0, 0x12));
    expect(m).toMatchObject({ sequence: 300, timeOffsetMinutes: -60, concentration: { value: 54, unit: 'mg/dL' }, sampleType: 2, sampleLocation: 1 });
  });

  it('with the concentration in mol/L, a sensor status and a context to follow', () => {
    const m = parseMeasurement(bytes(0x1e, 0x07, 0x00, ...BASE, 0x36, 0xc0, 0x11, 0x60, 0x00));
    expect(m).toMatchObject({
      sequence: 7,
      concentration: { value: 5.4, unit: 'mmol/L' },
      sampleType: 1,
      sampleLocation: 1,
      status: ['resultTooHigh', 'resultTooLow'],
      contextFollows: true,
    });
  });

  it('HI: a concentration the meter could not give (NaN) with the "too high" status has no value', () => {
    const m = parseMeasurement(bytes(0x0a, 0x08, 0x00, ...BASE, 0xff, 0x07, 0x11, 0x20, 0x00));
    expect(m.concentration).toBeUndefined();
    expect(m.status).toEqual(['resultTooHigh']);
  });

  it('a control-solution result says so in its type and location', () => {
    const m = parseMeasurement(bytes(0x02, 0x09, 0x00, ...BASE, 0x64, 0xb0, 0x4a));
    expect(m).toMatchObject({ sampleType: 10, sampleLocation: 4, concentration: { value: 100, unit: 'mg/dL' } });
  });

  it('refuses a message too short for what its flags announce, naming the field', () => {
    expect(() => parseMeasurement(bytes(0x01, 0x05, 0x00, ...BASE))).toThrow(
      new GlucoseProfileError('Glucose Measurement: too short for its time offset (10 bytes)'),
    );
    expect(() => parseMeasurement(bytes(0x00, 0x05))).toThrow(GlucoseProfileError);
  });
});

describe('Glucose Measurement Context', () => {
  it('the meal alone', () => {
    expect(parseContext(bytes(0x02, 0x07, 0x00, 0x01))).toEqual({ sequence: 7, meal: 'preprandial' });
    expect(parseContext(bytes(0x02, 0x07, 0x00, 0x03))).toEqual({ sequence: 7, meal: 'fasting' });
    expect(parseContext(bytes(0x02, 0x07, 0x00, 0x09))).toEqual({ sequence: 7 }); // reserved meal value
  });

  it('every field, in the specification’s order, the meal read after the carbohydrate', () => {
    const all = bytes(0xdf, 0x0a, 0x00, 0x00, 0x01, 0x32, 0xd0, 0x02, 0x12, 0x2c, 0x01, 0x32, 0x01, 0x05, 0xa0, 0x47, 0xf0);
    expect(parseContext(all)).toEqual({ sequence: 10, carbohydrateGrams: 50, meal: 'postprandial', hba1cPercent: 7.1 });
  });

  it('refuses a context too short for its meal', () => {
    expect(() => parseContext(bytes(0x02, 0x07, 0x00))).toThrow('too short for its meal');
  });
});

describe('Record Access Control Point', () => {
  it('asks for all records, or for those from a sequence number on', () => {
    expect([...reportRecordsRequest()]).toEqual([0x01, 0x01]);
    expect([...reportRecordsRequest(0x012c)]).toEqual([0x01, 0x03, 0x01, 0x2c, 0x01]);
    expect([...countRecordsRequest(5)]).toEqual([0x04, 0x03, 0x01, 0x05, 0x00]);
    expect(() => reportRecordsRequest(70_000)).toThrow(GlucoseProfileError);
  });

  it('reads the response codes and the number of records', () => {
    expect(parseRacp(bytes(0x06, 0x00, 0x01, 0x01))).toEqual({ kind: 'response', requestOpCode: 1, result: 'success' });
    expect(parseRacp(bytes(0x06, 0x00, 0x01, 0x06))).toEqual({ kind: 'response', requestOpCode: 1, result: 'no records found' });
    expect(parseRacp(bytes(0x06, 0x00, 0x01, 0x42))).toEqual({ kind: 'response', requestOpCode: 1, result: 'unknown' });
    expect(parseRacp(bytes(0x05, 0x00, 0x1e, 0x00))).toEqual({ kind: 'count', count: 30 });
    expect(() => parseRacp(bytes(0x01, 0x01))).toThrow('unexpected op code 1');
  });
});

describe('Glucose Feature', () => {
  it('is a 16-bit field', () => {
    expect(parseFeature(bytes(0x00, 0x04))).toBe(0x0400);
  });
});
