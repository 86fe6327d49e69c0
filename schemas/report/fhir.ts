// The report's data as a FHIR R4 Bundle (type "collection") for the hospital record: the Patient,
// one Observation per glucose reading of the range and one per lab result of the range.
//
// Glucose codes (LOINC). The readings are capillary fingersticks taken by the patient with a meter,
// and the app knows only the meal tag, not the minutes since the meal:
//   Fasting       1556-0   Fasting glucose [Mass/volume] in Capillary blood
//   Postprandial  41653-7  Glucose [Mass/volume] in Capillary blood by Glucometer, with the text
//                          "after a meal". Not 1521-4 (serum or plasma, 2 hours post meal): that is a
//                          laboratory specimen at a fixed time, neither of which a reading here is.
//   Random        41653-7  Glucose [Mass/volume] in Capillary blood by Glucometer (more exact than
//                          2339-0 "in Blood", which leaves out the capillary specimen and the meter)
// Values are mg/dL as stored, UCUM "mg/dL". Category "laboratory": FHIR's vital-signs profile fixes
// its own list of codes and glucose is not on it; a point-of-care glucose is a laboratory result.
// The patient measured it, so the patient is also the performer. The International Consensus range
// 70–180 mg/dL is the reference range, and the band is the interpretation (LL, L, N, H, HH).
import type { GlucoseType } from '../glucose.ts';
import { isHbA1c } from './a1c.ts';
import { localDate } from './dates.ts';
import { CONSENSUS, labValue, type Band } from './statistics.ts';
import type { ReportModel } from './types.ts';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ID_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';

export const GLUCOSE_LOINC = {
  Fasting: { code: '1556-0', display: 'Fasting glucose [Mass/volume] in Capillary blood', text: 'Fasting capillary glucose' },
  Postprandial: { code: '41653-7', display: 'Glucose [Mass/volume] in Capillary blood by Glucometer', text: 'Capillary glucose after a meal' },
  Random: { code: '41653-7', display: 'Glucose [Mass/volume] in Capillary blood by Glucometer', text: 'Random capillary glucose' },
} as const satisfies Record<GlucoseType, { code: string; display: string; text: string }>;

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

const INTERPRETATIONS = {
  veryLow: { code: 'LL', display: 'Critical low' },
  low: { code: 'L', display: 'Low' },
  inRange: { code: 'N', display: 'Normal' },
  high: { code: 'H', display: 'High' },
  veryHigh: { code: 'HH', display: 'Critical high' },
} as const satisfies Record<Band, { code: string; display: string }>;

type Json = Record<string, unknown>;
export interface FhirBundle {
  resourceType: 'Bundle';
  type: 'collection';
  timestamp: string;
  entry: { fullUrl: string; resource: Json & { resourceType: string; id: string } }[];
}

export interface FhirOptions {
  /** Identifier system (a URI) of the hospital's numbers, when the hospital has one. */
  identifierSystem?: string;
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

const mgdl = (value: number) => ({ value, unit: 'mg/dL', system: UCUM, code: 'mg/dL' });

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

export function fhirBundle(model: ReportModel, options: FhirOptions = {}): FhirBundle {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const { patient, range, generatedAt } = model.input;
  const tz = patient.timeZone;
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
        ...(options.identifierSystem ? { system: options.identifierSystem } : {}),
        value: patient.hospNo,
        ...(patient.hospital ? { assigner: { display: patient.hospital } } : {}),
      },
    ],
    name: [{ text: patient.name }],
    ...(g ? { gender: g } : {}),
  });

  for (const r of model.readings) {
    const code = GLUCOSE_LOINC[r.type];
    add({
      resourceType: 'Observation',
      id: r.id,
      status: 'final',
      category: category('laboratory'),
      code: { coding: [{ system: LOINC, code: code.code, display: code.display }], text: code.text },
      subject: patientRef,
      effectiveDateTime: new Date(r.recordedAt).toISOString(),
      performer: [patientRef],
      valueQuantity: mgdl(r.value),
      interpretation: [{ coding: [{ system: INTERPRETATION, ...INTERPRETATIONS[r.band] }] }],
      referenceRange: [{ low: mgdl(CONSENSUS.low), high: mgdl(CONSENSUS.high), text: 'International Consensus target range 70–180 mg/dL' }],
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
