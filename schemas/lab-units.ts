// The units each test of the hospital's reference list is accepted in, and the plausible results in
// each. One rule for the device's form and for every server write (POST /api/tests/add, /update and
// the same writes in /api/batch), so a result a doctor reads is always in a unit its test is
// measured in, checked against that unit's range: "HbA1c 75 pct" (or "%%", "percent") is refused
// for its unit instead of being stored as an HbA1c no range knew, "HbA1c 75 ％" for its value.
//
// The ranges are wide on purpose: they stop impossible values, not abnormal ones (a potassium of
// 7 mmol/L is alarming and real); an HbA1c of −3 % or 75 % is a typing error. A unit is matched
// by its spelling with harmless differences only: case, spaces, invisible characters and Unicode
// compatibility forms ('MG/DL', 'mg / dl', '％' and the shown 'mL/min/1.73 m²' are the same unit);
// the table's spelling is what is stored. The few aliases are other spellings of the same unit,
// not conversions. A hospital that adds a test to its list adds its units here; a listed test the
// table does not know accepts the list's unit only (without a range), and a listed test without a
// unit, like a test typed by name, any unit (or none).
import { isHbA1c } from './a1c.ts';

export interface LabUnit {
  /** The spelling stored and shown. */
  unit: string;
  /** Other spellings of exactly this unit, stored as `unit`. */
  aliases?: readonly string[];
  /** The plausible results in this unit, when the table knows them. */
  min?: number;
  max?: number;
}

export interface KnownLabTest {
  name: string;
  units: readonly LabUnit[];
}

export const LAB_TEST_UNITS: readonly KnownLabTest[] = [
  {
    name: 'HbA1c',
    units: [
      { unit: '%', min: 3, max: 20 },
      { unit: 'mmol/mol', min: 9, max: 195 },
    ],
  },
  {
    name: 'Fasting plasma glucose',
    units: [
      { unit: 'mg/dL', min: 20, max: 600 },
      { unit: 'mmol/L', min: 1.1, max: 33.3 },
    ],
  },
  {
    name: 'Total cholesterol',
    units: [
      { unit: 'mg/dL', min: 40, max: 1000 },
      { unit: 'mmol/L', min: 1, max: 26 },
    ],
  },
  {
    name: 'LDL cholesterol',
    units: [
      { unit: 'mg/dL', min: 5, max: 700 },
      { unit: 'mmol/L', min: 0.1, max: 18 },
    ],
  },
  {
    name: 'HDL cholesterol',
    units: [
      { unit: 'mg/dL', min: 5, max: 200 },
      { unit: 'mmol/L', min: 0.1, max: 5.2 },
    ],
  },
  {
    name: 'Triglycerides',
    units: [
      { unit: 'mg/dL', min: 10, max: 10000 },
      { unit: 'mmol/L', min: 0.1, max: 113 },
    ],
  },
  {
    name: 'Creatinine',
    units: [
      { unit: 'mg/dL', min: 0.1, max: 25 },
      // Laboratory systems without the micro sign write it 'u'.
      { unit: 'µmol/L', aliases: ['umol/L'], min: 9, max: 2200 },
    ],
  },
  { name: 'eGFR', units: [{ unit: 'mL/min/1.73m2', min: 1, max: 200 }] },
  {
    name: 'Urine albumin-to-creatinine ratio',
    units: [
      { unit: 'mg/g', min: 0, max: 10000 },
      { unit: 'mg/mmol', min: 0, max: 1130 },
    ],
  },
  { name: 'Potassium', units: [{ unit: 'mmol/L', min: 1.5, max: 10 }] },
  { name: 'TSH', units: [{ unit: 'mIU/L', min: 0.001, max: 500 }] },
  { name: 'Vitamin B12', units: [{ unit: 'pg/mL', min: 20, max: 10000 }] },
];

/** A test's name as compared: NFKC, no invisible characters, spaces collapsed, case ignored. */
export const labTestKey = (name: string): string =>
  name
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** A unit as compared: NFKC ('％' is '%', '²' is '2', 'µ' the micro sign is 'μ'), no spaces or invisible characters, case ignored. */
export const labUnitKey = (unit: string): string =>
  unit
    .normalize('NFKC')
    .replace(/[\s\p{Cf}]/gu, '')
    .toLowerCase();

