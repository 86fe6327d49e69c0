// Every word the report prints, as Lingui message descriptors. The `/*i18n*/` marker lets
// `lingui extract` collect them from this plain TypeScript (no macros: the server and the PDF worker
// run it without Lingui's compiler); the renderer receives `translate` — i18n._ on the device, the
// server's PO catalog on the server — and English `message`s are the fallback.
import type { GlucoseType } from '../schemas/glucose.ts';
import type { Band, TargetStatus } from '../schemas/judgement.ts';

export interface MessageDescriptor {
  id: string;
  message?: string;
}
export type TranslateValues = Record<string, string | number>;
export type Translate = (descriptor: MessageDescriptor, values?: TranslateValues) => string;

/** English from the descriptors themselves: `{name}` placeholders filled in, nothing else. */
export const englishTranslate: Translate = (d, values) =>
  (d.message ?? d.id).replace(/\{(\w+)\}/g, (whole, key: string) => (values && key in values ? String(values[key]) : whole));

/** Each meal tag's name, the same on every screen and in every file (the dashboard's words). */
export const TYPE_LABELS = {
  Fasting: /*i18n*/ { id: 'glucose.type.fasting', message: 'Fasting' },
  Postprandial: /*i18n*/ { id: 'glucose.type.postprandial', message: 'Postprandial' },
  Random: /*i18n*/ { id: 'glucose.type.random', message: 'Random' },
} as const satisfies Record<GlucoseType, MessageDescriptor>;

export const BAND_LABELS = {
  veryLow: /*i18n*/ { id: 'report.band.veryLow', message: 'Very low' },
  low: /*i18n*/ { id: 'report.band.low', message: 'Low' },
  inRange: /*i18n*/ { id: 'report.band.inRange', message: 'In range' },
  high: /*i18n*/ { id: 'report.band.high', message: 'High' },
  veryHigh: /*i18n*/ { id: 'report.band.veryHigh', message: 'Very high' },
} as const satisfies Record<Band, MessageDescriptor>;

/** A reading against the target of its meal tag ("In target"), in the dashboard's words. */
export const TARGET_LABELS = {
  below: /*i18n*/ { id: 'report.target.below', message: 'Below target' },
  in: /*i18n*/ { id: 'report.target.in', message: 'In target' },
  above: /*i18n*/ { id: 'report.target.above', message: 'Above target' },
} as const satisfies Record<TargetStatus, MessageDescriptor>;

export const CSV_LABELS = {
  date: /*i18n*/ { id: 'report.csv.date', message: 'Date' },
  time: /*i18n*/ { id: 'report.csv.time', message: 'Time' },
  type: /*i18n*/ { id: 'report.csv.type', message: 'Type' },
  value: /*i18n*/ { id: 'report.csv.value', message: 'Value ({unit})' },
  band: /*i18n*/ { id: 'report.csv.band', message: 'Range' },
  target: /*i18n*/ { id: 'report.csv.target', message: 'Meal target' },
  patient: /*i18n*/ { id: 'report.csv.patient', message: 'Patient' },
  hospNo: /*i18n*/ { id: 'report.csv.hospNo', message: 'Hospital number' },
  hospital: /*i18n*/ { id: 'report.csv.hospital', message: 'Hospital' },
  period: /*i18n*/ { id: 'report.csv.period', message: 'Period (first and last day)' },
  unit: /*i18n*/ { id: 'report.csv.unit', message: 'Glucose unit' },
  timeZone: /*i18n*/ { id: 'report.csv.timeZone', message: 'Times are local to' },
  generated: /*i18n*/ { id: 'report.csv.generated', message: 'Made at (UTC)' },
  recordedAt: /*i18n*/ { id: 'report.csv.recordedAt', message: 'Recorded at (UTC)' },
  deviceOffset: /*i18n*/ { id: 'report.csv.deviceOffset', message: 'Device clock (UTC offset)' },
} as const satisfies Record<string, MessageDescriptor>;

export const UNIT_LABELS = {
  'mg/dL': /*i18n*/ { id: 'report.unit.mgdl', message: 'mg/dL' },
  'mmol/L': /*i18n*/ { id: 'report.unit.mmoll', message: 'mmol/L' },
} as const;

/** The target of each meal tag in words; {low} and {high} are values in the report's unit. */
export const TAG_TARGET_LABELS = {
  Fasting: /*i18n*/ { id: 'report.tagTarget.fasting', message: '{low}–{high}' },
  Postprandial: /*i18n*/ { id: 'report.tagTarget.postprandial', message: '{low} to below {high}' },
  Random: /*i18n*/ { id: 'report.tagTarget.random', message: '{low}–{high}' },
} as const satisfies Record<GlucoseType, MessageDescriptor>;

