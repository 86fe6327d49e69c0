import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { APP_PAGES, isAppPage, isInAppSection } from './app-routes.ts';

describe('the pages of the web app', () => {
  it("are exactly the router's full paths (src/route-tree.gen.ts)", async () => {
    const tree = await readFile(new URL('../../src/route-tree.gen.ts', import.meta.url), 'utf8');
    const block = /export interface FileRoutesByFullPath \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? '';
    const paths = [...block.matchAll(/^\s*'([^']+)':/gm)].map((m) => (m[1] === '/' ? '/' : (m[1] ?? '').replace(/\/$/, '')));
    expect(paths.length).toBeGreaterThan(5);
    expect([...new Set(paths)].sort()).toEqual([...APP_PAGES].sort());
  });

  it('tells a page from anything else, with or without a trailing slash', () => {
    for (const p of ['/', '/app', '/app/', '/app/reports', '/admin/', '/admin/manage', '/privacy']) expect(isAppPage(p), p).toBe(true);
    for (const p of ['/.env', '/.git/config', '/wp-admin', '/app/nothing', '/admin/../etc/passwd', '/apps', '/index']) expect(isAppPage(p), p).toBe(false);
  });

  it("knows a mistyped page under the app's sections from anything else", () => {
    for (const p of ['/app/reprots', '/admin/nothing', '/app/a/b']) expect(isInAppSection(p), p).toBe(true);
    for (const p of ['/.env', '/metrics', '/app', '/apps/x', '/app/.git/config', '/admin/../x', '/wp-admin/x']) expect(isInAppSection(p), p).toBe(false);
  });
});
