import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { APP_PAGES, isAppPage, isInAppSection, PREFIXED_LOCALES } from './app-routes.ts';

describe('the pages of the web app', () => {
  it("are exactly the router's full paths (src/route-tree.gen.ts)", async () => {
    const tree = await readFile(new URL('../../src/route-tree.gen.ts', import.meta.url), 'utf8');
    const block = /export interface FileRoutesByFullPath \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? '';
    const paths = [...block.matchAll(/^\s*'([^']+)':/gm)].map((m) => (m[1] === '/' ? '/' : (m[1] ?? '').replace(/\/$/, '')));
    expect(paths.length).toBeGreaterThan(5);
    expect([...new Set(paths)].sort()).toEqual([...APP_PAGES].sort());
  });

  it("has the app's languages but the source one as path prefixes (src/lib/locales.ts)", async () => {
    const locales = await readFile(new URL('../../src/lib/locales.ts', import.meta.url), 'utf8');
    const all = [...(/export const LOCALES = \[([^\]]*)\]/.exec(locales)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
    const source = /export const SOURCE_LOCALE: Locale = '([a-z-]+)'/.exec(locales)?.[1];
    expect(all.length).toBeGreaterThan(1);
    expect([...PREFIXED_LOCALES].sort()).toEqual(all.filter((l) => l !== source).sort());
  });

  it('tells a page from anything else, with or without a trailing slash', () => {
    for (const p of ['/', '/app', '/app/', '/app/reports', '/admin/', '/admin/manage', '/privacy']) expect(isAppPage(p), p).toBe(true);
    // In every language (/es/app is /app in Spanish: src/router.tsx).
    for (const p of ['/es', '/fr/', '/hi/app/reports', '/ar/admin/manage', '/es/privacy']) expect(isAppPage(p), p).toBe(true);
    for (const p of ['/en/app', '/de/app', '/es/nothing', '/es/.env']) expect(isAppPage(p), p).toBe(false);
    for (const p of ['/.env', '/.git/config', '/wp-admin', '/app/nothing', '/admin/../etc/passwd', '/apps', '/index']) expect(isAppPage(p), p).toBe(false);
  });

  it("knows a mistyped page under the app's sections from anything else", () => {
    for (const p of ['/app/reprots', '/admin/nothing', '/app/a/b', '/fr/app/reprots']) expect(isInAppSection(p), p).toBe(true);
    for (const p of ['/.env', '/metrics', '/app', '/apps/x', '/app/.git/config', '/admin/../x', '/wp-admin/x']) expect(isInAppSection(p), p).toBe(false);
  });
});
