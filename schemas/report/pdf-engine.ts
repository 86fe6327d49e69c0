// pdfmake with its bundled Roboto, loaded once, the same way in Node (the server) and in a browser
// Web Worker (the device). `import('pdfmake')` resolves to the Node build (js/index.js) under Node
// and, through package.json's "browser" field, to the browser build when Vite bundles the worker.
// The fonts come from pdfmake's own vfs_fonts.js (base64 TTFs) in both: no file system, no network,
// so the worker works offline from the precache and the server needs no font paths.
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

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
} as const;

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
    const pdfMake = (engine.default ?? engine) as unknown as PdfMake;
    const vfs = (fonts.default ?? fonts) as unknown as VirtualFiles;
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
    return pdfMake;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Renders a document definition to PDF bytes; `onProgress` gets 0–1 while pages are written. */
export async function renderPdf(doc: TDocumentDefinitions, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  const pdfMake = await loadPdfMake();
  pdfMake.setProgressCallback?.(onProgress);
  try {
    const buffer = await pdfMake.createPdf(doc).getBuffer();
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } finally {
    pdfMake.setProgressCallback?.(undefined);
  }
}
