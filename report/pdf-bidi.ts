// Right-to-left text in the PDF. pdfmake breaks a paragraph into lines and lays each line's words out
// left to right; it has no notion of writing direction. fontkit (inside pdfkit) does shape each word
// (Arabic letters join, and an Arabic word's glyphs come out right to left), so what is missing is the
// order of the words on a line. reorderLine() supplies it: the Unicode Bidirectional Algorithm at word
// level (each pdfmake inline is a word with its trailing space), run on every finished line before
// pdfmake aligns it (pdf-engine.ts installs it). Lines without right-to-left words are left alone.

/** Set on the text runs of a document written right to left (pdf-localize.ts). */
export const RTL_MARK = 'eddyRtl';

// Letters of right-to-left scripts: what makes fontkit lay a word out right to left (the Arabic
// comma and other shared punctuation are Common and do not).
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/**
 * A word's bidi class: strong right-to-left (R), strong left-to-right (L: letters of other scripts),
 * a number (EN: digits, no letters; "14/03/2026", "(20:30)") or neutral (N: punctuation only).
 */
export type BidiClass = 'R' | 'L' | 'EN' | 'N';

export function bidiClass(word: string): BidiClass {
  if ([...word].some((c) => RTL_LETTER.test(c) && LETTER.test(c))) return 'R';
  if (LETTER.test(word)) return 'L';
  return DIGIT.test(word) ? 'EN' : 'N';
}

/**
 * The visual order (left to right) of a line's words, as indexes into `classes` (logical order):
 * the Unicode Bidirectional Algorithm at word level. The spaces between words are neutrals of
 * their own. W7: a number after left-to-right text is left to right. N1/N2: a neutral between two
 * of the same direction takes it (numbers count as right to left), else the paragraph's. I1/I2:
 * levels (R 1; L 0 or 2; numbers 2). L2: reverse every run from the highest level down to 1.
 * So in Arabic text "14/03/2026 (14" are two numbers in right-to-left order, while
 * "Glimepiride 2 mg" stays one left-to-right island.
 */
