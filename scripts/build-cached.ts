// `npm run build`, unless nothing it reads has changed since the last build that succeeded here.
// `npm test` and `npm start` build through this: CI runs the whole suite twice on the same checkout
// (the embedded database, then PostgreSQL), and a server restarted on a current build should serve
// in seconds, not build the same files again (issue 17).
//
// What counts as the build's input: every file git tracks or would track (not ignored), except the
// tests, the documentation and CI's own script, by content; the Node version; and the VITE_*
// environment. Outside a git checkout (a release copied to a server), every file under the project
// except what installs, builds and runs make (node_modules, dist, build, data, …). The digest of the
// last successful build is kept in node_modules/.cache/eddy/ (never committed, gone with a fresh
// install). `--force` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'node_modules', '.cache', 'eddy', 'build-inputs.sha256');
/** What the build makes; a missing one means building again whatever the digest says. */
const OUTPUTS = ['dist/index.html', 'dist/sw.js', 'build/server/main.js'];

/** Not read by the build: tests, documentation, CI, deployment examples. */
export function isBuildInput(file: string): boolean {
  if (file.startsWith('tests/') || file.startsWith('docs/') || file.startsWith('.ci/') || file.startsWith('.github/') || file.startsWith('deploy/'))
    return false;
  if (/\.test\.tsx?$/.test(file) || file.endsWith('.md')) return false;
  return true;
}

/** Made by installing, building, running or testing: never an input. */
const MADE = new Set(['node_modules', 'dist', 'build', 'data', 'test-results', 'coverage', '.git']);

/** Every file under `dir` (relative, with /) outside what installs, builds and runs make. */
async function filesOutsideGit(dir: string, sub = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!MADE.has(rel)) out.push(...(await filesOutsideGit(dir, rel)));
    } else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** The files the build reads: git's list in a checkout, else the project's files (see the header). */
async function inputFiles(dir: string): Promise<string[]> {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' });
  const inGit = listed.status === 0 && spawnSync('git', ['rev-parse', '--show-prefix'], { cwd: dir, encoding: 'utf8' }).stdout.trim() === '';
  const all = inGit ? listed.stdout.split('\0') : await filesOutsideGit(dir);
  return [...new Set(all.filter((f) => f !== '' && isBuildInput(f)))].sort();
}

/** The digest of the build's inputs. */
export async function buildInputsDigest(dir = root): Promise<string> {
  const files = await inputFiles(dir);
  const hash = createHash('sha256');
  hash.update(`node ${process.version}\n`);
  for (const [k, v] of Object.entries(process.env)
    .filter(([k]) => k.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`env ${k}=${v}\n`);
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
  if (!force && digest === last && outputsThere) {
    process.stdout.write(`build: nothing the build reads changed since the last build (inputs ${digest.slice(0, 12)}), dist/ and build/ kept\n`);
  } else {
    const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
    await mkdir(path.dirname(stampFile), { recursive: true });
    await writeFile(stampFile, `${digest}\n`);
  }
}
