// The licence gate (scripts/check-licences.ts) on fixture data: what passes, what fails, and that
// the allow list lets in exactly what it names.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLicences, declaredLicence, formatReport, judge, judgeLicence, parseAllowList, type InstalledPackage } from './check-licences.ts';

const pkg = (name: string, licence: string | undefined, version = '1.0.0'): InstalledPackage => ({ name, version, licence });

describe('judgeLicence', () => {
  it('passes permissive licences and expressions that can be satisfied by them', () => {
    for (const licence of [
      'MIT',
      'Apache-2.0',
      'ISC',
      'BSD-3-Clause',
      '(MIT OR GPL-3.0)',
      'GPL-3.0-or-later OR Apache-2.0',
      '(MIT AND Zlib)',
      '(MIT OR Apache-2.0) AND BSD-2-Clause',
      'Apache-2.0 WITH LLVM-exception',
    ]) {
      expect(judgeLicence(licence), licence).toEqual({ verdict: 'permissive' });
    }
  });

  it('fails copyleft, strong or weak, and an AND that needs one', () => {
    for (const [licence, detail] of [
      ['GPL-3.0-only', 'GPL-3.0-only'],
      ['GPL-2.0+', 'GPL-2.0+'],
      ['AGPL-3.0-or-later', 'AGPL-3.0-or-later'],
      ['LGPL-2.1-only', 'LGPL-2.1-only'],
      ['SSPL-1.0', 'SSPL-1.0'],
      ['EUPL-1.2', 'EUPL-1.2'],
      ['MPL-2.0', 'MPL-2.0'],
      ['OFL-1.1', 'OFL-1.1'],
      ['(MIT AND GPL-3.0)', 'GPL-3.0'],
      ['GPL-2.0-only WITH Classpath-exception-2.0', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    ]) {
      expect(judgeLicence(licence), licence).toEqual({ verdict: 'copyleft', detail });
    }
  });

  it('fails what it cannot read: missing, proprietary, a file reference, free text', () => {
    expect(judgeLicence(undefined)).toEqual({ verdict: 'unknown', detail: 'no licence declared' });
    expect(judgeLicence('')).toEqual({ verdict: 'unknown', detail: 'no licence declared' });
    expect(judgeLicence('UNLICENSED').verdict).toBe('unknown');
    expect(judgeLicence('SEE LICENSE IN LICENSE.txt')).toEqual({ verdict: 'unknown', detail: 'not an SPDX expression' });
    expect(judgeLicence('Apache 2.0')).toEqual({ verdict: 'unknown', detail: 'not an SPDX expression' });
    expect(judgeLicence('LicenseRef-Proprietary')).toEqual({ verdict: 'unknown', detail: 'LicenseRef-Proprietary' });
  });
});

describe('declaredLicence', () => {
  it('reads license, the old { type } object and the old licenses list (a choice)', () => {
    expect(declaredLicence({ license: 'MIT' })).toBe('MIT');
    expect(declaredLicence({ license: { type: 'ISC', url: 'https://example.org' } })).toBe('ISC');
    expect(declaredLicence({ licenses: [{ type: 'MIT' }] })).toBe('MIT');
    expect(declaredLicence({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] })).toBe('(MIT OR GPL-2.0)');
    expect(declaredLicence({ name: 'x' })).toBeUndefined();
  });
});

