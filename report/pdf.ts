// The report as a PDF, made by the same code on the device (in a Web Worker, offline) and on the
// server (POST /api/users/report, /api/admin/report). reportDocument() is the pure pdfmake document;
// renderReportPdf() turns it into bytes with pdfmake (pdf-engine.ts): Roboto, plus Noto Sans Arabic
// or Devanagari for text in those scripts, and mirrored right to left for Arabic (pdf-localize.ts).
import type { Content, TableCell, TDocumentDefinitions } from './pdf-doc.ts';
import { GLUCOSE_TYPES } from '../schemas/glucose.ts';
import { englishTranslate, genderText, PDF_LABELS, TYPE_LABELS, type Translate } from './labels.ts';
import { timeOfDayChart, trendChart, typeSwatch } from './pdf-charts.ts';
import { renderPdf, type FontLoader } from './pdf-engine.ts';
import { makeFmt, type Fmt } from './format.ts';
import { localizeDocument } from './pdf-localize.ts';
import { aboutSection, appointmentsSection, checksSection, labsSection, logbookSection, lowsSection, medicinesSection, symptomsSection } from './pdf-lists.ts';
import { a1cBlock, comparison, distribution, heading, keyNumbers, statisticsTable } from './pdf-summary.ts';
import { CONSENSUS_EDGES } from '../schemas/judgement.ts';
import { MIN_PROFILE_READINGS } from './statistics.ts';
import type { ReportModel } from './types.ts';

const L = PDF_LABELS;
const PAGE = { width: 595.28, height: 841.89 }; // A4 in points
const MARGIN = { side: 36, top: 50, bottom: 44 };
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN.side;

export interface PdfOptions {
  /** BCP 47 locale for numbers and dates (the patient's language). */
  locale: string;
  /** i18n._ on the device, the server's catalog on the server; English when left out. */
  translate?: Translate;
  /** 0–1 while pdfmake writes pages (for a progress bar). */
  onProgress?: (fraction: number) => void;
  /** Reads the Arabic and Devanagari fonts when the report has such text (pdf-engine.ts). */
  loadFont?: FontLoader;
}

/** Languages written right to left: their report is mirrored. */
const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur']);
export const isRtlLocale = (locale: string): boolean => RTL_LANGUAGES.has(locale.toLowerCase().split(/[-_]/)[0] ?? '');

/** "58 / Female", in the report's language; empty when neither is recorded. */
function ageGenderText(model: ReportModel, f: Fmt): string {
  const { age, gender } = model.input.patient;
  const worded = genderText(gender?.trim() ?? '', f.t);
  return [age === null || age === undefined ? '' : f.num(age, 0), worded].filter((v) => v !== '').join(' / ');
}

/** "Asha Verma · Hospital number H-2040 · 58 / Female": the page header's identifiers. */
function patientLine(model: ReportModel, f: Fmt): string {
  const p = model.input.patient;
  const ageGender = ageGenderText(model, f);
  return [p.name, `${f.t(L.hospNo)} ${p.hospNo}`, ...(ageGender ? [ageGender] : [])].join(' · ');
}

function titleBlock(model: ReportModel, f: Fmt): Content {
  const p = model.input.patient;
  const ageGender = ageGenderText(model, f);
  const rows: [string, string][] = [
    [f.t(L.patient), p.name],
    [f.t(L.hospNo), p.hospNo],
    ...(p.hospital ? [[f.t(L.hospital), p.hospital] satisfies [string, string]] : []),
    ...(ageGender ? [[f.t(L.ageGender), ageGender] satisfies [string, string]] : []),
    [f.t(L.period), f.t(L.periodValue, { from: f.date(model.input.range.from), to: f.date(model.input.range.to), days: model.days })],
    // Every date and time below is on this clock, which need not be the reader's.
    [f.t(L.timeZone), p.timeZone],
    [f.t(L.generated), f.t(L.generatedValue, { when: f.dateTime(model.input.generatedAt), timeZone: p.timeZone })],
    [f.t(L.unit), f.unitName],
  ];
  return {
    columns: [
      {
        width: 190,
        stack: [
          { text: f.t(L.title), style: 'h1' },
          { text: f.t(L.appName), style: 'small' },
        ],
      },
      {
        width: '*',
        table: {
          widths: [90, '*'],
          body: rows.map(([k, v]): TableCell[] => [
            { text: k, style: 'small', margin: [0, 1, 0, 0] },
            { text: v, bold: k === f.t(L.patient) || k === f.t(L.hospNo) },
          ]),
        },
        layout: 'noBorders',
      },
    ],
    margin: [0, 0, 0, 6],
  };
}

function typeLegend(f: Fmt): Content {
  return {
    columns: GLUCOSE_TYPES.map((t) => ({
      width: 'auto',
      columns: [
        { width: 10, ...typeSwatch(t) },
        { width: 'auto', text: f.t(TYPE_LABELS[t]), fontSize: 8 },
      ],
      columnGap: 3,
    })),
    columnGap: 16,
    margin: [30, 2, 0, 0],
  };
}

