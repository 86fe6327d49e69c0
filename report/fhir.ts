// The report's data as a FHIR R4 Bundle (type "collection") for the hospital record: the Patient,
// one Observation per glucose reading of the range and one per lab result of the range.
//
// Each reading travels as it was measured: its value and unit as typed (UCUM "mg/dL" or "mmol/L"),
// coded (LOINC) by its meal tag and by what the unit measures. The readings are capillary
// fingersticks taken by the patient with a meter, and the app knows the meal tag, not the minutes
// since the meal:
//                 mass (mg/dL)   substance (mmol/L)
//   Fasting       41604-0        14770-2    Fasting glucose [Mass|Moles/volume] in Capillary blood by Glucometer
//   Postprandial  41653-7        14743-9    Glucose [Mass|Moles/volume] in Capillary blood by Glucometer,
//   Random        41653-7        14743-9    with the tag in the text. Not 1521-4 (serum or plasma, 2 hours
//                                           post meal): a laboratory specimen at a fixed time, neither of
//                                           which a reading here is.
// Category "laboratory": FHIR's vital-signs profile fixes its own list of codes and glucose is not on
// it; a point-of-care glucose is a laboratory result. The patient measured it, so the patient is
// also the performer. The reference range is the reading's own meal-tag target in the reading's unit
// (fasting 80–130 mg/dL, after a meal 70 to below 180, random 70–180), and the interpretation is the
// judging module's (judgement.ts) on the value sent: LL below 54 mg/dL (3.0 mmol/L), L below the
// target, N on it, H above it, HH above 250 (13.9): the EHR never reads "Normal" beside a value off
// its own reference range.
import { asTaken, ENTRY_DECIMALS, type GlucoseUnit, shownGlucose } from '../schemas/glucose-units.ts';
import type { GlucoseType } from '../schemas/glucose.ts';
import { isHbA1c } from '../schemas/a1c.ts';
import { instantWithOffset, localDate } from './dates.ts';
import { inclusiveTarget, interpretation, TAG_TARGETS, type Interpretation } from '../schemas/judgement.ts';
import { labValue } from './statistics.ts';
import type { ReportModel } from './types.ts';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ID_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';

const MASS_FASTING = { code: '41604-0', display: 'Fasting glucose [Mass/volume] in Capillary blood by Glucometer' } as const;
const MASS = { code: '41653-7', display: 'Glucose [Mass/volume] in Capillary blood by Glucometer' } as const;
const MOLES_FASTING = { code: '14770-2', display: 'Fasting glucose [Moles/volume] in Capillary blood by Glucometer' } as const;
const MOLES = { code: '14743-9', display: 'Glucose [Moles/volume] in Capillary blood by Glucometer' } as const;

/** The LOINC of a reading by its unit (what it measures) and its meal tag. */
export const GLUCOSE_LOINC = {
  'mg/dL': { Fasting: MASS_FASTING, Postprandial: MASS, Random: MASS },
  'mmol/L': { Fasting: MOLES_FASTING, Postprandial: MOLES, Random: MOLES },
} as const satisfies Record<GlucoseUnit, Record<GlucoseType, { code: string; display: string }>>;

/** The Observation's text for each tag, and the target it is compared with (its reference range). */
const GLUCOSE_TEXT = {
  Fasting: { text: 'Fasting capillary glucose', target: 'Target before breakfast (fasting)' },
  Postprandial: { text: 'Capillary glucose after a meal', target: 'Target after a meal (below {max})' },
  Random: { text: 'Random capillary glucose', target: 'Target at other times (International Consensus range)' },
} as const satisfies Record<GlucoseType, { text: string; target: string }>;

/** LOINC of the lab test reference list (server/db/migrations/0001), for results recorded without one. */
export const LAB_LOINC: Readonly<Record<string, string>> = {
  hba1c: '4548-4',
  'fasting plasma glucose': '1558-6',
  'total cholesterol': '2093-3',
  'ldl cholesterol': '13457-7',
  'hdl cholesterol': '2085-9',
  triglycerides: '2571-8',
  creatinine: '2160-0',
  egfr: '33914-3',
  'urine albumin-to-creatinine ratio': '9318-7',
  potassium: '2823-3',
  tsh: '3016-3',
  'vitamin b12': '2132-9',
};
/** HbA1c reported in IFCC mmol/mol has its own code. */
const HBA1C_IFCC = '59261-8';

/** Units of the lab reference list in UCUM; others are sent as text only. */
const UCUM_CODES: Readonly<Record<string, string>> = {
  '%': '%',
  'mg/dl': 'mg/dL',
  'mmol/l': 'mmol/L',
  'mmol/mol': 'mmol/mol',
  'mg/g': 'mg/g',
  'pg/ml': 'pg/mL',
  'miu/l': 'm[IU]/L',
  'ml/min/1.73m2': 'mL/min/{1.73_m2}',
  'g/dl': 'g/dL',
};

const INTERPRETATION_DISPLAY = {
  LL: 'Critical low',
  L: 'Low',
  N: 'Normal',
  H: 'High',
  HH: 'Critical high',
} as const satisfies Record<Interpretation, string>;
const RANGE_MEANING = 'http://terminology.hl7.org/CodeSystem/referencerange-meaning';

type Json = Record<string, unknown>;
export interface FhirBundle {
  resourceType: 'Bundle';
  type: 'collection';
  timestamp: string;
  entry: { fullUrl: string; resource: Json & { resourceType: string; id: string } }[];
}

