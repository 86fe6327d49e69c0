// Importing a glucometer's stored records (issue 19): asking the meter for them over its Glucose
// Service (fetchRecords, on any GATT-like object: Web Bluetooth in the app, fakes in tests), and
// deciding what each record becomes (planImport, pure): a reading with its own time, value as
// measured and meal tag, or a record skipped with the reason shown to the patient.
import { isInTheFuture } from '../../../schemas/common.ts';
import { deviceUtcOffset } from '../../lib/dates.ts';
import { GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, type GlucoseUnit, mgDlOf } from '../../../schemas/glucose-units.ts';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import {
  CONTROL_SOLUTION_LOCATION,
  CONTROL_SOLUTION_TYPE,
  GLUCOSE_MEASUREMENT,
  GLUCOSE_MEASUREMENT_CONTEXT,
  GlucoseProfileError,
  parseContext,
  parseMeasurement,
  parseRacp,
  RACP,
  RECORD_ACCESS_CONTROL_POINT,
  reportRecordsRequest,
  type GlucoseContext,
  type GlucoseMeasurement,
  type MeterTime,
  type RacpResult,
  type SensorStatus,
} from './glucose-profile.ts';

// --- The meter's side -------------------------------------------------------------------------

/** The part of a Web Bluetooth characteristic the import uses. */
export interface CharacteristicLike extends EventTarget {
  readonly value?: DataView | null | undefined;
  startNotifications(): Promise<unknown>;
  stopNotifications(): Promise<unknown>;
  writeValueWithResponse(value: BufferSource): Promise<void>;
}
export interface GlucoseServiceLike {
  getCharacteristic(uuid: number): Promise<CharacteristicLike>;
}

export interface FetchedRecords {
  measurements: GlucoseMeasurement[];
  contexts: Map<number, GlucoseContext>;
  /** The meter's answer: "success", or "no records found" when there was nothing new. */
  result: RacpResult;
}

/** How long the meter may stay silent before the import gives up (records arrive every few ms). */
export const METER_SILENCE_MS = 15_000;

/** How a meter failed to do its part: the card says it in the patient's language. */
export type MeterFailure = { kind: 'silent' } | { kind: 'refused'; result: string };

/** A meter that did not do its part; the message is English, for logs and tests. */
export class MeterError extends Error {
  readonly failure: MeterFailure;
  constructor(failure: MeterFailure) {
    super(failure.kind === 'silent' ? 'The meter stopped answering.' : `The meter refused to send its records (${failure.result}).`);
    this.failure = failure;
  }
}

/**
 * Asks the meter for its records from sequence number `from` on (all of them without), and gathers
 * the measurements and contexts it sends until the Record Access Control Point says it is done.
 */
export async function fetchRecords(
  service: GlucoseServiceLike,
  opts: { from?: number; onRecord?: (count: number) => void; silenceMs?: number } = {},
): Promise<FetchedRecords> {
  const measurement = await service.getCharacteristic(GLUCOSE_MEASUREMENT);
  const racp = await service.getCharacteristic(RECORD_ACCESS_CONTROL_POINT);
  // Optional in the profile: meters without meal tags do not have it.
  const context = await service.getCharacteristic(GLUCOSE_MEASUREMENT_CONTEXT).catch(() => undefined);
  const measurements: GlucoseMeasurement[] = [];
  const contexts = new Map<number, GlucoseContext>();
  const silenceMs = opts.silenceMs ?? METER_SILENCE_MS;

  return new Promise<FetchedRecords>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listeners: [CharacteristicLike, (e: Event) => void][] = [];
    const finish = (outcome: { ok: FetchedRecords } | { error: Error }) => {
      clearTimeout(timer);
      for (const [c, l] of listeners) c.removeEventListener('characteristicvaluechanged', l);
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- allSettled never rejects: notifications that do not stop (the meter is gone) do not matter
      void Promise.allSettled([measurement, racp, context].map((c) => c?.stopNotifications()));
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.error);
    };
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ error: new MeterError({ kind: 'silent' }) }), silenceMs);
    };
    const listen = (c: CharacteristicLike, handle: (v: DataView) => void) => {
      const l = (e: Event) => {
        const v = (e.target as CharacteristicLike | null)?.value;
        if (!v) return;
        try {
          handle(v);
        } catch (err) {
          finish({ error: err instanceof Error ? err : new Error(String(err)) });
        }
      };
      c.addEventListener('characteristicvaluechanged', l);
      listeners.push([c, l]);
    };
    listen(measurement, (v) => {
      measurements.push(parseMeasurement(v));
      opts.onRecord?.(measurements.length);
      wait();
    });
    if (context)
      listen(context, (v) => {
        const c = parseContext(v);
        contexts.set(c.sequence, c);
        wait();
      });
    listen(racp, (v) => {
      const answer = parseRacp(v);
      if (answer.kind !== 'response' || answer.requestOpCode !== RACP.reportStoredRecords) return;
      if (answer.result === 'success' || answer.result === 'no records found') finish({ ok: { measurements, contexts, result: answer.result } });
      else finish({ error: new MeterError({ kind: 'refused', result: answer.result }) });
    });
    void (async () => {
      await measurement.startNotifications();
      await context?.startNotifications();
      await racp.startNotifications();
      wait();
      await racp.writeValueWithResponse(reportRecordsRequest(opts.from));
    })().catch((err: unknown) => finish({ error: err instanceof Error ? err : new Error(String(err)) }));
  });
}

// --- What each record becomes -----------------------------------------------------------------

