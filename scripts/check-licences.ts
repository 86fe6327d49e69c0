// The licence gate of `npm test` (run by `npm run checks`): Eddy is Apache-2.0, and a hospital must be
// able to deploy and change it without copyleft obligations, so every package it runs with (the
// production dependencies, direct or transitive, as npm installs them with --omit=dev) must be under
// a permissive licence, or be listed in licences-allowed.json with its licence and the reason it is
// acceptable. Development tools (tests, the build, linters) are not shipped and not checked.
//
// A package's licence is the `license` field of its installed package.json, read as an SPDX
// expression (the old `licenses` list counts as a choice among its entries, as npm documented it):
// - permissive: every choice it needs is in PERMISSIVE ("(MIT OR GPL-3.0)" is fine: MIT can be
//   chosen; "(MIT AND GPL-3.0)" is not);
// - copyleft: GPL, AGPL, LGPL, SSPL, EUPL, and the file-level (weak) copyleft licences MPL, EPL, CDDL
//   and the font licence OFL too. A weak copyleft only binds the files of that package, but it still
//   asks whoever ships a changed copy of them for their source, so each one is decided and written
//   down in the allow list, not waved through;
// - unknown: missing, UNLICENSED, "SEE LICENSE IN …", a LicenseRef, or anything that is not an SPDX
//   expression. A licence the gate cannot read is a licence nobody has checked.
//
// An allowed entry names the package and the licence exactly as declared ("(none)" for a package
// that declares none): if a new version changes its licence, the entry no longer matches and the
// gate fails again.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import parseSpdx from 'spdx-expression-parse';

const root = path.resolve(import.meta.dirname, '..');
export const ALLOW_FILE = 'licences-allowed.json';
/** How the allow list and the report name the licence of a package that declares none. */
export const NONE_DECLARED = '(none)';

/** Licences that ask for no more than keeping the notice (and, for Apache-2.0, the NOTICE file). */
export const PERMISSIVE: ReadonlySet<string> = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Python-2.0',
  'Unlicense',
  'W3C',
  'WTFPL',
  'Zlib',
]);

/** Copyleft families, strong and weak, by SPDX id prefix. */
const COPYLEFT = /^(AGPL|GPL|LGPL|SSPL|EUPL|MPL|EPL|CDDL|CPL|OSL|CECILL|CC-BY-SA|CC-BY-NC|OFL|RPL|Sleepycat|CPAL|QPL)-/;

export type Verdict = 'permissive' | 'copyleft' | 'unknown';

export interface InstalledPackage {
  name: string;
  version: string;
  /** The licence as declared (an SPDX expression, or whatever the package wrote), or undefined. */
  licence: string | undefined;
}

export interface AllowedEntry {
  package: string;
  licence: string;
  reason: string;
}

export interface Judged extends InstalledPackage {
  verdict: Verdict;
  /** Why a package that is not permissive is so: the expression's offending part, or the parse error. */
  detail?: string;
  /** The allow-list entry that lets it in. */
  allowed?: AllowedEntry;
}

export interface Report {
  packages: Judged[];
  /** Not permissive and not allowed: these fail the gate. */
  failures: Judged[];
  /** Allow-list entries that match no installed package (removed, or its licence changed). */
  unused: AllowedEntry[];
}

type SpdxNode = { license: string; plus?: true; exception?: string } | { left: SpdxNode; conjunction: 'and' | 'or'; right: SpdxNode };

function classifyId(id: string): Verdict {
  if (PERMISSIVE.has(id)) return 'permissive';
  if (COPYLEFT.test(`${id}-`)) return 'copyleft';
  return 'unknown';
}

const RANK: Record<Verdict, number> = { permissive: 0, unknown: 1, copyleft: 2 };

function judgeNode(node: SpdxNode): { verdict: Verdict; offending: string[] } {
  if ('license' in node) {
    const verdict = classifyId(node.license);
    const text = `${node.license}${node.plus ? '+' : ''}${node.exception ? ` WITH ${node.exception}` : ''}`;
    return { verdict, offending: verdict === 'permissive' ? [] : [text] };
  }
  const left = judgeNode(node.left);
  const right = judgeNode(node.right);
  if (node.conjunction === 'or') {
    // A choice: the better side decides.
    return RANK[left.verdict] <= RANK[right.verdict] ? left : right;
  }
  // Both apply: the worse side decides, and everything that is not permissive is named.
  const verdict = RANK[left.verdict] >= RANK[right.verdict] ? left.verdict : right.verdict;
  return { verdict, offending: [...left.offending, ...right.offending] };
}

/** The verdict on a declared licence. */
export function judgeLicence(licence: string | undefined): { verdict: Verdict; detail?: string } {
  if (licence === undefined || licence.trim() === '') return { verdict: 'unknown', detail: 'no licence declared' };
  let tree: SpdxNode;
  try {
    tree = parseSpdx(licence.trim()) as SpdxNode;
  } catch {
    return { verdict: 'unknown', detail: 'not an SPDX expression' };
  }
  const { verdict, offending } = judgeNode(tree);
  return verdict === 'permissive' ? { verdict } : { verdict, detail: offending.join(', ') };
}