/** "In target" defined, the same sentence on screen, in the PDF and in the staff review. */
export const DEFINITION_LABELS = {
  targets: /*i18n*/ {
    id: 'report.targets.definition',
    message: 'In target: each reading against the target of its meal tag: fasting {fasting}, after a meal {afterMeal}, random {random} {unit}.',
  },
} as const satisfies Record<string, MessageDescriptor>;

/** A share of readings that is not none but rounds to 0 %, or not all but rounds to 100 %. */
export const SHARE_LABELS = {
  under1: /*i18n*/ { id: 'report.share.under1', message: '<{one}' },
  over99: /*i18n*/ { id: 'report.share.over99', message: '>{ninetyNine}' },
} as const satisfies Record<string, MessageDescriptor>;

/** The ranges as printed beside each band; {a} and {b} are values in the report's unit. */
export const BAND_RANGE_LABELS = {
  veryLow: /*i18n*/ { id: 'report.bandRange.veryLow', message: 'below {a}' },
  low: /*i18n*/ { id: 'report.bandRange.low', message: '{a}–{b}' },
  inRange: /*i18n*/ { id: 'report.bandRange.inRange', message: '{a}–{b}' },
  high: /*i18n*/ { id: 'report.bandRange.high', message: '{a}–{b}' },
  veryHigh: /*i18n*/ { id: 'report.bandRange.veryHigh', message: 'above {a}' },
} as const satisfies Record<Band, MessageDescriptor>;

/**
 * Gender as the report's language words it. Hospitals record it in English ("Female", "Male",
 * "Other", as the Manage page offers them); anything else is printed as recorded.
 */
export const GENDER_LABELS = {
  female: /*i18n*/ { id: 'report.gender.female', message: 'Female' },
  male: /*i18n*/ { id: 'report.gender.male', message: 'Male' },
  other: /*i18n*/ { id: 'report.gender.other', message: 'Other' },
} as const satisfies Record<string, MessageDescriptor>;

/** A recorded gender in the reader's language (GENDER_LABELS), or as recorded: on screen and in the PDF. */
export function genderText(recorded: string, translate: (d: MessageDescriptor) => string): string {
  const key = recorded.trim().toLowerCase();
  return Object.hasOwn(GENDER_LABELS, key) ? translate(GENDER_LABELS[key as keyof typeof GENDER_LABELS]) : recorded;
}

