// Arabic and Hindi in the PDF: the word order of right-to-left lines (pdf-bidi.ts), the fonts by
// script and the mirrored page (pdf-localize.ts), and real PDFs read back with poppler: the script
// fonts are embedded and the translated words come out of pdftotext.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { loadFontFromPackages } from './fonts-node.ts';
import type { Translate } from './labels.ts';
import { bidiClass, reorderLine, RTL_MARK, swapOuterBrackets, visualOrder, type LineLike } from './pdf-bidi.ts';
import { scriptRuns } from './pdf-localize.ts';
import { renderReportPdf, reportDocument } from './pdf.ts';
import { fixtureInput } from './testing/fixture.ts';
import { pdfPages, pdfText, pdfToPngs, writeTemp } from './testing/pdf-tools.ts';

const squash = (s: string) => s.replace(/[ \t]+/g, ' ');
const translating =
  (words: Record<string, string>): Translate =>
  (d, values) =>
    (words[d.id] ?? d.message ?? d.id).replace(/\{(\w+)\}/g, (_, k: string) => String(values?.[k] ?? ''));

describe('word order of a line', () => {
  it('classifies words as right to left, left to right (numbers too) or neutral', () => {
    expect(['تقرير ', 'Report ', '12 ', '– ', '(العشاء،', 'मधुमेह', '14/03/2026', '23/11/2026،'].map(bidiClass)).toEqual([
      'R',
      'L',
      'EN',
      'N',
      'R',
      'L',
      'EN',
      'EN',
    ]);
  });

  it('reverses right-to-left words and keeps left-to-right islands in their order', () => {
    // "الجرعة Glimepiride 2 mg يوميا" in an Arabic paragraph: the Latin island reads left to right.
    expect(visualOrder(['R', 'L', 'EN', 'L', 'R'], true)).toEqual([4, 1, 2, 3, 0]);
    // "إلى 14/03/2026 (14 يومًا)": two numbers, each left to right, in right-to-left order.
    expect(visualOrder(['R', 'EN', 'EN', 'R'], true)).toEqual([3, 2, 1, 0]);
    // "الجرعة 2 mg": as browsers show it, the number after Arabic text is not part of the Latin word.
    expect(visualOrder(['R', 'EN', 'L'], true)).toEqual([2, 1, 0]);
    // An Arabic name of two words in an English sentence.
    expect(visualOrder(['L', 'R', 'R', 'L'], false)).toEqual([0, 2, 1, 3]);
    // A neutral between Arabic words is Arabic; between Arabic and Latin it takes the paragraph's.
    expect(visualOrder(['R', 'N', 'R'], true)).toEqual([2, 1, 0]);
    expect(visualOrder(['L', 'N', 'R'], false)).toEqual([0, 1, 2]);
    expect(visualOrder(['L', 'L'], false)).toEqual([0, 1]);
  });

  it('gives each word its x: right-to-left words from the right, spaces between', () => {
    // Widths include the trailing space (2); an Arabic word's space is drawn at its left.
    const line: LineLike = {
      inlines: [
        { text: 'أول ', x: 0, width: 12, trailingCut: 2, [RTL_MARK]: true },
        { text: 'ثاني ', x: 12, width: 22, trailingCut: 2, [RTL_MARK]: true },
        { text: 'ثالث', x: 34, width: 8, trailingCut: 0, [RTL_MARK]: true },
      ],
    };
    reorderLine(line);
    // Visual: ثالث (0–8), space, ثاني (10–30), space, أول (32–42); drawn 2 further left.
    expect(line.inlines.map((i) => i.x)).toEqual([30, 8, 0]);
    // An Arabic word's brackets are swapped once (fontkit reverses its glyphs, but not their shapes).
    const brackets: LineLike = { inlines: [{ text: '(العشاء) ', x: 0, width: 20, trailingCut: 2, [RTL_MARK]: true }] };
    reorderLine(brackets);
    reorderLine(brackets);
    expect(brackets.inlines[0]?.text).toBe(')العشاء( ');
    expect(['(14 ', '2026)', '(mg/dL)', '20:30'].map(swapOuterBrackets)).toEqual(['14) ', '(2026', '(mg/dL)', '20:30']);
    // Across a Latin island, the space between the island and the next Arabic word is kept.
    const island: LineLike = {
      inlines: [
        { text: 'ووحدة ', x: 0, width: 12, trailingCut: 2, [RTL_MARK]: true },
        { text: 'mg/', x: 0, width: 6, trailingCut: 0, [RTL_MARK]: true },
        { text: 'dL ', x: 0, width: 8, trailingCut: 2, [RTL_MARK]: true },
        { text: 'في', x: 0, width: 4, trailingCut: 0, [RTL_MARK]: true },
      ],
    };
    reorderLine(island);
    // Visual: في 0–4, space, mg/ 6–12, dL 12–18, space, ووحدة 20–30 (drawn from 18).
    expect(island.inlines.map((i) => i.x)).toEqual([18, 6, 12, 0]);
    // A full stop after a unit ends the Arabic sentence: it shows at the unit's left, not its right (issue 50).
    const font = { widthOfString: (text: string, size: number) => (text.length * size) / 2 };
    const stop: LineLike = {
      inlines: [
        { text: 'المتوسط ', x: 0, width: 16, trailingCut: 2, [RTL_MARK]: true },
        { text: '154 ', x: 0, width: 8, trailingCut: 2, [RTL_MARK]: true },
        { text: 'mg/', x: 0, width: 6, trailingCut: 0, [RTL_MARK]: true, font, fontSize: 2 },
        { text: 'dL.', x: 0, width: 6, trailingCut: 0, [RTL_MARK]: true, font, fontSize: 2 },
      ],
    };
    reorderLine(stop);
    reorderLine(stop);
    expect(stop.inlines.map((i) => i.text)).toEqual(['المتوسط ', '154 ', '.mg/', 'dL']);
    expect(stop.inlines.map((i) => i.width)).toEqual([16, 8, 7, 5]);
    // Visual: .mg/ 0–7, dL 7–12, space, 154 14–20, space, المتوسط 22–36 (drawn from 20).
    expect(stop.inlines.map((i) => i.x)).toEqual([20, 14, 0, 7]);
    const alone: LineLike = {
      inlines: [
        { text: 'في ', x: 0, width: 6, trailingCut: 2, [RTL_MARK]: true },
        { text: '(2026).', x: 0, width: 12, trailingCut: 0, [RTL_MARK]: true },
      ],
    };
    reorderLine(alone);
    reorderLine(alone);
    expect(alone.inlines[1]?.text).toBe('.(2026)');
    // Inside a left-to-right island, or with no font to measure, nothing moves.
    const inside: LineLike = {
      inlines: [
        { text: 'mg/dL. ', x: 0, width: 12, trailingCut: 2, [RTL_MARK]: true },
        { text: 'Metformin', x: 0, width: 12, trailingCut: 0, [RTL_MARK]: true },
      ],
    };
    reorderLine(inside);
    expect(inside.inlines.map((i) => i.text)).toEqual(['mg/dL. ', 'Metformin']);
    const english: LineLike = {
      inlines: [
        { text: 'Hello ', x: 0, width: 10, trailingCut: 2 },
        { text: 'world', x: 10, width: 10 },
      ],
    };
    reorderLine(english);
    expect(english.inlines.map((i) => i.x)).toEqual([0, 10]);
  });
});

