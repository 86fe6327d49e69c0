// The two pdfmake modules pdf-engine.ts loads, as what they are to the type check: unknown. The
// engine states the little it uses of them (PdfMake, VirtualFiles) and the document's shape is in
// pdf-doc.ts, so no typings for pdfmake are installed (pdf-doc.ts says why).
declare module 'pdfmake' {
  const pdfmake: unknown;
  export default pdfmake;
}
declare module 'pdfmake/build/vfs_fonts.js' {
  const vfs: unknown;
  export default vfs;
}