export type SkipReason =
  | { kind: 'control-solution' }
  | { kind: 'meter-error'; status: SensorStatus[] }
  | { kind: 'hi' }
  | { kind: 'lo' }
  | { kind: 'no-value' }
  | { kind: 'out-of-range'; value: number; unit: GlucoseUnit }
  | { kind: 'time-unknown' }
  | { kind: 'future'; at: Date }
  | { kind: 'already-imported' };

export interface PlannedReading {
  sequence: number;
  type: GlucoseType;
  /** mg/dL as stored, and the value and unit as the meter measured them. */
  value: number;
  unit: GlucoseUnit;
  enteredValue: number;
  recordedAt: Date;
  /**
   * The UTC offset of the clock the meter's time was read on (this device's at that instant, minutes
   * east of UTC): the meter shows a local time without its zone, and the import places it on this
   * device's zone (meterInstant).
   */
  utcOffsetMinutes: number;
  /** The meter said "before a meal"; the reading is Fasting only if the patient said so. */
  preprandial: boolean;
}

export interface ImportPlan {
  readings: PlannedReading[];
  skipped: { sequence: number; at?: Date; reason: SkipReason }[];
  /** The highest sequence number seen: the next import asks from the one after it. */
  lastSequence: number | undefined;
}

export interface PlanOptions {
  now: Date;
  /** How far the meter's clock is ahead of the real time (negative: behind), as the patient confirmed. */
  clockAheadMs: number;
  /** The patient said readings the meter marked "before a meal" were taken fasting. */
  preprandialIsFasting: boolean;
  /** Sequence numbers imported before from this meter. */
  imported: ReadonlySet<number>;
}

/** Statuses that make a result unusable (a low battery or the clock do not change the value). */
const ERROR_STATUS: readonly SensorStatus[] = [
  'sensorMalfunction',
  'sampleSizeInsufficient',
  'stripInsertionError',
  'stripTypeIncorrect',
  'temperatureTooHigh',
  'temperatureTooLow',
  'readInterrupted',
  'generalDeviceFault',
];

/** The meter's local clock reading as an instant on this device's time zone, its offset added. */
export function meterInstant(t: MeterTime, offsetMinutes: number): Date {
  return new Date(t.year, t.month - 1, t.day, t.hours, t.minutes + offsetMinutes, t.seconds);
}

function typeOf(context: GlucoseContext | undefined, preprandialIsFasting: boolean): GlucoseType {
  switch (context?.meal) {
    case 'fasting':
      return 'Fasting';
    case 'postprandial':
      return 'Postprandial';
    case 'preprandial':
      return preprandialIsFasting ? 'Fasting' : 'Random';
    default:
      return 'Random';
  }
}

/** mmol/L to one decimal and whole mg/dL, as meters show them and the app stores them. */
function asMeasured(c: { value: number; unit: GlucoseUnit }): { value: number; unit: GlucoseUnit; enteredValue: number } {
  const enteredValue = c.unit === 'mmol/L' ? Math.round(c.value * 10) / 10 : Math.round(c.value);
  return { value: mgDlOf(enteredValue, c.unit), unit: c.unit, enteredValue };
}

export function planImport(records: Pick<FetchedRecords, 'measurements' | 'contexts'>, opts: PlanOptions): ImportPlan {
  const plan: ImportPlan = { readings: [], skipped: [], lastSequence: undefined };
  const byTime = [...records.measurements].sort((a, b) => a.sequence - b.sequence);
  for (const m of byTime) {
    plan.lastSequence = Math.max(plan.lastSequence ?? 0, m.sequence);
    const at = new Date(meterInstant(m.baseTime, m.timeOffsetMinutes).getTime() - opts.clockAheadMs);
    const skip = (reason: SkipReason) => plan.skipped.push({ sequence: m.sequence, at, reason });
    if (opts.imported.has(m.sequence)) skip({ kind: 'already-imported' });
    else if (m.sampleType === CONTROL_SOLUTION_TYPE || m.sampleLocation === CONTROL_SOLUTION_LOCATION) skip({ kind: 'control-solution' });
    else if (m.status.some((s) => ERROR_STATUS.includes(s))) skip({ kind: 'meter-error', status: m.status.filter((s) => ERROR_STATUS.includes(s)) });
    else if (m.status.includes('resultTooHigh')) skip({ kind: 'hi' });
    else if (m.status.includes('resultTooLow')) skip({ kind: 'lo' });
    else if (m.status.includes('timeFault')) skip({ kind: 'time-unknown' });
    else if (!m.concentration) skip({ kind: 'no-value' });
    else if (isInTheFuture(at, opts.now.getTime())) skip({ kind: 'future', at });
    else {
      const measured = asMeasured(m.concentration);
      if (measured.value < GLUCOSE_MIN_MG_DL || measured.value > GLUCOSE_MAX_MG_DL) {
        skip({ kind: 'out-of-range', value: measured.enteredValue, unit: measured.unit });
        continue;
      }
      const context = records.contexts.get(m.sequence);
      plan.readings.push({
        sequence: m.sequence,
        type: typeOf(context, opts.preprandialIsFasting),
        ...measured,
        recordedAt: at,
        utcOffsetMinutes: deviceUtcOffset(at),
        preprandial: context?.meal === 'preprandial',
      });
    }
  }
  return plan;
}

/**
 * The reading's id: the same for the same record of the same meter, on every device and every
 * import, so a second import (or two devices importing one meter) adds nothing. A UUID (version 8,
 * RFC 9562) made of the SHA-256 of the meter's id and the record's sequence number.
 */
export async function readingIdOf(meterId: string, sequence: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`eddy-meter:${meterId}:${sequence}`)));
  const b = digest.slice(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x80;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export { GlucoseProfileError };