export function visualOrder(classes: readonly BidiClass[], rtlParagraph: boolean): number[] {
  const para = rtlParagraph ? 1 : 0;
  // W7, with the paragraph's own direction before the first strong word.
  let lastStrong: 'L' | 'R' = rtlParagraph ? 'R' : 'L';
  const resolved = classes.map((c) => {
    if (c === 'R' || c === 'L') lastStrong = c;
    return c === 'EN' && lastStrong === 'L' ? 'L' : c;
  });
  // The direction a word shows its neighbours when neutrals are resolved.
  const strong = (c: BidiClass | undefined): 'L' | 'R' | undefined => (c === 'L' ? 'L' : c === 'R' || c === 'EN' ? 'R' : undefined);
  const levelOf = (c: BidiClass): number => (c === 'R' ? 1 : c === 'EN' ? 2 : rtlParagraph ? 2 : 0);
  const neutralLevel = (before: BidiClass | undefined, after: BidiClass | undefined) => {
    const b = strong(before);
    return b !== undefined && b === strong(after) ? (b === 'R' ? 1 : rtlParagraph ? 2 : 0) : para;
  };
  const nearest = (from: number, step: 1 | -1) => {
    for (let i = from; i >= 0 && i < resolved.length; i += step) if (resolved[i] !== 'N') return resolved[i];
    return rtlParagraph ? 'R' : 'L';
  };
  const wordLevels = resolved.map((c, i) => (c === 'N' ? neutralLevel(nearest(i - 1, -1), nearest(i + 1, 1)) : levelOf(c)));
  // Words at even positions, the spaces between them at odd ones.
  const levels: number[] = [];
  wordLevels.forEach((level, i) => {
    if (i > 0) levels.push(neutralLevel(nearest(i - 1, -1), nearest(i, 1)));
    levels.push(level);
  });
  const order = levels.map((_, i) => i);
  for (let level = Math.max(para, ...levels); level >= 1; level--) {
    for (let i = 0; i < order.length;) {
      if ((levels[order[i] ?? 0] ?? 0) < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && (levels[order[j] ?? 0] ?? 0) >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order.filter((i) => i % 2 === 0).map((i) => i / 2);
}

const MIRRORED: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '«': '»', '»': '«', '<': '>', '>': '<' };

const mirror = (s: string) => [...s].map((c) => MIRRORED[c] ?? c).join('');

/** "(14 " → "14) ", "2026)" → "(2026", "(mg/dL)" stays: leading brackets go to the end and trailing ones to the start. */
export function swapOuterBrackets(text: string): string {
  const m = /^([([{«<]*)(.*?)([)\]}»>]*)(\s*)$/su.exec(text);
  if (!m) return text;
  const [, lead = '', core = '', trail = '', spaces = ''] = m;
  return `${mirror(trail)}${core}${mirror(lead)}${spaces}`;
}

/** What reorderLine needs of pdfmake's Line and its inlines (pdfmake/src/Line.js). */
export interface LineLike {
  inlines: {
    text: string;
    x: number;
    width: number;
    trailingCut?: number;
    [RTL_MARK]?: boolean;
    eddyMirrored?: boolean;
    /** pdfkit's font of the inline (pdfmake's TextInlines measures with it), to move a full stop between words. */
    font?: { widthOfString(text: string, size: number, features?: unknown): number };
    fontSize?: number;
    fontFeatures?: unknown;
  }[];
}

/** Sentence punctuation (neutral in bidi) that may end a left-to-right word or number. */
const TRAILING_STOP = /^(.*?\P{P}.*?)([.,:;!?\u060C\u061B\u061F]+)(\s*)$/su;

/**
 * A sentence's punctuation after a unit or a number at the end of its left-to-right island, in a
 * right-to-left paragraph ("… 180 mg/dL."): neutral, between the island and the right-to-left
 * text or the line's end, it takes the paragraph's direction, so it shows at the island's left
 * (its end in reading order), not glued to its right where pdfmake's word keeps it (issue 50: the
 * full stop on the far side of "mg/dL"). Moved to the start of the island's first word, once; the
 * two words' widths are measured again with their font (without one, nothing moves).
 */
function moveTrailingStops(inlines: LineLike['inlines'], joined: (i: number) => boolean, isLtr: (i: number) => boolean): void {
  for (let end = 0; end < inlines.length; end++) {
    const last = inlines[end];
    if (!last || last.eddyMirrored || !isLtr(end) || joined(end)) continue;
    const m = TRAILING_STOP.exec(last.text);
    if (!m) continue;
    const [, core = '', stop = '', spaces = ''] = m;
    let start = end;
    while (start > 0 && joined(start - 1)) start--;
    const first = inlines[start];
    if (!first) continue;
    if (start === end) {
      // Alone: its outer brackets change ends too (reorderLine), inside the stop.
      last.text = `${stop}${swapOuterBrackets(core)}${spaces}`;
      last.eddyMirrored = true;
      continue;
    }
    const width = last.font?.widthOfString(stop, last.fontSize ?? 0, last.fontFeatures);
    if (width === undefined || !Number.isFinite(width)) continue;
    last.text = `${core}${spaces}`;
    last.width -= width;
    first.text = `${stop}${first.text}`;
    first.width += width;
  }
}

/**
 * Puts a finished line's words in visual order by giving each its x (pdfmake then aligns the line
 * as a whole). Each word's visible part is laid out left to right in visual order, a space apart:
 * the widest space logically between two neighbours (at the edge of a left-to-right island inside
 * right-to-left text, the neighbours are not next to each other in logical order). An inline is drawn with its
 * trailing space: after the word for left-to-right text, but before it for a right-to-left word,
 * whose glyphs fontkit has reversed, space included; the x of such a word is moved left by it.
 * fontkit does not mirror brackets in such a word, so "(العشاء)" would print as ")العشاء(": they are
 * swapped here, after pdfmake broke the lines (swapped earlier, a ")" would glue to the word
 * before it in line breaking) and before the text is shaped for drawing; a pair is as wide either way.
 */
export function reorderLine(line: LineLike): void {
  const inlines = line.inlines;
  if (inlines.length === 0) return;
  const rtlParagraph = inlines.some((i) => i[RTL_MARK] === true);
  const classes = inlines.map((i) => bidiClass(i.text));
  if (!rtlParagraph && !classes.includes('R')) return;
  const space = (i: number) => Math.max(0, inlines[i]?.trailingCut ?? 0);
  const visual = visualOrder(classes, rtlParagraph);
  // A word is alone when it shares no left-to-right island with a neighbour: two words are one
  // island when both are left to right, a number counting as such only after left-to-right text (W7).
  let lastStrong: BidiClass = rtlParagraph ? 'R' : 'L';
  const resolved = classes.map((c) => {
    if (c === 'R' || c === 'L') lastStrong = c;
    return c === 'EN' && lastStrong === 'L' ? 'L' : c;
  });
  const joined = (i: number) => resolved[i] === 'L' && resolved[i + 1] === 'L';
  const alone = (i: number) => !joined(i - 1) && !joined(i);
  if (rtlParagraph) moveTrailingStops(inlines, joined, (i) => classes[i] === 'L' || classes[i] === 'EN');
  let x = 0;
  visual.forEach((index, k) => {
    const inline = inlines[index];
    if (!inline) return;
    const prev = visual[k - 1];
    if (prev !== undefined) {
      let gap = 0;
      for (let i = Math.min(prev, index); i < Math.max(prev, index); i++) gap = Math.max(gap, space(i));
      x += gap;
    }
    // Once: a line pdfmake lays out again (a relayout) keeps its inline objects.
    if (classes[index] === 'R') {
      inline.x = x - space(index);
      if (!inline.eddyMirrored) inline.text = inline.text.replace(/[()[\]{}«»<>]/g, (c) => MIRRORED[c] ?? c);
      inline.eddyMirrored = true;
    } else {
      inline.x = x;
      // A number or word standing alone in right-to-left text: its outer brackets belong to the
      // text around it ("(14 يومًا)" shows "14)" at the number), so they change ends, mirrored.
      if (rtlParagraph && !inline.eddyMirrored && alone(index)) inline.text = swapOuterBrackets(inline.text);
      inline.eddyMirrored = true;
    }
    x += inline.width - space(index);
  });
}
