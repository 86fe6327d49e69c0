import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { csvCell, reportCsv, reportFileName } from './csv.ts';
import type { Translate } from './labels.ts';
import type { ReportInput } from './types.ts';
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

/** The CSV's table: the rows after the blank row that ends the lines about whose data it is. */
function table(text: string): string[][] {
  const rows = parseCsv(text);
  return rows.slice(rows.findIndex((r) => r.length === 1 && r[0] === '') + 1);
}

describe('reportCsv', () => {
  const model = buildReport(fixtureInput(), 'mg/dL');
  const oneOf = (readings: ReportInput['readings'], unit: 'mg/dL' | 'mmol/L') => buildReport({ ...fixtureInput(), readings }, unit);
  const at = fixtureInput().readings[0]?.recordedAt ?? '';

  it('says whose data it is before the table: patient, hospital number, hospital, period, unit, time zone', () => {
    const rows = parseCsv(reportCsv(model));
    const p = model.input.patient;
    expect(rows.slice(0, 8)).toEqual([
      ['Patient', p.name],
      ['Hospital number', 'H-2040'],
      ['Hospital', p.hospital ?? ''],
      ['Period (first and last day)', '2026-03-01', '2026-03-14'],
      ['Glucose unit', 'mg/dL'],
      ['Times are local to', 'Asia/Kolkata'],
      ['Made at (UTC)', new Date(model.input.generatedAt).toISOString()],
      [''],
    ]);
  });

  it('names both judgements, as the dashboard does: a fasting 148 mg/dL is in range and above target', () => {
    const readings = [{ _id: 'r-148', type: 'Fasting' as const, value: 148, recordedAt: at }];
    expect(table(reportCsv(oneOf(readings, 'mg/dL')))[1]?.slice(2, 6)).toEqual(['Fasting', '148', 'In range', 'Above target']);
    // In mmol/L the same reading and words (8.2 mmol/L; the fasting target is 4.4–7.2).
    expect(table(reportCsv(oneOf(readings, 'mmol/L')))[1]?.slice(3, 6)).toEqual(['8.2', 'In range', 'Above target']);
  });

  it('judges each value as it is written: the band never contradicts the number beside it', () => {
    const readings = [
      { _id: 'r-10', type: 'Random' as const, value: 180.2, unit: 'mmol/L' as const, enteredValue: 10, recordedAt: at },
      { _id: 'r-53', type: 'Random' as const, value: 53.9, unit: 'mg/dL' as const, enteredValue: 53.9, recordedAt: at },
      { _id: 'r-181', type: 'Postprandial' as const, value: 181, unit: 'mg/dL' as const, enteredValue: 181, recordedAt: at },
      { _id: 'r-69', type: 'Random' as const, value: 69.5, unit: 'mg/dL' as const, enteredValue: 69.5, recordedAt: at },
    ];
    const cells = (unit: 'mg/dL' | 'mmol/L') =>
      table(reportCsv(oneOf(readings, unit)))
        .slice(1)
        .map((r) => r.slice(3, 5));
    // The row "…,After a meal,10.0,High" is now "10.0,In range".
    expect(cells('mmol/L')).toEqual([
      ['10.0', 'In range'],
      ['3.0', 'Low'],
      ['10.0', 'In range'],
      ['3.9', 'In range'],
    ]);
    expect(cells('mg/dL')).toEqual([
      ['180', 'In range'],
      ['53.9', 'Very low'],
      ['181', 'High'],
      ['69.5', 'Low'],
    ]);
  });

  it('has a header and one CRLF-terminated row per reading in range, local date and time, the tags as the app names them', () => {
    const text = reportCsv(model);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = table(text);
    expect(rows[0]).toEqual(['Date', 'Time', 'Type', 'Value (mg/dL)', 'Range', 'Meal target', 'Recorded at (UTC)', 'Device clock (UTC offset)']);
    expect(rows).toHaveLength(1 + 42);
    // 05:00 in Kolkata on 1 March is 23:30 UTC on 28 February.
    expect(rows[1]).toEqual(['2026-03-01', '05:00', 'Fasting', '100', 'In range', 'In target', '2026-02-28T23:30:00.000Z', '']);
    expect(rows[3]).toEqual(['2026-03-01', '23:45', 'Random', '50', 'Very low', 'Below target', '2026-03-01T18:15:00.000Z', '']);
    expect(rows[5]?.slice(2, 6)).toEqual(['Postprandial', '200', 'High', 'Above target']);
  });

  it('keeps the recording device’s UTC offset beside the patient’s local time', () => {
    const readings = [
      { _id: 'r-paris', type: 'Random' as const, value: 140, recordedAt: at, utcOffsetMinutes: 60 },
      { _id: 'r-ny', type: 'Random' as const, value: 141, recordedAt: at, utcOffsetMinutes: -300 },
    ];
    expect(
      table(reportCsv(oneOf(readings, 'mg/dL')))
        .slice(1)
        .map((r) => r[7]),
    ).toEqual(['UTC+01:00', 'UTC-05:00']);
  });

  it('writes mmol/L with one decimal', () => {
    const rows = table(reportCsv(buildReport(fixtureInput(), 'mmol/L')));
    expect(rows[0]?.[3]).toBe('Value (mmol/L)');
    expect(rows.slice(1, 4).map((r) => r[3])).toEqual(['5.6', '8.9', '2.8']); // 100, 160, 50 mg/dL
  });

  it('quotes per RFC 4180 and defuses formulas, also in translated words and names', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const evil of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(evil).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(-1)).toBe('-1'); // numbers are numbers
    const evilTranslate: Translate = (d) => (d.id === 'report.band.inRange' ? '=cmd|/C calc' : (d.message ?? d.id));
    const rows = table(reportCsv(model, { translate: evilTranslate }));
    expect(rows[1]?.[4]).toBe("'=cmd|/C calc");
    const named = buildReport({ ...fixtureInput(), patient: { ...fixtureInput().patient, name: '=HYPERLINK("x")' } }, 'mg/dL');
    expect(parseCsv(reportCsv(named))[0]?.[1]).toBe(`'=HYPERLINK("x")`);
  });

  it('names the file after the hospital number and range, safely', () => {
    expect(reportFileName(model, 'pdf')).toBe('eddy-report-H-2040-2026-03-01-2026-03-14.pdf');
    const odd = { input: { ...model.input, patient: { ...model.input.patient, hospNo: 'A/B 7' } } };
    expect(reportFileName(odd, 'csv')).toBe('eddy-report-A_B_7-2026-03-01-2026-03-14.csv');
  });
});