/** The licence a package.json declares: `license` (a string, or the old { type } object), or the old `licenses` list as a choice. */
export function declaredLicence(pkg: Record<string, unknown>): string | undefined {
  const typeOf = (v: unknown): string | undefined =>
    typeof v === 'string'
      ? v
      : typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
        ? (v as { type: string }).type
        : undefined;
  const single = typeOf(pkg['license']);
  if (single !== undefined) return single;
  if (Array.isArray(pkg['licenses'])) {
    const all = pkg['licenses'].map(typeOf).filter((t): t is string => t !== undefined);
    if (all.length === 1) return all[0];
    if (all.length > 1) return `(${all.join(' OR ')})`;
  }
  return undefined;
}

/** Checks the allow list's shape: a list of { package, licence, reason }, each a non-empty string. */
export function parseAllowList(text: string): AllowedEntry[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new Error(`${ALLOW_FILE} must be a JSON list of { package, licence, reason }`);
  return value.map((entry: unknown, i) => {
    const e = entry as Record<string, unknown>;
    for (const key of ['package', 'licence', 'reason']) {
      if (typeof e?.[key] !== 'string' || e[key].trim() === '') throw new Error(`${ALLOW_FILE} entry ${i + 1}: "${key}" must be a non-empty string`);
    }
    return { package: e['package'] as string, licence: e['licence'] as string, reason: e['reason'] as string };
  });
}

/** Judges each package and applies the allow list (same package name, same declared licence). */
export function judge(packages: readonly InstalledPackage[], allowList: readonly AllowedEntry[]): Report {
  const used = new Set<AllowedEntry>();
  const judged = packages.map((p): Judged => {
    const { verdict, detail } = judgeLicence(p.licence);
    if (verdict === 'permissive') return { ...p, verdict };
    const allowed = allowList.find((a) => a.package === p.name && a.licence === (p.licence ?? NONE_DECLARED));
    if (allowed) used.add(allowed);
    return { ...p, verdict, ...(detail !== undefined ? { detail } : {}), ...(allowed ? { allowed } : {}) };
  });
  return {
    packages: judged,
    failures: judged.filter((p) => p.verdict !== 'permissive' && !p.allowed),
    unused: allowList.filter((a) => !used.has(a)),
  };
}

/**
 * The production tree as npm has installed it (`npm ls --omit=dev --all --parseable`: one folder per
 * package, the project first), each package once per name and version.
 */
export async function installedProductionPackages(dir = root): Promise<InstalledPackage[]> {
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // npm ls exits 1 on a tree it finds fault with (extraneous or invalid packages) but still lists it.
  const folders = (ls.stdout ?? '').split('\n').filter((l) => l.trim() !== '');
  if (folders.length === 0) throw new Error(`npm ls listed nothing (exit ${ls.status}): ${ls.stderr || ls.error?.message || ''}`.trim());
  const seen = new Map<string, InstalledPackage>();
  for (const folder of folders.slice(1)) {
    const file = path.join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const name = typeof pkg['name'] === 'string' ? pkg['name'] : path.basename(folder);
    const version = typeof pkg['version'] === 'string' ? pkg['version'] : '?';
    seen.set(`${name}@${version}`, { name, version, licence: declaredLicence(pkg) });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

export async function checkLicences(dir = root): Promise<Report> {
  const allowFile = path.join(dir, ALLOW_FILE);
  const allowList = existsSync(allowFile) ? parseAllowList(await readFile(allowFile, 'utf8')) : [];
  return judge(await installedProductionPackages(dir), allowList);
}

export function formatReport(report: Report): string {
  const lines: string[] = [];
  const allowed = report.packages.filter((p) => p.allowed);
  const permissive = report.packages.filter((p) => p.verdict === 'permissive').length;
  lines.push(
    `licences: ${report.packages.length} runtime packages: ${permissive} permissive, ${allowed.length} allowed in ${ALLOW_FILE}, ${report.failures.length} not allowed`,
  );
  for (const p of allowed) lines.push(`  allowed  ${p.name}@${p.version}  ${p.licence ?? NONE_DECLARED}: ${p.allowed?.reason ?? ''}`);
  for (const a of report.unused) lines.push(`  unused   ${ALLOW_FILE} entry ${a.package} (${a.licence}) matches no runtime package: remove it`);
  for (const p of report.failures)
    lines.push(`  FAIL     ${p.name}@${p.version}  ${p.licence ?? NONE_DECLARED}: ${p.verdict}${p.detail ? ` (${p.detail})` : ''}`);
  if (report.failures.length > 0) {
    lines.push(`Replace these packages, or list each in ${ALLOW_FILE} as { "package", "licence", "reason" } with a reason that holds (see README, Licences).`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.main) {
  const report = await checkLicences();
  const text = formatReport(report);
  if (report.failures.length > 0) {
    process.stderr.write(text);
    process.exit(1);
  }
  process.stdout.write(text);
}
