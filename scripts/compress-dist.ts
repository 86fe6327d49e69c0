// Writes brotli (.br) and gzip (.gz) copies beside each text file of the built app (dist/), once at
// build time at the highest levels, so the server sends a ward's slow connection a third of the bytes
// without compressing on every request (server/http/static-files.ts serves them). Runs last in
// `npm run build`, after the service worker is written, so sw.js and index.html get copies too.
//
// Fonts (.ttf) compress well and are sent compressed; formats that are compressed already (PNG,
// WOFF2) and source maps (for developers only) are left as they are. A copy that saves less than a
// tenth is not kept: the original is then sent.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|webmanifest|svg|txt|ttf|xml|ico)$/;
/** Files smaller than this are sent as they are: the saving would not pay for the header. */
export const MIN_BYTES = 1024;
/** A copy is kept only when it is at most this share of the original. */
export const MAX_RATIO = 0.9;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export interface CompressReport {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/** Compresses every eligible file under dir; stale copies of a previous build are replaced. */
export async function compressDist(dir: string): Promise<CompressReport> {
  const report: CompressReport = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const all: string[] = [];
  for await (const f of files(dir)) all.push(f);
  // Copies left from an earlier build into the same folder would be served for a changed file.
  await Promise.all(all.filter((f) => f.endsWith('.br') || f.endsWith('.gz')).map((f) => rm(f)));
  for (const file of all) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    const data = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
      gz(data, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length <= data.length * MAX_RATIO) await writeFile(`${file}.br`, br);
    if (gzipped.length <= data.length * MAX_RATIO) await writeFile(`${file}.gz`, gzipped);
    report.files++;
    report.bytes += data.length;
    report.brotliBytes += Math.min(br.length, data.length);
    report.gzipBytes += Math.min(gzipped.length, data.length);
  }
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const r = await compressDist(dist);
  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  process.stdout.write(`dist: ${r.files} files compressed, ${kib(r.bytes)} → ${kib(r.brotliBytes)} brotli, ${kib(r.gzipBytes)} gzip\n`);
}
