import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acceptedLabUnit, checkLabResult, LAB_TEST_UNITS, labRefusalMessage, labUnitRule, type ListedLabTest } from './lab-units.ts';

/** The hospital's reference list as the database is seeded with it. */
function seededList(): ListedLabTest[] {
  const sql = readFileSync(new URL('../server/db/migrations/0001_reference-data.sql', import.meta.url), 'utf8');
  const block = sql.slice(sql.indexOf('INSERT INTO "lab_test_reference"'));
  return [...block.matchAll(/\('([^']+)', '([^']+)', '[^']+'\)/g)].map((m) => ({ name: m[1] ?? '', unit: m[2] ?? null }));
}

const LIST = seededList();
const check = (name: string, value: number, unit?: string | null) => checkLabResult(name, value, unit, LIST);
const accepted = (name: string, value: number, unit?: string | null) => {
  const result = check(name, value, unit);
  return 'unit' in result ? result.unit : `refused: ${labRefusalMessage(result.refused)}`;
};
/** A value inside a unit's plausible range. */
const inRange = (min = 0, max = 0) => (min + max) / 2;

describe('the units of the listed tests', () => {
  it('covers every test of the seeded list, whose own unit is one of its accepted units, each with a range', () => {
    expect(LIST.map((t) => t.name).sort()).toEqual(LAB_TEST_UNITS.map((t) => t.name).sort());
    for (const listed of LIST) {
      const rule = labUnitRule(listed.name, LIST);
      const known = LAB_TEST_UNITS.find((t) => t.name === listed.name);
      expect(rule?.units, listed.name).toEqual(known?.units);
      expect(rule?.listUnit, listed.name).toBe(listed.unit);
      for (const u of known?.units ?? []) expect(u.min !== undefined && u.max !== undefined && u.min < u.max, `${listed.name} ${u.unit}`).toBe(true);
    }
  });

  it('accepts each test in each of its units, in harmless variants, and stores the table’s spelling', () => {
    for (const test of LAB_TEST_UNITS) {
      for (const u of test.units) {
        const value = inRange(u.min, u.max);
        const variants = [
          u.unit,
          ` ${u.unit} `,
          u.unit.toUpperCase(),
          u.unit.toLowerCase(),
          u.unit.split('').join(' '),
          `${u.unit}\u200b`,
          ...(u.aliases ?? []),
        ];
        for (const spelling of variants) expect(accepted(test.name, value, spelling), `${test.name} in ${JSON.stringify(spelling)}`).toBe(u.unit);
        for (const name of [test.name, test.name.toUpperCase(), ` ${test.name.toLowerCase()} `, test.name.replace(' ', '  ')])
          expect(accepted(name, value, u.unit), name).toBe(u.unit);
      }
    }
    // The spellings people and lab systems write for these units.
    expect(accepted('Fasting plasma glucose', 100, 'mg/dl')).toBe('mg/dL');
    expect(accepted('Creatinine', 80, 'umol/L')).toBe('µmol/L');
    expect(accepted('Creatinine', 80, 'μmol/L')).toBe('µmol/L'); // Greek mu, not the micro sign
    expect(accepted('eGFR', 75, 'mL/min/1.73 m²')).toBe('mL/min/1.73m2'); // as the app shows it
    expect(accepted('HbA1c', 7.1, '％')).toBe('%'); // full-width, as a CJK keyboard types it
  });

  it('takes the list’s unit when none is given, in the table’s spelling', () => {
    expect(accepted('HbA1c', 7.1)).toBe('%');
    expect(accepted('hba1c', 7.1, '')).toBe('%');
    expect(accepted('HbA1c', 7.1, '   ')).toBe('%');
    expect(accepted('Potassium', 4.2, null)).toBe('mmol/L');
    expect(checkLabResult('Creatinine', 80, undefined, [{ name: 'Creatinine', unit: 'umol/l' }])).toEqual({ unit: 'µmol/L' });
  });

  it('refuses a unit the test is not measured in, naming the units it is', () => {
    const refusals: [string, string, string][] = [
      ['HbA1c', 'pct', 'The unit of HbA1c must be % or mmol/mol, not "pct"'],
      ['HbA1c', '%%', 'The unit of HbA1c must be % or mmol/mol, not "%%"'],
      ['HbA1c', 'percent', 'The unit of HbA1c must be % or mmol/mol, not "percent"'],
      ['HbA1c', 'mg/dL', 'The unit of HbA1c must be % or mmol/mol, not "mg/dL"'],
      ['HbA1c', '٪', 'The unit of HbA1c must be % or mmol/mol, not "٪"'],
      ['Fasting plasma glucose', 'mmol', 'The unit of Fasting plasma glucose must be mg/dL or mmol/L, not "mmol"'],
      ['Creatinine', 'mmol/L', 'The unit of Creatinine must be mg/dL or µmol/L, not "mmol/L"'],
      ['eGFR', 'mL/min', 'The unit of eGFR must be mL/min/1.73m2, not "mL/min"'],
      ['Potassium', 'mEq/L', 'The unit of Potassium must be mmol/L, not "mEq/L"'],
      ['TSH', 'mg/dL', 'The unit of TSH must be mIU/L, not "mg/dL"'],
      ['Vitamin B12', 'pg', 'The unit of Vitamin B12 must be pg/mL, not "pg"'],
      ['Urine albumin-to-creatinine ratio', 'mg/L', 'The unit of Urine albumin-to-creatinine ratio must be mg/g or mg/mmol, not "mg/L"'],
    ];
    for (const [name, unit, message] of refusals) expect(accepted(name, 5, unit), `${name} ${unit}`).toBe(`refused: ${message}`);
    // Every test refuses the made-up units of the issue, and every other test's units.
    for (const test of LAB_TEST_UNITS) {
      for (const unit of ['pct', '%%', 'PCT', 'x', '-', '0'])
        expect(check(test.name, 5, unit), `${test.name} ${unit}`).toMatchObject({ refused: { kind: 'unit', test: test.name } });
      const own = new Set(test.units.map((u) => u.unit.toLowerCase()));
      for (const other of LAB_TEST_UNITS.flatMap((t) => t.units.map((u) => u.unit)).filter((u) => !own.has(u.toLowerCase())))
        expect(check(test.name, 5, other), `${test.name} ${other}`).toMatchObject({ refused: { kind: 'unit' } });
    }
  });

  it('refuses a listed test without a unit when its list has none to give', () => {
    const list = [{ name: 'HbA1c', unit: null }];
    expect(checkLabResult('HbA1c', 7, undefined, list)).toEqual({ refused: { kind: 'unit', test: 'HbA1c', accepted: ['%', 'mmol/mol'], given: null } });
    expect(labRefusalMessage({ kind: 'unit', test: 'HbA1c', accepted: ['%', 'mmol/mol'], given: null })).toBe(
      'The unit of HbA1c must be % or mmol/mol; none was given',
    );
    expect(labRefusalMessage({ kind: 'unit', test: 'Lipids', accepted: ['mg/dL', 'mmol/L', 'g/L'], given: 'x' })).toBe(
      'The unit of Lipids must be mg/dL, mmol/L or g/L, not "x"',
    );
  });

  it('checks the value against the range of the unit it is in, edges included', () => {
    expect(accepted('HbA1c', 3, '%')).toBe('%');
    expect(accepted('HbA1c', 20, '%')).toBe('%');
    expect(accepted('HbA1c', 20.01, '%')).toBe('refused: HbA1c must be between 3 and 20 %');
    expect(accepted('HbA1c', -3, '%')).toBe('refused: HbA1c must be between 3 and 20 %');
    expect(accepted('HbA1c', 75, 'mmol/mol')).toBe('mmol/mol'); // 75 mmol/mol is 9.0 %: real
    expect(accepted('HbA1c', 250, 'MMOL/MOL')).toBe('refused: HbA1c must be between 9 and 195 mmol/mol');
    expect(accepted('Potassium', 0.4)).toBe('refused: Potassium must be between 1.5 and 10 mmol/L');
    expect(accepted('HbA1c', Number.NaN, '%')).toBe('refused: HbA1c must be between 3 and 20 %');
  });
});

describe('HbA1c 75 in a made-up unit', () => {
  const units: (string | null | undefined)[] = [
    undefined,
    null,
    '',
    ' ',
    '%',
    '% ',
    ' %',
    '\t%\n',
    '%\u00a0',
    '%\u200b',
    '\u200b%',
    '\ufeff%',
    '％',
    '﹪',
    '٪',
    '%%',
    '% %',
    'pct',
    'PCT',
    'Pct',
    'pct ',
    'percent',
    'per cent',
    'procent',
    '%25',
    '&#37;',
    'ratio',
    'mmol/mol%',
    '% mmol/mol',
    '',
  ];
  const names = [
    'HbA1c',
    'hba1c',
    'HBA1C',
    ' HbA1c ',
    'HbA1c\u200b',
    'Hb\u200bA1c',
    'ＨｂＡ１ｃ',
    'Hb A1c',
    'HbA1C',
    'A1c',
    'A1C',
    'Glycated haemoglobin',
    'glycosylated hemoglobin',
    'HbA1c (lab)',
  ];

  it('is never stored, whatever the name’s or the unit’s spelling', () => {
    for (const name of names) {
      for (const unit of units) {
        const result = check(name, 75, unit);
        expect('refused' in result, `${JSON.stringify(name)} ${JSON.stringify(unit)} → ${JSON.stringify(result)}`).toBe(true);
      }
      // The same result in IFCC units is plausible, and stored in the table's spelling.
      expect(check(name, 75, ' MMOL/MOL ')).toEqual({ unit: 'mmol/mol' });
    }
  });

  it('is refused for the unit first, so the message names the units HbA1c is given in', () => {
    expect(accepted('HbA1c', 75, 'pct')).toBe('refused: The unit of HbA1c must be % or mmol/mol, not "pct"');
    expect(accepted('HbA1c', 75, '%%')).toBe('refused: The unit of HbA1c must be % or mmol/mol, not "%%"');
    expect(accepted('A1c', 75, '%')).toBe('refused: HbA1c must be between 3 and 20 %');
    expect(accepted('A1c', 7.5)).toBe('refused: The unit of HbA1c must be % or mmol/mol; none was given');
  });
});

describe('tests that are not on the list', () => {
  it('keep any unit, or none, without a range', () => {
    expect(check('Vitamin D', 31.5, 'ng/mL')).toEqual({ unit: 'ng/mL' });
    expect(check('Vitamin D', 31.5, ' pct ')).toEqual({ unit: 'pct' });
    expect(check('Some rare assay', 123456, undefined)).toEqual({ unit: null });
    expect(labUnitRule('Vitamin D', LIST)).toBeUndefined();
    // Names the table does not know stay free, even when they contain a listed one's words.
    expect(check('LDL', 130, 'pct')).toEqual({ unit: 'pct' });
  });

  it('a test a hospital added accepts its list’s unit only, a listed test without a unit any', () => {
    const list = [...LIST, { name: 'Microalbumin', unit: 'mg/L' }, { name: 'Ferritin', unit: null }];
    expect(checkLabResult('microalbumin', 12, 'MG/L', list)).toEqual({ unit: 'mg/L' });
    expect(checkLabResult('Microalbumin', 12, undefined, list)).toEqual({ unit: 'mg/L' });
    expect(checkLabResult('Microalbumin', 1e6, 'mg/L', list)).toEqual({ unit: 'mg/L' });
    expect(checkLabResult('Microalbumin', 12, 'pct', list)).toEqual({ refused: { kind: 'unit', test: 'Microalbumin', accepted: ['mg/L'], given: 'pct' } });
    expect(checkLabResult('Ferritin', 80, 'ng/mL', list)).toEqual({ unit: 'ng/mL' });
  });

  it('a listed test whose list gives a unit the table does not know accepts that unit too', () => {
    const list = [{ name: 'Total cholesterol', unit: 'g/L' }];
    const rule = labUnitRule('Total cholesterol', list);
    expect(rule?.units.map((u) => u.unit)).toEqual(['mg/dL', 'mmol/L', 'g/L']);
    expect(checkLabResult('Total cholesterol', 2, undefined, list)).toEqual({ unit: 'g/L' });
    expect(acceptedLabUnit(rule ?? { test: '', units: [], listUnit: null }, '  ')).toBeUndefined();
  });
});
