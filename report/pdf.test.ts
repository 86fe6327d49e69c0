// The PDF proof: rendered from the known data set (testing/fixture.ts, numbers computed by hand
// there), read back with pdftotext, counted with pdfinfo/pdfimages and rendered with pdftoppm.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import type { Translate } from './labels.ts';
import { renderReportPdf, reportDocument } from './pdf.ts';
import { fixtureInput } from './testing/fixture.ts';
import { pdfImageCount, pdfPages, pdfText, pdfToPngs, writeTemp } from './testing/pdf-tools.ts';

/** Runs of spaces collapse, so table columns read as "Mean (mg/dL) 150 120 180 150". */
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

describe('renderReportPdf (English, mg/dL)', () => {
  let file: string;
  let text: string;
  let bytes: Uint8Array;

  beforeAll(async () => {
    bytes = await renderReportPdf(buildReport(fixtureInput(), 'mg/dL'), { locale: 'en' });
    file = writeTemp(bytes);
    text = squash(pdfText(file));
  }, 60_000);

  it('is a PDF with numbered pages', () => {
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const pages = pdfPages(file);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (let n = 1; n <= pages; n++) expect(text).toContain(`Page ${n} of ${pages}`);
  });

  it('names the patient with two identifiers at the top of every page (issue 16)', () => {
    const pages = pdfPages(file);
    for (let n = 1; n <= pages; n++) {
      const top =
        execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-f', String(n), '-l', String(n), file, '-'], { encoding: 'utf8' })
          .trimStart()
          .split('\n')[0] ?? '';
      expect(squash(top), `page ${n}`).toMatch(/^Asha Verma · Hospital number H-2040 · 58 \/ Female Mar 1, 2026 – Mar 14, 2026$/);
    }
  });

  it('heads with the patient, hospital number, range and generation time', () => {
    expect(text).toContain('Diabetes report');
    expect(text).toContain('Asha Verma');
    expect(text).toContain('H-2040');
    expect(text).toContain('City General Hospital');
    expect(text).toContain('Mar 1, 2026 – Mar 14, 2026 (14 days)');
    // 04:30 UTC is 10:00 in Kolkata.
    expect(text).toContain('Mar 15, 2026, 10:00 AM (Asia/Kolkata)');
  });

  it('shows the hand-computed statistics', () => {
    expect(text).toContain('150 mg/dL'); // mean
    expect(text).toMatch(/In range 70–180[\s\S]*50%/); // time in range
    expect(text).toContain('21 / 42');
    expect(text).toContain('6.9%'); // GMI 6.898
    expect(text).toContain('3.0 per day');
    expect(text).toContain('7 below 54');
    expect(text).toContain('Readings 42 14 14 14');
    expect(text).toContain('Mean (mg/dL) 150 120 180 150');
    expect(text).toContain('Median (mg/dL) 150 120 180 150');
    expect(text).toContain('SD (mg/dL) 66 – – –'); // √(176400/41) = 65.6, whole mg/dL like the mean; per tag < 30 readings
    expect(text).toContain('CV (%) 43.7');
    // "In target" is one figure everywhere: each reading against its own tag's target (14 of 42).
    expect(text).toContain('In target 33% 50% 50% 0%');
    expect(text).toContain('GMI is defined for continuous glucose monitoring');
    expect(text).toContain('Lowest – highest (mg/dL) 50 – 250 100 – 140 160 – 200 50 – 250');
    expect(text).toMatch(/Very low below 54 17% \(7\) 0%/);
    expect(text).toMatch(/High 181–250 33% \(14\) 100%/);
    expect(text.replace(/\s+/g, ' ')).toContain(
      'very low below 54, low 54–69, in range 70–180, high 181–250, very high above 250 mg/dL. In target: each reading against the target of its meal tag: fasting 80–130, after a meal 70 to below 180, random 70–180 mg/dL. Each reading is judged as it is printed here, in mg/dL.',
    );
  });

  it('shows the comparison, A1c beside the lab HbA1c, adherence, symptoms, labs, appointments and checks', () => {
    expect(text).toContain('Compared with the previous 14 days (Feb 15, 2026 – Feb 28, 2026)');
    expect(text).toContain('Mean (mg/dL) 150 200 -50');
    expect(text).toContain('+50 points');
    expect(text).toMatch(/GMI Estimated A1c \(ADAG\) Latest lab HbA1c up to Mar 14, 2026\s+6\.9% 6\.9% 7\.4%/);
    expect(text).toContain('Metformin 500 mg tablet 1-0-1 21 of 28 75%');
    expect(text).toContain('Gliclazide 40 mg tablet 0-0-1 7 of 7 100%');
    expect(text).not.toContain('Glibenclamide'); // ended before the range
    expect(text).toContain('Fatigue 3 Mar 11, 2026');
    expect(text).toContain('HbA1c 7.4 % on Mar 10, 2026 7.9 % on Dec 10, 2025');
    expect(text).toContain('Dr. Meera Rao (Endocrinology)');
    expect(text).toContain('3 of 3 planned glucometer days had a reading.');
  });

  it('lists every low with its time, tag, value and the symptoms of that day (issue 16)', () => {
    expect(text).toContain('Every low (below 70 mg/dL)');
    expect(text).toMatch(/Mar 3, 2026 23:45 Random 50 Shakiness/);
    expect(text).toMatch(/Mar 1, 2026 23:45 Random 50 –/);
  });

  it('has the logbook grid by local day', () => {
    expect(text).toContain('Date Fasting Postprandial Random');
    expect(text).toContain('Sun, Mar 1 100 160 50');
    expect(text).toContain('Sat, Mar 14 140 200 250');
  });

  it('draws the charts as vectors (no raster image) and renders every page', () => {
    expect(pdfImageCount(file)).toBe(0);
    const pngs = pdfToPngs(file, 60);
    expect(pngs).toHaveLength(pdfPages(file));
    for (const png of pngs) expect(statSync(png).size).toBeGreaterThan(5_000);
  });
});

