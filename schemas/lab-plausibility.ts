// Plausible results of the tests on the hospital's reference list (issue 16): a value outside is
// almost surely a typing error (an HbA1c of −3 % or 75 %) and is refused on the device and by the
// server, as glucose outside 20–600 mg/dL is, so it never reaches the doctor's PDF, the staff review
// or the FHIR bundle. The ranges are wide on purpose: they stop impossible values, not abnormal ones
// (a potassium of 7 mmol/L is alarming and real). A test the table does not know, or a unit other
// than the ones listed, is not checked. A hospital that adds a test to its list adds its range here.
export interface PlausibleRange {
  name: string;
  unit: string;
  min: number;
  max: number;
}

export const LAB_PLAUSIBLE: readonly PlausibleRange[] = [
  { name: 'HbA1c', unit: '%', min: 3, max: 20 },
  { name: 'HbA1c', unit: 'mmol/mol', min: 9, max: 195 },
  { name: 'Fasting plasma glucose', unit: 'mg/dL', min: 20, max: 600 },
  { name: 'Fasting plasma glucose', unit: 'mmol/L', min: 1.1, max: 33.3 },
  { name: 'Total cholesterol', unit: 'mg/dL', min: 40, max: 1000 },
  { name: 'Total cholesterol', unit: 'mmol/L', min: 1, max: 26 },
  { name: 'LDL cholesterol', unit: 'mg/dL', min: 5, max: 700 },
  { name: 'LDL cholesterol', unit: 'mmol/L', min: 0.1, max: 18 },
  { name: 'HDL cholesterol', unit: 'mg/dL', min: 5, max: 200 },
  { name: 'HDL cholesterol', unit: 'mmol/L', min: 0.1, max: 5.2 },
  { name: 'Triglycerides', unit: 'mg/dL', min: 10, max: 10000 },
  { name: 'Triglycerides', unit: 'mmol/L', min: 0.1, max: 113 },
  { name: 'Creatinine', unit: 'mg/dL', min: 0.1, max: 25 },
  { name: 'Creatinine', unit: 'µmol/L', min: 9, max: 2200 },
  { name: 'eGFR', unit: 'mL/min/1.73m2', min: 1, max: 200 },
  { name: 'Urine albumin-to-creatinine ratio', unit: 'mg/g', min: 0, max: 10000 },
  { name: 'Urine albumin-to-creatinine ratio', unit: 'mg/mmol', min: 0, max: 1130 },
  { name: 'Potassium', unit: 'mmol/L', min: 1.5, max: 10 },
  { name: 'TSH', unit: 'mIU/L', min: 0.001, max: 500 },
  { name: 'Vitamin B12', unit: 'pg/mL', min: 20, max: 10000 },
];

const key = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** The plausible range of a test in a unit, when the table knows them. */
export function plausibleLabRange(name: string, unit: string | null | undefined): PlausibleRange | undefined {
  if (!unit) return undefined;
  return LAB_PLAUSIBLE.find((r) => key(r.name) === key(name) && key(r.unit) === key(unit));
}

/** The range a value falls outside of, or undefined when it is plausible (or not checked). */
export function implausibleLabValue(name: string, unit: string | null | undefined, value: number): PlausibleRange | undefined {
  const range = plausibleLabRange(name, unit);
  return range && (value < range.min || value > range.max) ? range : undefined;
}

/** The server's words for it: "HbA1c must be between 3 and 20 %". */
export const implausibleLabMessage = (r: PlausibleRange): string => `${r.name} must be between ${r.min} and ${r.max} ${r.unit}`;
