// pdfmake with its bundled Roboto, loaded once, the same way in Node (the server) and in a browser
// Web Worker (the device). `import('pdfmake')` resolves to the Node build (js/index.js) under Node
// and, through package.json's "browser" field, to the browser build when Vite bundles the worker.
// Roboto comes from pdfmake's own vfs_fonts.js (base64 TTFs) in both: no file system, no network.
// The Arabic and Devanagari fonts (Noto Sans, from @expo-google-fonts) are loaded only for a
// document that has such text, through a loader each side provides (files on the server, precached
// assets in the worker: see FontLoader).
//
// Right-to-left lines: pdf-bidi.ts's reorderLine runs on every line before pdfmake aligns it. Under
// Node it wraps ElementWriter.prototype.alignLine of pdfmake's Node build; the browser build is one
// webpack bundle whose classes cannot be reached, so scripts/pdfmake-bidi-plugin.ts makes its
// alignLine call globalThis.__eddyPdfAlignLine when Vite bundles it.
import type { TDocumentDefinitions } from './pdf-doc.ts';
import { reorderLine, type LineLike } from './pdf-bidi.ts';
import { scriptFontsOf, type ScriptFont } from './pdf-localize.ts';

type VirtualFiles = Record<string, string>;

/** What the report uses of pdfmake; the Node and browser builds differ in how fonts get in. */
interface PdfMake {
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Uint8Array> };
  setFonts(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>): void;
  setProgressCallback?(callback: ((progress: number) => void) | undefined): void;
  /** Browser build: the documented way to add the vfs fonts. */
  addVirtualFileSystem?(vfs: VirtualFiles): void;
  /** Node build: its virtual file system, read before the disk when a font is looked up. */
  virtualfs?: { writeFileSync(name: string, content: Uint8Array): void };
  /** Node build: no font, image or URL is read from outside the document. */
  setUrlAccessPolicy?(callback: (url: string) => boolean): void;
  setLocalAccessPolicy?(callback: (path: string) => boolean): void;
}