/** An entry of the hospital's reference list (GET /api/tests/list). */
export interface ListedLabTest {
  name: string;
  unit?: string | null | undefined;
}

export interface LabUnitRule {
  /** The test's name in messages: the table's, else the list's. */
  test: string;
  /** The accepted units, in the order offered. */
  units: readonly LabUnit[];
  /** The unit taken when none is given: the list's, in the table's spelling. */
  listUnit: string | null;
}

const HBA1C = LAB_TEST_UNITS.find((t) => t.name === 'HbA1c');

const matches = (u: LabUnit, key: string) => labUnitKey(u.unit) === key || (u.aliases ?? []).some((a) => labUnitKey(a) === key);

/**
 * The units a test accepts, or undefined when it accepts any (a test neither the table nor the list
 * gives a unit). A name the reports read as HbA1c ("A1c", "Glycated haemoglobin", report/a1c.ts) is
 * HbA1c here too, so an HbA1c entered under such a name is in the units the comparison with the GMI
 * reads, % or mmol/mol.
 */
export function labUnitRule(name: string, listed: readonly ListedLabTest[]): LabUnitRule | undefined {
  const key = labTestKey(name);
  const known = LAB_TEST_UNITS.find((t) => labTestKey(t.name) === key) ?? (isHbA1c(name.normalize('NFKC').replace(/\p{Cf}/gu, '')) ? HBA1C : undefined);
  const onList = listed.find((r) => labTestKey(r.name) === key);
  const listUnit = onList?.unit?.trim() ? onList.unit.trim() : null;
  const units = [...(known?.units ?? [])];
  const inTable = listUnit === null ? undefined : units.find((u) => matches(u, labUnitKey(listUnit)));
  if (listUnit !== null && !inTable) units.push({ unit: listUnit });
  if (units.length === 0) return undefined;
  return { test: known?.name ?? onList?.name.trim() ?? name.trim(), units, listUnit: inTable?.unit ?? listUnit };
}

/** The accepted unit `given` spells, if any. */
export function acceptedLabUnit(rule: LabUnitRule, given: string): LabUnit | undefined {
  const key = labUnitKey(given);
  return key === '' ? undefined : rule.units.find((u) => matches(u, key));
}

export type LabRefusal =
  { kind: 'unit'; test: string; accepted: readonly string[]; given: string | null } | { kind: 'range'; test: string; unit: string; min: number; max: number };

/**
 * A result's unit as stored, or why the result is refused. Without a unit a test takes its list's
 * unit (the API's body has no unit, docs/api.md); a test that accepts only certain units then needs
 * one of them, and its value must lie in that unit's plausible range.
 */
export function checkLabResult(
  name: string,
  value: number,
  unit: string | null | undefined,
  listed: readonly ListedLabTest[],
): { unit: string | null } | { refused: LabRefusal } {
  const rule = labUnitRule(name, listed);
  const given = unit?.trim() ? unit.trim() : null;
  if (!rule) return { unit: given };
  const wanted = given ?? rule.listUnit;
  const accepted = wanted === null ? undefined : acceptedLabUnit(rule, wanted);
  if (!accepted) return { refused: { kind: 'unit', test: rule.test, accepted: rule.units.map((u) => u.unit), given } };
  const { min, max } = accepted;
  if (min !== undefined && max !== undefined && !(value >= min && value <= max))
    return { refused: { kind: 'range', test: rule.test, unit: accepted.unit, min, max } };
  return { unit: accepted.unit };
}

/** "%, mg/dL or mmol/L". */
const orList = (units: readonly string[]) => (units.length < 2 ? (units[0] ?? '') : `${units.slice(0, -1).join(', ')} or ${units.at(-1) ?? ''}`);

/** The server's words for a refusal: "HbA1c must be between 3 and 20 %", "The unit of HbA1c must be % or mmol/mol, not "pct"". */
export function labRefusalMessage(r: LabRefusal): string {
  if (r.kind === 'range') return `${r.test} must be between ${r.min} and ${r.max} ${r.unit}`;
  const units = orList(r.accepted);
  return r.given === null ? `The unit of ${r.test} must be ${units}; none was given` : `The unit of ${r.test} must be ${units}, not "${r.given}"`;
}