export interface FhirOptions {
  /** Makes the ids of resources that have none of their own (tests pass a counter). */
  newId?: () => string;
}

function gender(g: string | null | undefined): 'male' | 'female' | 'other' | 'unknown' | undefined {
  if (!g) return undefined;
  if (/^(m|male|man)$/i.test(g.trim())) return 'male';
  if (/^(f|female|woman)$/i.test(g.trim())) return 'female';
  if (/^other$/i.test(g.trim())) return 'other';
  return 'unknown';
}

const glucoseQuantity = (value: number, unit: GlucoseUnit) => ({ value, unit, system: UCUM, code: unit });

/** A reading's Observation fields that carry its value: as typed, coded, judged against its tag's target. */
function glucoseValue(r: ReportModel['readings'][number]): Json {
  const { unit } = asTaken(r);
  const { value } = shownGlucose(r, unit);
  const loinc = GLUCOSE_LOINC[unit][r.type];
  const target = inclusiveTarget(r, r.type, unit);
  const code = interpretation(r, r.type, unit);
  const words = GLUCOSE_TEXT[r.type];
  const low = target.low.toFixed(ENTRY_DECIMALS[unit]);
  const high = target.high.toFixed(target.decimals);
  const targetText = `${words.target.replace('{max}', `${TAG_TARGETS[unit][r.type].max.toFixed(ENTRY_DECIMALS[unit])} ${unit}`)}: ${low}–${high} ${unit}`;
  return {
    code: { coding: [{ system: LOINC, code: loinc.code, display: loinc.display }], text: words.text },
    valueQuantity: glucoseQuantity(value, unit),
    interpretation: [{ coding: [{ system: INTERPRETATION, code, display: INTERPRETATION_DISPLAY[code] }] }],
    referenceRange: [
      {
        low: glucoseQuantity(target.low, unit),
        high: glucoseQuantity(target.high, unit),
        type: { coding: [{ system: RANGE_MEANING, code: 'treatment', display: 'Treatment Range' }] },
        text: targetText,
      },
    ],
  };
}

function labCode(name: string, unit: string | null | undefined, loinc: string | null | undefined): Json {
  const ifcc = isHbA1c(name) && unit && /mmol\s*\/\s*mol/i.test(unit);
  const code = ifcc ? HBA1C_IFCC : (loinc ?? LAB_LOINC[name.trim().toLowerCase()] ?? (isHbA1c(name) ? LAB_LOINC['hba1c'] : undefined));
  return code ? { coding: [{ system: LOINC, code }], text: name } : { text: name };
}

function labQuantity(raw: number, unit: string | null | undefined): Json {
  // The value as entered: binary float noise (7.1000000000000005) is not a measurement.
  const value = labValue(raw);
  if (!unit) return { value };
  const code = UCUM_CODES[unit.trim().toLowerCase()];
  return code ? { value, unit, system: UCUM, code } : { value, unit };
}

/**
 * The bundle of `model`. The Patient's identifier carries the hospital's identifier system (its
 * namespace of hospital numbers, `patient.identifierSystem`); a report made without one is refused
 * rather than sent as a number the EHR cannot place.
 */
export function fhirBundle(model: ReportModel, options: FhirOptions = {}): FhirBundle {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const { patient, range, generatedAt } = model.input;
  const tz = patient.timeZone;
  const system = patient.identifierSystem;
  if (!system) throw new Error('The hospital has no identifier system for its hospital numbers');
  const patientId = newId();
  const patientRef = { reference: `urn:uuid:${patientId}`, display: patient.name };
  const category = (code: 'laboratory') => [{ coding: [{ system: OBS_CATEGORY, code, display: 'Laboratory' }] }];
  const g = gender(patient.gender);
  const entry: FhirBundle['entry'] = [];
  const add = (resource: FhirBundle['entry'][number]['resource']) => entry.push({ fullUrl: `urn:uuid:${resource.id}`, resource });

  add({
    resourceType: 'Patient',
    id: patientId,
    identifier: [
      {
        use: 'usual',
        type: { coding: [{ system: ID_TYPE, code: 'MR', display: 'Medical record number' }] },
        system,
        value: patient.hospNo,
        ...(patient.hospital ? { assigner: { display: patient.hospital } } : {}),
      },
    ],
    name: [{ text: patient.name }],
    ...(g ? { gender: g } : {}),
  });

  for (const r of model.readings) {
    const { code, ...value } = glucoseValue(r);
    add({
      resourceType: 'Observation',
      id: r.id,
      status: 'final',
      category: category('laboratory'),
      code,
      subject: patientRef,
      // On the clock of the device that recorded it, when it kept its offset: the wall time the patient saw.
      effectiveDateTime: instantWithOffset(r.recordedAt, r.utcOffsetMinutes),
      performer: [patientRef],
      ...value,
    });
  }

  const labs = model.input.labTests
    .filter((t) => {
      const d = localDate(t.recordedAt, tz);
      return d >= range.from && d <= range.to;
    })
    .sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt));
  for (const t of labs) {
    add({
      resourceType: 'Observation',
      id: t._id ?? newId(),
      status: 'final',
      category: category('laboratory'),
      code: labCode(t.name, t.unit, t.loinc),
      subject: patientRef,
      effectiveDateTime: new Date(t.recordedAt).toISOString(),
      valueQuantity: labQuantity(t.value, t.unit),
    });
  }
  return { resourceType: 'Bundle', type: 'collection', timestamp: new Date(generatedAt).toISOString(), entry };
}
