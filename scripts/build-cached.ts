// `npm run build`, unless nothing it reads has changed since the last build that succeeded here.
// `npm test` builds through this: CI runs the whole suite twice on the same checkout (the embedded
// database, then PostgreSQL), and the second build would make the same files again.
//
// What counts as the build's input: every file git tracks or would track (not ignored), except the
// tests, the documentation and CI's own script, by content; the Node version; and the VITE_*
// environment. The digest of the last successful build is kept in node_modules/.cache/eddy/ (never
// committed, gone with a fresh install). Outside a git checkout it always builds. `--force` too.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'node_modules', '.cache', 'eddy', 'build-inputs.sha256');
/** What the build makes; a missing one means building again whatever the digest says. */
const OUTPUTS = ['dist/index.html', 'dist/sw.js', 'build/server/main.js'];

/** Not read by the build: tests, documentation, CI. */
export function isBuildInput(file: string): boolean {
  if (file.startsWith('tests/') || file.startsWith('docs/') || file.startsWith('.ci/') || file.startsWith('.github/')) return false;
  if (/\.test\.tsx?$/.test(file) || file.endsWith('.md')) return false;
  return true;
}

/** The digest of the build's inputs, or undefined outside a git checkout. */
export async function buildInputsDigest(dir = root): Promise<string | undefined> {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  const files = [...new Set(listed.stdout.split('\0').filter((f) => f !== '' && isBuildInput(f)))].sort();
  const hash = createHash('sha256');
  hash.update(`node ${process.version}\n`);
  for (const [k, v] of Object.entries(process.env).filter(([k]) => k.startsWith('VITE_')).sort(([a], [b]) => a.localeCompare(b))) hash.update(`env ${k}=${v}\n`);
  for (const file of files) {
    const full = path.join(dir, file);
    // A file deleted but not yet staged is listed by git and gone: its absence is part of the input.
    const content = existsSync(full) ? await readFile(full) : Buffer.from('(deleted)');
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

if (import.meta.main) {
  const force = process.argv.includes('--force');
  const digest = await buildInputsDigest();
  const last = existsSync(stampFile) ? (await readFile(stampFile, 'utf8')).trim() : undefined;
  const outputsThere = OUTPUTS.every((f) => existsSync(path.join(root, f)));
  if (!force && digest !== undefined && digest === last && outputsThere) {
    process.stdout.write(`build: nothing the build reads changed since the last build (inputs ${digest.slice(0, 12)}), dist/ and build/ kept\n`);
  } else {
    const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
    if (digest !== undefined) {
      await mkdir(path.dirname(stampFile), { recursive: true });
      await writeFile(stampFile, `${digest}\n`);
    }
  }
}
