// Poppler's command-line tools for the PDF proofs: text as a reader would copy it, page count,
// embedded raster images (there must be none: the charts are vector), and page renders to look at.
// CI installs poppler-utils (.ci/run); tests fail loudly without it rather than skip.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function writeTemp(bytes: Uint8Array, name = 'report.pdf'): string {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-report-'));
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** The text of a PDF in reading order (-layout keeps table rows on one line). */
export const pdfText = (file: string): string => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });

export function pdfPages(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

/** Raster images in the PDF (pdfimages -list prints a two-line header, then one line per image). */
export function pdfImageCount(file: string): number {
  return execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2;
}

/** Renders every page to PNG at `dpi` next to the PDF; returns the PNG paths. */
export function pdfToPngs(file: string, dpi = 60): string[] {
  const prefix = file.replace(/\.pdf$/, '');
  execFileSync('pdftoppm', ['-png', '-r', String(dpi), file, prefix]);
  const dir = file.slice(0, file.lastIndexOf('/'));
  const base = prefix.slice(dir.length + 1);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${base}-`) && f.endsWith('.png'))
    .sort()
    .map((f) => join(dir, f));
}