describe('fonts by script', () => {
  it('splits text where the script changes; spaces, digits and punctuation stay in their run', () => {
    expect(scriptRuns('Report')).toEqual([{ text: 'Report', font: null }]);
    expect(scriptRuns('(العشاء، 20:30) Metformin')).toEqual([
      { text: '(العشاء، 20:30) ', font: 'NotoSansArabic' },
      { text: 'Metformin', font: null },
    ]);
    expect(scriptRuns('Asha: रक्त शर्करा 7.5')).toEqual([
      { text: 'Asha: ', font: null },
      { text: 'रक्त शर्करा 7.5', font: 'NotoSansDevanagari' },
    ]);
  });

  it('mirrors an Arabic document but not its charts, and leaves an English one as it was', () => {
    const model = buildReport(fixtureInput(), 'mg/dL');
    const en = reportDocument(model, { locale: 'en' });
    const ar = reportDocument(model, { locale: 'ar', translate: translating({ 'report.pdf.title': 'تقرير السكري' }) });
    expect(en.defaultStyle?.alignment).toBeUndefined();
    expect(ar.defaultStyle?.alignment).toBe('right');
    const json = JSON.stringify(ar.content);
    expect(json).toContain('"font":"NotoSansArabic"');
    expect(json).toContain(`"${RTL_MARK}":true`);
    // The title block: the title column comes last (at the right).
    const title = (ar.content as { columns?: { stack?: unknown }[] }[])[0]?.columns;
    expect(title?.at(-1)?.stack).toBeDefined();
  });
});

function fontsOf(file: string): string {
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

describe('the PDF in Hindi and Arabic', () => {
  it('embeds Noto Sans Devanagari and reads back the Hindi labels', async () => {
    const translate = translating({ 'report.pdf.title': 'मधुमेह रिपोर्ट', 'report.pdf.average': 'औसत शुगर', 'report.pdf.pageOf': 'पृष्ठ {page} / {pages}' });
    const file = writeTemp(
      await renderReportPdf(buildReport(fixtureInput(), 'mg/dL'), { locale: 'hi', translate, loadFont: loadFontFromPackages }),
      'report-hi.pdf',
    );
    expect(fontsOf(file)).toMatch(/NotoSansDevanagari-Regular.*Identity-H\s+yes\s+yes/);
    const text = squash(pdfText(file));
    expect(text).toContain('औसत');
    expect(text).toContain(`पृष्ठ 1 / ${pdfPages(file)}`);
    expect(pdfToPngs(file, 70).length).toBe(pdfPages(file));
  }, 60_000);

  it('fails clearly when Arabic text has no font loader', async () => {
    const translate = translating({ 'report.pdf.title': 'تقرير السكري' });
    await expect(renderReportPdf(buildReport(fixtureInput(), 'mg/dL'), { locale: 'ar', translate })).rejects.toThrow(/NotoSansArabic/);
  });

  it('embeds Noto Sans Arabic, and the Arabic words come back in reading order', async () => {
    const translate = translating({ 'report.pdf.title': 'تقرير السكري', 'report.pdf.average': 'متوسط السكر', 'report.pdf.patient': 'المريض' });
    const file = writeTemp(
      await renderReportPdf(buildReport(fixtureInput(), 'mg/dL'), { locale: 'ar', translate, loadFont: loadFontFromPackages }),
      'report-ar.pdf',
    );
    expect(fontsOf(file)).toMatch(/NotoSansArabic-Regular.*Identity-H\s+yes\s+yes/);
    const text = squash(pdfText(file));
    // poppler reads right-to-left lines back in logical order. (A few joined letters share one glyph
    // in Noto Sans Arabic and come back as their twin, e.g. medial ي as ت: test words without them.)
    expect(text).toContain('المريض');
    expect(text).toContain('السكري');
    expect(text).toContain('متوسط السكر');
    expect(pdfToPngs(file, 70).length).toBe(pdfPages(file));
  }, 60_000);
});
