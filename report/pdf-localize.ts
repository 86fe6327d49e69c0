// The report's document made ready for its language's scripts, after it is built and before pdfmake
// lays it out (pdf.ts). Two things pdfmake does not do by itself:
// - Fonts by script: Roboto has no Arabic or Devanagari letters, and pdfmake uses one font per text
//   run. Every text is split into runs and an Arabic or Devanagari run gets a Noto font that has
//   them, whatever the report's language (a Hindi name in an English report prints too).
// - Right to left (Arabic): the page is mirrored (columns and table columns in reverse order, text
//   aligned to the right, margins swapped) and every run carries RTL_MARK, so that pdf-bidi.ts puts
//   the words of each line in right-to-left order. Charts keep their left-to-right geometry (time
//   runs left to right, as on the device); their labels are still written right to left.
import type { Content, DynamicContent, TDocumentDefinitions } from './pdf-doc.ts';
import { RTL_MARK } from './pdf-bidi.ts';

export type ScriptFont = 'NotoSansArabic' | 'NotoSansDevanagari';

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufefc]/;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

/** The font a character needs: a script font, the document's default (null), or whichever is around it (undefined). */
function fontFor(ch: string): ScriptFont | null | undefined {
  if (ARABIC.test(ch)) return 'NotoSansArabic';
  if (DEVANAGARI.test(ch)) return 'NotoSansDevanagari';
  return LETTER_OR_MARK.test(ch) ? null : undefined;
}

/** Splits text where the font must change; spaces, digits and punctuation stay with the run they are in. */
export function scriptRuns(text: string): { text: string; font: ScriptFont | null }[] {
  const runs: { text: string; font: ScriptFont | null }[] = [];
  let pending = ''; // neutral characters before the first letter
  for (const ch of text) {
    const font = fontFor(ch);
    const last = runs.at(-1);
    if (font === undefined) {
      if (last) last.text += ch;
      else pending += ch;
    } else if (last && last.font === font) last.text += ch;
    else {
      runs.push({ text: pending + ch, font });
      pending = '';
    }
  }
  if (pending) runs.push({ text: pending, font: null });
  return runs;
}

/** The script fonts a document's texts need (to load only those). */
export function scriptFontsOf(doc: TDocumentDefinitions): Set<ScriptFont> {
  const fonts = new Set<ScriptFont>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      if (ARABIC.test(v)) fonts.add('NotoSansArabic');
      if (DEVANAGARI.test(v)) fonts.add('NotoSansDevanagari');
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(doc.content);
  visit(doc.info);
  for (const part of [doc.header, doc.footer]) if (typeof part === 'function') visit(part(2, 2, { width: 595.28, height: 841.89, orientation: 'portrait' }));
  return fonts;
}

/** Nodes that keep their left-to-right geometry in a right-to-left document (the charts). */
const keepsGeometry = new WeakSet<object>();
export function leftToRightGeometry<T extends object>(node: T): T {
  keepsGeometry.add(node);
  return node;
}

type TextPart = string | { text?: unknown; [key: string]: unknown };

/**
 * Bidi controls (LRM, RLM, ALM, embeddings, isolates): Intl puts them in Arabic numbers and dates
 * ("6.9‎%", "01‏/03‏/2026") for screens' bidi algorithm. No font draws them (they print as boxes),
 * and pdf-bidi.ts orders whole words, so they are dropped.
 */
const BIDI_CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

function textRuns(text: unknown, rtl: boolean): unknown {
  if (typeof text === 'number') return textRuns(String(text), rtl);
  if (typeof text === 'string') {
    const runs = scriptRuns(text.replace(BIDI_CONTROLS, '')).flatMap((r) => {
      const font = r.font ? { font: r.font } : {};
      if (!rtl) return [{ text: r.text, ...font }];
      // Right to left: one item per word (with its spaces) that pdfmake does not break further, so
      // every inline pdf-bidi.ts orders is one word ("181–250" and "58 / Female" would otherwise
      // become inlines of mixed direction drawn left to right as a whole).
      return (r.text.match(/\s*\S+\s*|\s+/g) ?? []).map((word) => ({ text: word, ...font, noWrap: true, [RTL_MARK]: true }));
    });
    if (runs.length === 0) return '';
    // A plain string stays one: nothing to change for it.
    return !rtl && runs.length === 1 && !runs[0]?.font ? (runs[0]?.text ?? '') : runs;
  }
  if (Array.isArray(text)) {
    return (text as TextPart[]).flatMap((part) => {
      if (typeof part === 'string' || typeof part === 'number') return textRuns(part, rtl) as TextPart[] | string;
      const inner = textRuns(part.text, rtl);
      return Array.isArray(inner) ? (inner as Record<string, unknown>[]).map((r) => ({ ...part, ...r })) : [{ ...part, text: inner }];
    });
  }
  return text;
}

const flip = (alignment: unknown) => (alignment === 'left' ? 'right' : alignment === 'right' ? 'left' : alignment);

function localize(node: unknown, rtl: boolean, mirror: boolean): unknown {
  if (typeof node === 'string' || typeof node === 'number') {
    const text = textRuns(node, rtl);
    return typeof text === 'string' ? text : { text };
  }
  if (Array.isArray(node)) return node.map((n) => localize(n, rtl, mirror));
  if (!node || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  const m = mirror && !keepsGeometry.has(src);
  const out: Record<string, unknown> = { ...src };
  if ('text' in src) out['text'] = textRuns(src['text'], rtl);
  if (m && 'alignment' in src) out['alignment'] = flip(src['alignment']);
  if (m && Array.isArray(src['margin']) && src['margin'].length === 4) {
    const [l, t, r, b] = src['margin'] as number[];
    out['margin'] = [r, t, l, b];
  }
  if (Array.isArray(src['stack'])) out['stack'] = localize(src['stack'], rtl, m);
  if (Array.isArray(src['columns'])) {
    const columns = localize(src['columns'], rtl, m) as unknown[];
    out['columns'] = m ? columns.reverse() : columns;
  }
  const table = src['table'] as { body?: unknown[][]; widths?: unknown[] } | undefined;
  if (table && Array.isArray(table.body)) {
    const body = table.body.map((row) => {
      const cells = localize(row, rtl, m) as unknown[];
      return m ? cells.reverse() : cells;
    });
    out['table'] = { ...table, body, ...(m && Array.isArray(table.widths) ? { widths: [...table.widths].reverse() } : {}) };
  }
  return out;
}

/**
 * The document with script fonts on its runs and, for a right-to-left language, mirrored (see the
 * top of this file). Header and footer functions are wrapped so what they return is treated alike.
 */
export function localizeDocument(doc: TDocumentDefinitions, { rtl }: { rtl: boolean }): TDocumentDefinitions {
  const wrap = (part: DynamicContent | Content | undefined) =>
    typeof part === 'function'
      ? (...args: Parameters<DynamicContent>) => localize(part(...args), rtl, rtl) as Content
      : part && (localize(part, rtl, rtl) as Content);
  const out: TDocumentDefinitions = { ...doc, content: localize(doc.content, rtl, rtl) as Content };
  const header = wrap(doc.header);
  const footer = wrap(doc.footer);
  if (header) out.header = header;
  if (footer) out.footer = footer;
  if (rtl) out.defaultStyle = { ...doc.defaultStyle, alignment: 'right' };
  return out;
}
