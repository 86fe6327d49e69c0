// Every word the report prints, as Lingui message descriptors. The `/*i18n*/` marker lets
// `lingui extract` collect them from this plain TypeScript (no macros: the server and the PDF worker
// run it without Lingui's compiler); the renderer receives `translate` — i18n._ on the device, the
// server's PO catalog on the server — and English `message`s are the fallback.
import type { GlucoseType } from '../glucose.ts';
import type { Band } from './statistics.ts';

export interface MessageDescriptor {
  id: string;
  message?: string;
}
export type TranslateValues = Record<string, string | number>;
export type Translate = (descriptor: MessageDescriptor, values?: TranslateValues) => string;

/** English from the descriptors themselves: `{name}` placeholders filled in, nothing else. */
export const englishTranslate: Translate = (d, values) =>
  (d.message ?? d.id).replace(/\{(\w+)\}/g, (whole, key: string) => (values && key in values ? String(values[key]) : whole));

export const TYPE_LABELS = {
  Fasting: /*i18n*/ { id: 'report.type.fasting', message: 'Fasting' },
  Postprandial: /*i18n*/ { id: 'report.type.postprandial', message: 'After a meal' },
  Random: /*i18n*/ { id: 'report.type.random', message: 'Random' },
} as const satisfies Record<GlucoseType, MessageDescriptor>;

export const BAND_LABELS = {
  veryLow: /*i18n*/ { id: 'report.band.veryLow', message: 'Very low' },
  low: /*i18n*/ { id: 'report.band.low', message: 'Low' },
  inRange: /*i18n*/ { id: 'report.band.inRange', message: 'In range' },
  high: /*i18n*/ { id: 'report.band.high', message: 'High' },
  veryHigh: /*i18n*/ { id: 'report.band.veryHigh', message: 'Very high' },
} as const satisfies Record<Band, MessageDescriptor>;

export const CSV_LABELS = {
  date: /*i18n*/ { id: 'report.csv.date', message: 'Date' },
  time: /*i18n*/ { id: 'report.csv.time', message: 'Time' },
  type: /*i18n*/ { id: 'report.csv.type', message: 'Type' },
  value: /*i18n*/ { id: 'report.csv.value', message: 'Value ({unit})' },
  band: /*i18n*/ { id: 'report.csv.band', message: 'Range' },
  recordedAt: /*i18n*/ { id: 'report.csv.recordedAt', message: 'Recorded at (UTC)' },
} as const satisfies Record<string, MessageDescriptor>;