describe('renderReportPdf in the patient’s language and unit', () => {
  it('formats numbers and dates for the locale, shows mmol/L and uses the translations', async () => {
    const es: Record<string, string> = {
      'report.pdf.title': 'Informe de diabetes',
      'report.pdf.pageOf': 'Página {page} de {pages}',
      'report.pdf.average': 'Glucosa media',
      'report.gender.female': 'Mujer',
    };
    const translate: Translate = (d, values) => (es[d.id] ?? d.message ?? d.id).replace(/\{(\w+)\}/g, (_, k: string) => String(values?.[k] ?? ''));
    const file = writeTemp(await renderReportPdf(buildReport(fixtureInput(), 'mmol/L'), { locale: 'es', translate }));
    const text = squash(pdfText(file));
    expect(text).toContain('Informe de diabetes');
    expect(text).toContain('Glucosa media');
    expect(text).toContain(`Página 1 de ${pdfPages(file)}`);
    expect(text).toContain('8,3 mmol/L'); // 150 / 18.016 = 8.33
    expect(text).toContain('6,9 %'); // GMI
    expect(text).toContain('1 mar 2026');
    // Gender is recorded in English ("Female"); the report words it in its own language.
    expect(text).toMatch(/58 \/ Mujer/);
    expect(text).not.toContain('Female');
    expect(text).toContain('Mean (mmol/L) 8,3 6,7 10,0 8,3');
    // The bands' edges as the consensus publishes them in mmol/L, the same as the web report's
    // (converted from mg/dL they read 3,0–3,9 beside 3,9–10,0; issue 16).
    expect(text).toContain('3,0–3,8');
    expect(text).toContain('10,1–13,9');
    expect(text).not.toContain('3,0–3,9');
    const about = text.replace(/\s+/g, ' ');
    expect(about).toContain('very low below 3,0, low 3,0–3,8, in range 3,9–10,0, high 10,1–13,9, very high above 13,9 mmol/L');
    expect(about).toContain('fasting 4,4–7,2, after a meal 3,9 to below 10,0, random 3,9–10,0 mmol/L');
  }, 60_000);

  it('says why the GMI is not shown for a short range, and renders an empty range', async () => {
    const input = fixtureInput();
    const short = squash(
      pdfText(writeTemp(await renderReportPdf(buildReport({ ...input, range: { from: '2026-03-01', to: '2026-03-05' } }, 'mg/dL'), { locale: 'en' }))),
    );
    expect(short).toContain('needs at least 30 readings (15 in this period)');
    const empty = squash(
      pdfText(writeTemp(await renderReportPdf(buildReport({ ...input, range: { from: '2026-05-01', to: '2026-05-07' } }, 'mg/dL'), { locale: 'en' }))),
    );
    expect(empty).toContain('No glucose readings in this period.');
    expect(empty).toContain('Page 1 of');
  }, 60_000);

  it('builds the same document definition without any engine (pure)', () => {
    const doc = reportDocument(buildReport(fixtureInput(), 'mg/dL'), { locale: 'en' });
    expect(doc.pageSize).toBe('A4');
    expect(JSON.stringify(doc.content)).toContain('Asha Verma');
  });
});
