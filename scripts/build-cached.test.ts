// The build cache of `npm test`: which files count as the build's input, and that a change to one
// of them (and only to one of them) makes the next `npm test` build again.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, unlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInputsDigest, isBuildInput } from './build-cached.ts';

describe('the build inputs', () => {
  it('are the sources and settings, not tests, documentation, CI or deployment examples', () => {
    for (const f of ['src/main.tsx', 'sw/sw.ts', 'schemas/glucose.ts', 'locales/ar/messages.po', 'package-lock.json', 'vite.config.ts', 'index.html'])
      expect(isBuildInput(f), f).toBe(true);
    for (const f of ['tests/e2e/login.spec.ts', 'src/lib/pwa.test.ts', 'README.md', 'docs/sync-protocol.md', '.ci/run', 'deploy/haproxy.cfg'])
      expect(isBuildInput(f), f).toBe(false);
  });

  describe('digest', () => {
    let dir = '';
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'eddy-build-cache-'));
      git('init', '-q');
      await mkdir(path.join(dir, 'src'));
      await mkdir(path.join(dir, 'tests'));
      await writeFile(path.join(dir, '.gitignore'), 'dist/\n');
      await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
      await writeFile(path.join(dir, 'tests', 'a.spec.ts'), '// a test\n');
      git('add', '.');
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('changes with a source file, new or deleted ones too, and not with a test, a doc or the output', async () => {
      const first = await buildInputsDigest(dir);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      await writeFile(path.join(dir, 'tests', 'a.spec.ts'), '// another test\n');
      await writeFile(path.join(dir, 'README.md'), '# notes\n');
      await mkdir(path.join(dir, 'dist'));
      await writeFile(path.join(dir, 'dist', 'index.html'), '<p>built</p>\n');
      expect(await buildInputsDigest(dir)).toBe(first);

      await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 2;\n');
      const second = await buildInputsDigest(dir);
      expect(second).not.toBe(first);
      // Untracked but not ignored: a new source file counts before it is committed.
      await writeFile(path.join(dir, 'src', 'b.ts'), 'export const b = 1;\n');
      const third = await buildInputsDigest(dir);
      expect(third).not.toBe(second);
      await unlink(path.join(dir, 'src', 'a.ts'));
      expect(await buildInputsDigest(dir)).not.toBe(third);
    });

    it('outside a git checkout (a release copied to a server) takes the project’s files, not what runs make', async () => {
      const plain = await mkdtemp(path.join(tmpdir(), 'eddy-no-git-'));
      try {
        await mkdir(path.join(plain, 'src'));
        await writeFile(path.join(plain, 'src', 'a.ts'), 'export const a = 1;\n');
        const first = await buildInputsDigest(plain);
        expect(first).toMatch(/^[0-9a-f]{64}$/);
        for (const made of ['node_modules/x', 'dist', 'build/server', 'data']) {
          await mkdir(path.join(plain, made), { recursive: true });
          await writeFile(path.join(plain, made, 'file.js'), '// made\n');
        }
        await writeFile(path.join(plain, 'README.md'), '# notes\n');
        expect(await buildInputsDigest(plain)).toBe(first);
        await writeFile(path.join(plain, 'src', 'a.ts'), 'export const a = 2;\n');
        expect(await buildInputsDigest(plain)).not.toBe(first);
      } finally {
        await rm(plain, { recursive: true, force: true });
      }
    });
  });
});