function charts(model: ReportModel, f: Fmt): Content[] {
  if (model.readings.length === 0) return [heading(f.t(L.trend)), { text: f.t(L.noReadings), style: 'note' }];
  const o = { unit: f.unit, locale: f.locale, width: CONTENT_WIDTH };
  const note = f.t(L.trendNote, {
    low: f.edge(CONSENSUS_EDGES[f.unit].low),
    high: f.edge(CONSENSUS_EDGES[f.unit].high),
    veryLow: f.edge(CONSENSUS_EDGES[f.unit].veryLow),
    veryHigh: f.edge(CONSENSUS_EDGES[f.unit].veryHigh),
    unit: f.unitName,
  });
  // Each chart with its title, legend and note is one block that never splits over a page.
  return [
    { stack: [heading(f.t(L.trend)), trendChart(model, { ...o, height: 190 }), typeLegend(f), { text: note, style: 'note' }], unbreakable: true },
    {
      stack: [
        heading(f.t(L.timeOfDay)),
        timeOfDayChart(model, { ...o, height: 170 }),
        typeLegend(f),
        { text: f.t(L.timeOfDayNote, { min: MIN_PROFILE_READINGS }), style: 'note' },
      ],
      unbreakable: true,
    },
  ];
}

/** The pdfmake document of a report. Pure: no fonts or engine needed. */
export function reportDocument(model: ReportModel, options: PdfOptions): TDocumentDefinitions {
  return localizeDocument(layout(model, options), { rtl: isRtlLocale(options.locale) });
}

function layout(model: ReportModel, { locale, translate = englishTranslate }: PdfOptions): TDocumentDefinitions {
  // Every figure in the report's own unit: the one its bands and targets were judged in.
  const f = makeFmt(locale, model.unit, model.input.patient.timeZone, translate);
  const p = model.input.patient;
  const range = `${f.date(model.input.range.from)} – ${f.date(model.input.range.to)}`;
  return {
    pageSize: 'A4',
    pageMargins: [MARGIN.side, MARGIN.top, MARGIN.side, MARGIN.bottom],
    info: {
      title: `${f.t(L.title)} – ${p.name} (${p.hospNo}) – ${range}`,
      author: f.t(L.appName),
      subject: f.t(L.title),
      creator: f.t(L.appName),
      producer: f.t(L.appName),
    },
    defaultStyle: { font: 'Roboto', fontSize: 9, lineHeight: 1.15, color: '#222222' },
    styles: {
      h1: { fontSize: 18, bold: true, color: '#17467a' },
      h2: { fontSize: 11, bold: true, color: '#17467a', margin: [0, 10, 0, 4] },
      big: { fontSize: 15, bold: true },
      small: { fontSize: 7.5, color: '#555555' },
      note: { fontSize: 7.5, italics: true, color: '#555555', margin: [0, 3, 0, 0] },
      th: { bold: true, fontSize: 8, color: '#333333' },
    },
    // Two identifiers on every page, the first included (issue 16): a page that comes loose from
    // the printout still says whose data it holds.
    header: () => ({
      columns: [
        { text: patientLine(model, f), bold: true },
        { text: range, alignment: 'right', width: 'auto' },
      ],
      columnGap: 12,
      fontSize: 8,
      color: '#555555',
      margin: [MARGIN.side, 22, MARGIN.side, 0],
    }),
    footer: (page: number, pages: number) => ({
      columns: [
        { text: `${f.t(L.appName)} · ${f.t(L.generated)} ${f.dateTime(model.input.generatedAt)}` },
        { text: f.t(L.pageOf, { page, pages }), alignment: 'right' },
      ],
      fontSize: 7.5,
      color: '#555555',
      margin: [MARGIN.side, 14, MARGIN.side, 0],
    }),
    // A section title never ends a page: it moves over with what follows it.
    pageBreakBefore: (node, following) => node.headlineLevel === 1 && following.getFollowingNodesOnPage().length === 0,
    content: [
      titleBlock(model, f),
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: CONTENT_WIDTH, y2: 0, lineWidth: 1, lineColor: '#17467a' }] },
      heading(f.t(L.summary)),
      keyNumbers(model, f),
      a1cBlock(model, f),
      distribution(model, f, CONTENT_WIDTH),
      statisticsTable(model, f),
      ...charts(model, f),
      comparison(model, f),
      lowsSection(model, f),
      checksSection(model, f),
      medicinesSection(model, f),
      symptomsSection(model, f),
      labsSection(model, f),
      appointmentsSection(model, f),
      logbookSection(model, f),
      aboutSection(model, f),
    ],
  };
}

/** The report as PDF bytes (Node and browser Web Worker alike). */
export function renderReportPdf(model: ReportModel, options: PdfOptions): Promise<Uint8Array> {
  return renderPdf(reportDocument(model, options), { onProgress: options.onProgress, loadFont: options.loadFont });
}