export const PDF_LABELS = {
  title: /*i18n*/ { id: 'report.pdf.title', message: 'Diabetes report' },
  appName: /*i18n*/ { id: 'report.pdf.appName', message: 'Eddy - Diabetes Management' },
  patient: /*i18n*/ { id: 'report.pdf.patient', message: 'Patient' },
  hospNo: /*i18n*/ { id: 'report.pdf.hospNo', message: 'Hospital number' },
  hospital: /*i18n*/ { id: 'report.pdf.hospital', message: 'Hospital' },
  ageGender: /*i18n*/ { id: 'report.pdf.ageGender', message: 'Age / gender' },
  period: /*i18n*/ { id: 'report.pdf.period', message: 'Period' },
  periodValue: /*i18n*/ { id: 'report.pdf.periodValue', message: '{from} – {to} ({days} days)' },
  /** The zone every date and time of the report is local to (the patient's profile zone). */
  timeZone: /*i18n*/ { id: 'report.pdf.timeZone', message: 'Time zone' },
  generated: /*i18n*/ { id: 'report.pdf.generated', message: 'Generated' },
  generatedValue: /*i18n*/ { id: 'report.pdf.generatedValue', message: '{when} ({timeZone})' },
  unit: /*i18n*/ { id: 'report.pdf.unit', message: 'Glucose unit' },
  pageOf: /*i18n*/ { id: 'report.pdf.pageOf', message: 'Page {page} of {pages}' },
  none: /*i18n*/ { id: 'report.pdf.none', message: 'None in this period.' },
  dash: /*i18n*/ { id: 'report.pdf.dash', message: '–' },

  summary: /*i18n*/ { id: 'report.pdf.summary', message: 'Summary' },
  average: /*i18n*/ { id: 'report.pdf.average', message: 'Average glucose' },
  timeInRange: /*i18n*/ { id: 'report.pdf.timeInRange', message: 'In range {low}–{high}' },
  gmi: /*i18n*/ { id: 'report.pdf.gmi', message: 'GMI (estimated A1c)' },
  gmiCgm: /*i18n*/ {
    id: 'report.gmi.definedForCgm',
    message: 'GMI is defined for continuous glucose monitoring; from fingerstick readings it is only a guide.',
  },
  readings: /*i18n*/ { id: 'report.pdf.readings', message: 'Readings' },
  readingsPerDay: /*i18n*/ { id: 'report.pdf.readingsPerDay', message: '{perDay} per day' },
  lows: /*i18n*/ { id: 'report.pdf.lows', message: 'Lows below {low}' },
  lowsDetail: /*i18n*/ { id: 'report.pdf.lowsDetail', message: '{count} below {veryLow}' },
  notShown: /*i18n*/ { id: 'report.pdf.notShown', message: 'not shown' },
  reasonTooFewReadings: /*i18n*/ { id: 'report.pdf.reason.tooFewReadings', message: 'needs at least {min} readings ({count} in this period)' },
  reasonTooFewDays: /*i18n*/ { id: 'report.pdf.reason.tooFewDays', message: 'needs readings on at least {min} different days ({days} in this period)' },

  comparison: /*i18n*/ { id: 'report.pdf.comparison', message: 'Compared with the previous {days} days ({from} – {to})' },
  measure: /*i18n*/ { id: 'report.pdf.measure', message: 'Measure' },
  thisPeriod: /*i18n*/ { id: 'report.pdf.thisPeriod', message: 'This period' },
  previousPeriod: /*i18n*/ { id: 'report.pdf.previousPeriod', message: 'Previous period' },
  change: /*i18n*/ { id: 'report.pdf.change', message: 'Change' },
  percentPoints: /*i18n*/ { id: 'report.pdf.percentPoints', message: '{value} points' },

  distribution: /*i18n*/ {
    id: 'report.pdf.distribution',
    message: 'Readings in ranges (International Consensus edges; shares of fingerstick readings, not of time)',
  },
  statistics: /*i18n*/ { id: 'report.pdf.statistics', message: 'Statistics by meal tag' },
  overall: /*i18n*/ { id: 'report.pdf.overall', message: 'All readings' },
  mean: /*i18n*/ { id: 'report.pdf.mean', message: 'Mean ({unit})' },
  median: /*i18n*/ { id: 'report.pdf.median', message: 'Median ({unit})' },
  sd: /*i18n*/ { id: 'report.pdf.sd', message: 'SD ({unit})' },
  cv: /*i18n*/ { id: 'report.pdf.cv', message: 'CV (%)' },
  minMax: /*i18n*/ { id: 'report.pdf.minMax', message: 'Lowest – highest ({unit})' },
  inTarget: /*i18n*/ { id: 'report.inTarget', message: 'In target' },
  inTargetOwnTag: /*i18n*/ { id: 'report.inTarget.ownTag', message: 'each by its tag' },
  below70: /*i18n*/ { id: 'report.pdf.below70', message: 'Below {value}' },
  below54: /*i18n*/ { id: 'report.pdf.below54', message: 'Below {value}' },
  perDayShort: /*i18n*/ { id: 'report.pdf.perDayShort', message: 'Readings per day' },
  variabilityNote: /*i18n*/ { id: 'report.pdf.variabilityNote', message: 'SD and CV are shown from {min} readings on.' },

  a1c: /*i18n*/ { id: 'report.pdf.a1c', message: 'Estimated and measured A1c' },
  gmiLine: /*i18n*/ { id: 'report.pdf.gmiLine', message: 'GMI' },
  eA1cLine: /*i18n*/ { id: 'report.pdf.eA1cLine', message: 'Estimated A1c (ADAG)' },
  labHbA1c: /*i18n*/ { id: 'report.pdf.labHbA1c', message: 'Latest lab HbA1c up to {end}' },
  onDate: /*i18n*/ { id: 'report.pdf.onDate', message: '{value} on {date}' },
  noHbA1c: /*i18n*/ { id: 'report.pdf.noHbA1c', message: 'No HbA1c recorded' },

  trend: /*i18n*/ { id: 'report.pdf.trend', message: 'Glucose over the period' },
  trendNote: /*i18n*/ { id: 'report.pdf.trendNote.inRange', message: 'Shaded: in range, {low}–{high} {unit}. Dashed: {veryLow} and {veryHigh} {unit}.' },
  timeOfDay: /*i18n*/ { id: 'report.pdf.timeOfDay', message: 'Readings by time of day' },
  timeOfDayNote: /*i18n*/ {
    id: 'report.pdf.timeOfDayNote',
    message:
      'Daily profile: for each 3-hour band with at least {min} readings, the grey box holds the middle half of them (25th to 75th percentile) and the bar is their median; "n 2" marks a band with too few readings to say. Fingerstick readings show the times you measured, not your glucose in between.',
  },
  noReadings: /*i18n*/ { id: 'report.pdf.noReadings', message: 'No glucose readings in this period.' },

  logbook: /*i18n*/ { id: 'report.pdf.logbook', message: 'Logbook ({unit})' },
  date: /*i18n*/ { id: 'report.pdf.date', message: 'Date' },

  checks: /*i18n*/ { id: 'report.pdf.checks', message: 'Glucometer days' },
  checksValue: /*i18n*/ { id: 'report.pdf.checksValue', message: '{done} of {planned} planned glucometer days had a reading.' },
  checksMissed: /*i18n*/ { id: 'report.pdf.checksMissed', message: 'Without a reading: {dates}' },
  checksNone: /*i18n*/ { id: 'report.pdf.checksNone', message: 'No glucometer days were planned in this period.' },

  medicines: /*i18n*/ { id: 'report.pdf.medicines', message: 'Medicines and adherence' },
  medicine: /*i18n*/ { id: 'report.pdf.medicine', message: 'Medicine' },
  dose: /*i18n*/ { id: 'report.pdf.dose', message: 'Dose' },
  dosesTaken: /*i18n*/ { id: 'report.pdf.dosesTaken', message: 'Doses marked taken' },
  takenOfExpected: /*i18n*/ { id: 'report.pdf.takenOfExpected', message: '{taken} of {expected}' },
  adherenceNote: /*i18n*/ {
    id: 'report.pdf.adherenceNote',
    message: 'Expected doses follow the dose pattern (1-0-1: breakfast and dinner; other doses: every meal) on the days the medicine was active.',
  },

  lowsList: /*i18n*/ { id: 'report.pdf.lows.title', message: 'Every low (below {low} {unit})' },
  lowsTime: /*i18n*/ { id: 'report.pdf.lows.time', message: 'Time' },
  lowsTag: /*i18n*/ { id: 'report.pdf.lows.tag', message: 'Tag' },
  lowsValue: /*i18n*/ { id: 'report.pdf.lows.value', message: 'Value' },
  lowsSymptoms: /*i18n*/ { id: 'report.pdf.lows.symptoms', message: 'Symptoms reported that day' },
  lowsNone: /*i18n*/ { id: 'report.pdf.lows.none', message: 'No low readings in this period.' },

  symptoms: /*i18n*/ { id: 'report.pdf.symptoms', message: 'Symptoms' },
  symptom: /*i18n*/ { id: 'report.pdf.symptom', message: 'Symptom' },
  times: /*i18n*/ { id: 'report.pdf.times', message: 'Times reported' },
  lastReported: /*i18n*/ { id: 'report.pdf.lastReported', message: 'Last reported' },

  labs: /*i18n*/ { id: 'report.pdf.labs', message: 'Lab results' },
  test: /*i18n*/ { id: 'report.pdf.test', message: 'Test' },
  latest: /*i18n*/ { id: 'report.pdf.latest', message: 'Latest' },
  previous: /*i18n*/ { id: 'report.pdf.previous', message: 'Previous' },

  appointments: /*i18n*/ { id: 'report.pdf.appointments', message: 'Appointments' },
  doctor: /*i18n*/ { id: 'report.pdf.doctor', message: 'Doctor' },
  notes: /*i18n*/ { id: 'report.pdf.notes', message: 'Notes' },

  about: /*i18n*/ { id: 'report.pdf.about', message: 'About these numbers' },
  aboutRanges: /*i18n*/ {
    id: 'report.pdf.aboutRangesAsShown',
    message:
      'Ranges follow the International Consensus on Time in Range: very low below {veryLow}, low {low}, in range {inRange}, high {high}, very high above {veryHigh} {unit}. {targets} Each reading is judged as it is printed here, in {unit}.',
  },
  aboutA1c: /*i18n*/ {
    id: 'report.pdf.aboutA1c',
    message:
      'GMI = 3.31 + 0.02392 × mean glucose (mg/dL); estimated A1c = (mean + 46.7) / 28.7. Both are shown only with at least {readings} readings on at least {days} different days; fingerstick readings cluster around meals, so they are a guide, not a lab result.',
  },
  aboutSource: /*i18n*/ { id: 'report.pdf.aboutSource', message: 'Readings are capillary fingersticks entered by the patient. Times are local to {timeZone}.' },
} as const satisfies Record<string, MessageDescriptor>;
