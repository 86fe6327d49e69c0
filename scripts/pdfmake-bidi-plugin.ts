// A Vite plugin for the PDF worker's bundle: pdfmake's browser build is one webpack bundle whose
// classes cannot be reached from outside, so its ElementWriter.alignLine is made to call
// globalThis.__eddyPdfAlignLine (report/pdf-bidi.ts's reorderLine, set by pdf-engine.ts)
// before it aligns a line. Under Node the same hook is installed on the prototype instead.
// The build fails if pdfmake's code no longer has the method: an upgrade must not silently drop
// right-to-left text.
import type { Plugin } from 'vite';

const METHOD = '  alignLine(line) {\n';

export function pdfmakeBidi(): Plugin {
  return {
    name: 'eddy-pdfmake-bidi',
    transform(code, id) {
      if (!/[\\/]pdfmake[\\/]build[\\/]pdfmake(\.min)?\.js$/.test(id)) return null;
      const at = code.indexOf(METHOD);
      if (at < 0 || code.indexOf(METHOD, at + 1) >= 0) throw new Error(`pdfmake-bidi: expected one "alignLine(line) {" in ${id}`);
      const hooked = `${METHOD}    globalThis.__eddyPdfAlignLine?.(line);\n`;
      return { code: `globalThis.__eddyPdfBidi = true;\n${code.slice(0, at)}${hooked}${code.slice(at + METHOD.length)}`, map: null };
    },
  };
}