describe('judge', () => {
  const tree = [pkg('left-pad', 'MIT'), pkg('gpl-only', 'GPL-3.0-only'), pkg('dual', '(MIT OR GPL-3.0)'), pkg('nameless', undefined)];

  it('fails on a GPL-only package and on a missing licence, passes the dual-licensed one', () => {
    const report = judge(tree, []);
    expect(report.failures.map((p) => [p.name, p.verdict])).toEqual([
      ['gpl-only', 'copyleft'],
      ['nameless', 'unknown'],
    ]);
    expect(report.packages.find((p) => p.name === 'dual')?.verdict).toBe('permissive');
    expect(formatReport(report)).toMatch(/FAIL +gpl-only@1\.0\.0 +GPL-3\.0-only: copyleft/);
  });

  it('honours the allow list for that package and that licence only', () => {
    const allowList = [
      { package: 'gpl-only', licence: 'GPL-3.0-only', reason: 'runs as a separate program, never linked' },
      { package: 'nameless', licence: 'MIT', reason: 'wrong licence: must not match a package that declares none' },
      { package: 'gone', licence: 'LGPL-3.0-only', reason: 'no longer installed' },
    ];
    const report = judge(tree, allowList);
    expect(report.failures.map((p) => p.name)).toEqual(['nameless']);
    expect(report.packages.find((p) => p.name === 'gpl-only')?.allowed?.reason).toBe('runs as a separate program, never linked');
    expect(report.unused.map((a) => a.package)).toEqual(['nameless', 'gone']);
    // A package that declares no licence is allowed as "(none)".
    expect(judge(tree, [...allowList, { package: 'nameless', licence: '(none)', reason: 'its LICENSE file is MIT' }]).failures).toEqual([]);
    // The same package under another licence (a new version relicensed) is not covered.
    expect(judge([pkg('gpl-only', 'AGPL-3.0-only', '2.0.0')], allowList).failures.map((p) => p.name)).toEqual(['gpl-only']);
    const text = formatReport(report);
    expect(text).toMatch(/allowed +gpl-only@1\.0\.0 +GPL-3\.0-only: runs as a separate program/);
    expect(text).toMatch(/unused .*gone/);
  });

  it('passes a tree without findings', () => {
    expect(judge([pkg('a', 'MIT'), pkg('b', 'Apache-2.0 OR GPL-2.0')], []).failures).toEqual([]);
  });
});

describe('parseAllowList', () => {
  it('wants a list of entries that each give package, licence and reason', () => {
    expect(parseAllowList('[{"package":"a","licence":"MPL-2.0","reason":"fonts only"}]')).toHaveLength(1);
    expect(() => parseAllowList('{}')).toThrow(/must be a JSON list/);
    expect(() => parseAllowList('[{"package":"a","licence":"MPL-2.0"}]')).toThrow(/entry 1: "reason"/);
    expect(() => parseAllowList('[{"package":"a","licence":"MPL-2.0","reason":"  "}]')).toThrow(/"reason" must be a non-empty string/);
  });
});

describe('checkLicences on an installed fixture tree', () => {
  let dir = '';
  const write = async (rel: string, value: unknown) => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), JSON.stringify(value));
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eddy-licences-'));
    await write('package.json', {
      name: 'fixture',
      version: '1.0.0',
      license: 'Apache-2.0',
      dependencies: { app: '1.0.0' },
      devDependencies: { 'test-tool': '1.0.0' },
    });
    await write('node_modules/app/package.json', { name: 'app', version: '1.0.0', license: 'MIT', dependencies: { 'deep-gpl': '1.0.0', dual: '1.0.0' } });
    await write('node_modules/deep-gpl/package.json', { name: 'deep-gpl', version: '1.0.0', license: 'GPL-3.0-only' });
    await write('node_modules/dual/package.json', { name: 'dual', version: '1.0.0', license: '(MIT OR GPL-3.0)' });
    // A development tool: not shipped, so not judged.
    await write('node_modules/test-tool/package.json', { name: 'test-tool', version: '1.0.0', license: 'AGPL-3.0-only' });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('judges the production packages only, transitive ones included, and applies licences-allowed.json', async () => {
    const report = await checkLicences(dir);
    expect(report.packages.map((p) => p.name)).toEqual(['app', 'deep-gpl', 'dual']);
    expect(report.failures.map((p) => p.name)).toEqual(['deep-gpl']);

    await write('licences-allowed.json', [{ package: 'deep-gpl', licence: 'GPL-3.0-only', reason: 'a fixture' }]);
    const allowed = await checkLicences(dir);
    expect(allowed.failures).toEqual([]);
    expect(allowed.packages.find((p) => p.name === 'deep-gpl')?.allowed?.reason).toBe('a fixture');
  });
});