export const FONTS = {
  Roboto: { normal: 'Roboto-Regular.ttf', bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' },
  // Neither script has italics: notes in italics print upright.
  NotoSansArabic: {
    normal: 'NotoSansArabic-Regular.ttf',
    bold: 'NotoSansArabic-Bold.ttf',
    italics: 'NotoSansArabic-Regular.ttf',
    bolditalics: 'NotoSansArabic-Bold.ttf',
  },
  NotoSansDevanagari: {
    normal: 'NotoSansDevanagari-Regular.ttf',
    bold: 'NotoSansDevanagari-Bold.ttf',
    italics: 'NotoSansDevanagari-Regular.ttf',
    bolditalics: 'NotoSansDevanagari-Bold.ttf',
  },
} as const;

/** The TTF files of the script fonts. */
export type ScriptFontFile = (typeof FONTS)[ScriptFont]['normal' | 'bold'];
/** Reads a script font's TTF: from node_modules on the server (fonts-node.ts), an asset URL in the worker. */
export type FontLoader = (file: ScriptFontFile) => Promise<Uint8Array>;

declare global {
  // Called by the browser build's alignLine (scripts/pdfmake-bidi-plugin.ts); the flag says it was patched.
  var __eddyPdfAlignLine: ((line: LineLike) => void) | undefined;
  var __eddyPdfBidi: boolean | undefined;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

let loading: Promise<PdfMake> | null = null;

export function loadPdfMake(): Promise<PdfMake> {
  loading ??= (async () => {
    const [engine, fonts] = await Promise.all([import('pdfmake'), import('pdfmake/build/vfs_fonts.js')]);
    // Both are CommonJS; their module.exports arrive as `default`. The typings describe the browser
    // API only, so the shape both builds share is stated once above.
    const pdfMake = (engine.default ?? engine) as PdfMake;
    const vfs = (fonts.default ?? fonts) as VirtualFiles;
    const files = Object.values(FONTS.Roboto);
    if (pdfMake.addVirtualFileSystem) pdfMake.addVirtualFileSystem(vfs);
    else {
      for (const name of files) {
        const data = vfs[name];
        if (!data) throw new Error(`pdfmake's vfs_fonts.js has no ${name}`);
        pdfMake.virtualfs?.writeFileSync(name, base64ToBytes(data));
      }
    }
    pdfMake.setUrlAccessPolicy?.(() => false);
    pdfMake.setLocalAccessPolicy?.(() => false);
    pdfMake.setFonts({ Roboto: { ...FONTS.Roboto } });
    globalThis.__eddyPdfAlignLine = reorderLine;
    if (!pdfMake.addVirtualFileSystem) await patchNodeAlignLine();
    return pdfMake;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

interface AlignLinePrototype {
  alignLine(this: unknown, line: LineLike): void;
  eddyBidi?: true;
}

/** Node build: every line goes through reorderLine before pdfmake aligns it (see the top). */
async function patchNodeAlignLine(): Promise<void> {
  // Not a literal: Vite must not bundle pdfmake's Node build into the worker for this branch.
  const specifier = 'pdfmake/js/ElementWriter.js';
  // A CommonJS module built by Babel: plain Node hands back `{ default: exports }`, where the class
  // is `exports.default`; bundlers and Vitest unwrap it once already. Take whichever holds it.
  type Writer = { prototype?: AlignLinePrototype; default?: Writer };
  const mod = (await import(/* @vite-ignore */ specifier)) as Writer;
  const candidates = [mod.default?.default, mod.default, mod];
  const proto = candidates.find((c) => typeof c?.prototype?.alignLine === 'function')?.prototype;
  if (!proto) throw new Error('pdfmake changed: ElementWriter.prototype.alignLine not found (right-to-left line order needs it)');
  if (proto.eddyBidi) return;
  const align = proto.alignLine;
  proto.alignLine = function alignLine(line) {
    reorderLine(line);
    align.call(this, line);
  };
  proto.eddyBidi = true;
}

const loadedScriptFonts = new Map<ScriptFont, Promise<void>>();

/** Adds a script font's files to pdfmake's virtual file system, once per process or worker. */
function loadScriptFont(pdfMake: PdfMake, font: ScriptFont, loadFont: FontLoader | undefined): Promise<void> {
  let loaded = loadedScriptFonts.get(font);
  if (!loaded) {
    loaded = (async () => {
      if (!loadFont) throw new Error(`the report has text that needs ${font}, and no font loader was given`);
      const files = [...new Set([FONTS[font].normal, FONTS[font].bold])];
      const bytes = await Promise.all(files.map((f) => loadFont(f)));
      files.forEach((name, i) => {
        const data = bytes[i] ?? new Uint8Array();
        if (pdfMake.addVirtualFileSystem) pdfMake.addVirtualFileSystem({ [name]: bytesToBase64(data) });
        else pdfMake.virtualfs?.writeFileSync(name, data);
      });
    })();
    loadedScriptFonts.set(font, loaded);
    loaded.catch(() => loadedScriptFonts.delete(font));
  }
  return loaded;
}

export interface RenderOptions {
  /** 0–1 while pages are written. */
  onProgress?: ((fraction: number) => void) | undefined;
  /** Needed when the document has Arabic or Devanagari text. */
  loadFont?: FontLoader | undefined;
}

/** Renders a document definition to PDF bytes. */
export async function renderPdf(doc: TDocumentDefinitions, { onProgress, loadFont }: RenderOptions = {}): Promise<Uint8Array> {
  const pdfMake = await loadPdfMake();
  const scripts = scriptFontsOf(doc);
  await Promise.all([...scripts].map((font) => loadScriptFont(pdfMake, font, loadFont)));
  if (scripts.has('NotoSansArabic') && pdfMake.addVirtualFileSystem && !globalThis.__eddyPdfBidi) {
    throw new Error('pdfmake was bundled without its right-to-left patch (scripts/pdfmake-bidi-plugin.ts)');
  }
  const fonts: Record<string, (typeof FONTS)[keyof typeof FONTS]> = { Roboto: FONTS.Roboto };
  for (const font of scripts) fonts[font] = FONTS[font];
  pdfMake.setFonts(Object.fromEntries(Object.entries(fonts).map(([k, v]) => [k, { ...v }])));
  pdfMake.setProgressCallback?.(onProgress);
  try {
    const buffer = await pdfMake.createPdf(doc).getBuffer();
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } finally {
    pdfMake.setProgressCallback?.(undefined);
  }
}
