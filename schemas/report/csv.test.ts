import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { csvCell, reportCsv, reportFileName } from './csv.ts';
import type { Translate } from './labels.ts';
import { fixtureInput } from './testing/fixture.ts';

/** A small RFC 4180 reader, to prove the output parses back to the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('reportCsv', () => {
  const model = buildReport(fixtureInput());

  it('names both judgements, as the dashboard does: a fasting 148 mg/dL is in range and above target (issue 16)', () => {
    const input = fixtureInput();
    const at = input.readings[0]?.recordedAt ?? '';
    const one = buildReport({ ...input, readings: [{ _id: 'r-148', type: 'Fasting', value: 148, recordedAt: at }] });
    const rows = parseCsv(reportCsv(one, { unit: 'mg/dL' }));
    expect(rows[1]?.slice(2, 6)).toEqual(['Fasting', '148', 'In range', 'Above target']);
    // In mmol/L the same reading and words (8.2 mmol/L; the fasting target is 4.4–7.2).
    expect(parseCsv(reportCsv(one, { unit: 'mmol/L' }))[1]?.slice(3, 6)).toEqual(['8.2', 'In range', 'Above target']);
  });

  it('writes a reading as typed in its own unit and judges it there: 10.0 mmol/L, 53.9 mg/dL (issue 16)', () => {
    const input = fixtureInput();
    const at = input.readings[0]?.recordedAt ?? '';
    const two = buildReport({
      ...input,
      readings: [
        { _id: 'r-10', type: 'Random', value: 180.2, unit: 'mmol/L', enteredValue: 10, recordedAt: at },
        { _id: 'r-53', type: 'Random', value: 53.9, unit: 'mg/dL', enteredValue: 53.9, recordedAt: at },
      ],
    });
    const cells = (unit: 'mg/dL' | 'mmol/L') => parseCsv(reportCsv(two, { unit })).slice(1).map((r) => r.slice(3, 5));
    expect(cells('mmol/L')).toEqual([
      ['10.0', 'In range'],
      ['3.0', 'Very low'],
    ]);
    expect(cells('mg/dL')).toEqual([
      ['180', 'In range'],
      ['53.9', 'Very low'],
    ]);
  });

  it('has a header and one CRLF-terminated row per reading in range, local date and time', () => {
    const text = reportCsv(model, { unit: 'mg/dL' });
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['Date', 'Time', 'Type', 'Value (mg/dL)', 'Range', 'Meal target', 'Recorded at (UTC)']);
    expect(rows).toHaveLength(1 + 42);
    // 05:00 in Kolkata on 1 March is 23:30 UTC on 28 February.
    expect(rows[1]).toEqual(['2026-03-01', '05:00', 'Fasting', '100', 'In range', 'In target', '2026-02-28T23:30:00.000Z']);
    expect(rows[3]).toEqual(['2026-03-01', '23:45', 'Random', '50', 'Very low', 'Below target', '2026-03-01T18:15:00.000Z']);
    expect(rows[5]?.slice(2, 6)).toEqual(['After a meal', '200', 'High', 'Above target']);
  });

  it('writes mmol/L with one decimal', () => {
    const rows = parseCsv(reportCsv(model, { unit: 'mmol/L' }));
    expect(rows[0]?.[3]).toBe('Value (mmol/L)');
    expect(rows.slice(1, 4).map((r) => r[3])).toEqual(['5.6', '8.9', '2.8']); // 100, 160, 50 mg/dL
  });

  it('quotes per RFC 4180 and defuses formulas, also in translated words', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const evil of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(evil).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(-1)).toBe('-1'); // numbers are numbers
    const evilTranslate: Translate = (d) => (d.id === 'report.band.inRange' ? '=cmd|/C calc' : (d.message ?? d.id));
    const rows = parseCsv(reportCsv(model, { unit: 'mg/dL', translate: evilTranslate }));
    expect(rows[1]?.[4]).toBe("'=cmd|/C calc");
  });

  it('names the file after the hospital number and range, safely', () => {
    expect(reportFileName(model, 'pdf')).toBe('eddy-report-H-2040-2026-03-01-2026-03-14.pdf');
    const odd = { input: { ...model.input, patient: { ...model.input.patient, hospNo: 'A/B 7' } } };
    expect(reportFileName(odd, 'csv')).toBe('eddy-report-A_B_7-2026-03-01-2026-03-14.csv');
  });
});
