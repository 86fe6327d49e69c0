// Every screen in every language fits a 360 px phone and a 1280 px ward PC (issue 21): nothing
// wider than the screen, nothing cut off by the box that holds it, and axe finds nothing serious.
// A table or chart that scrolls sideways inside its own scroll box is allowed (that is its design);
// a label cut off, a value spilling out of its card or a page that scrolls sideways is not.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, Page } from '@playwright/test';
import { LOCALES, type Locale } from '../../src/lib/locales.ts';
import { closeToasts, DEMO_ADMIN, launchChromium, screenshot, seriousA11yViolations, startServer, type EddyServer } from '../fixtures/index.ts';

const WIDTHS = [360, 1280] as const;

let server: EddyServer;
let browser: Browser;

// Each test is a language's screens, on its own pages: the tests of this file spread over the workers
// (one after another they took 8-10 min on one worker, the suite's tail), each worker with its own server.
test.describe.configure({ mode: 'parallel' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer({ env: { AUTH_RATE_LIMIT: '200' } });
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

/**
 * What does not fit, one line each: an element beyond the screen's edge, or beyond the edge of the
 * box that clips it (overflow hidden or clip: text cut off), and a page that scrolls sideways.
 * Inside a box that scrolls (overflow auto or scroll) an element may be wider: it is reached by
 * scrolling. Hidden elements and the screen-reader-only ones (1 px, clipped) are not looked at.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    const name = (el: Element) => {
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${cls} "${text}"`;
    };
    const hidden = (el: Element): boolean => {
      for (let a: Element | null = el; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.display === 'none' || s.visibility === 'hidden' || s.clip !== 'auto' || s.clipPath !== 'none') return true;
        if (s.display === 'contents') continue; // no box of its own
        const r = a.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return true;
      }
      return false;
    };
    const clipper = (el: Element): Element | null => {
      for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return a;
      }
      return null;
    };
    if (document.documentElement.scrollWidth > width + 1) found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);
    // Only the outermost element that does not fit is named: its rows and cells go with it.
    const named = new Set<Element>();
    for (const el of document.body.querySelectorAll('*')) {
      if (el.parentElement && [...named].some((n) => n.contains(el))) continue;
      if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg' && !(el instanceof SVGTextElement)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || hidden(el)) continue;
      const box = clipper(el);
      const scrolls = box && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
      if (scrolls) continue;
      const edge = box ? box.getBoundingClientRect() : { left: 0, right: width };
      const by = Math.max(r.right - edge.right, edge.left - r.left);
      if (by > 1) {
        found.push(`${name(el)} goes ${Math.round(by)} px beyond ${box ? name(box) : 'the screen'}`);
        named.add(el);
      }
      // Text cut inside its own box (an ellipsis is a deliberate cut, with the whole text elsewhere).
      const own = getComputedStyle(el);
      if (['hidden', 'clip'].includes(own.overflowX) && own.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && !(el instanceof SVGElement)) {
        found.push(`${name(el)} cuts its content: ${el.scrollWidth} px in ${el.clientWidth} px`);
      }
    }
    return [...new Set(found)];
  });
}

/** The screen as it is now, at both widths: what does not fit, and what axe finds. */
async function checkScreen(page: Page, label: string, ready: () => Promise<unknown>): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await ready();
    // Layout after the resize, fonts included.
    await page.evaluate(async () => {
      await document.fonts.ready;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    });
    for (const p of await overflows(page)) problems.push(`${label} at ${width} px: ${p}`);
    for (const v of await seriousA11yViolations(page)) problems.push(`${label} at ${width} px, axe: ${v}`);
    await screenshot(page, `layout-${label}-${width}`);
  }
  return problems;
}

const h1 = (page: Page) => () => page.locator('main h1, h1').first().waitFor({ timeout: 30_000 });

for (const locale of LOCALES) {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  const browserLocale: Record<Locale, string> = { en: 'en-US', es: 'es', fr: 'fr', hi: 'hi-IN', ar: 'ar-EG' };

  test(`${locale}: every patient screen fits 360 px and 1280 px, and axe finds nothing serious`, async () => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ locale: browserLocale[locale], viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    const problems: string[] = [];
    try {
      await page.goto(`${server.url}${prefix}/`);
      problems.push(...(await checkScreen(page, `${locale}-login`, h1(page))));
      await page.locator('input[name="hospNo"]').fill('100001');
      await page.locator('input[type="password"]').first().fill('Demo-patient-1');
      await page.locator('form button[type="submit"]').first().click();
      await page.waitForURL((u) => u.pathname === `${prefix}/app`, { timeout: 30_000 });
      // The dashboard with its data: the medicines and the trend drawn.
      const dashboardReady = async () => {
        await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
        await page.locator('.trend-canvas canvas').first().waitFor({ timeout: 30_000 });
      };
      // The login's own notice is a toast over the page for a few seconds: looked at without it.
      await closeToasts(page);
      problems.push(...(await checkScreen(page, `${locale}-dashboard`, dashboardReady)));
      for (const [route, ready] of [
        ['symptoms', h1(page)],
        ['tests', async () => page.locator('.lab-card').first().waitFor({ timeout: 30_000 })],
        ['reports', async () => page.locator('.report-svg').first().waitFor({ timeout: 30_000 })],
        ['profile', h1(page)],
      ] as const) {
        await page.goto(`${server.url}${prefix}/app/${route}`);
        problems.push(...(await checkScreen(page, `${locale}-${route}`, ready)));
      }
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  test(`${locale}: every staff screen fits 360 px and 1280 px, and axe finds nothing serious`, async () => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ locale: browserLocale[locale], viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    try {
      await page.goto(`${server.url}${prefix}/admin`);
      problems.push(...(await checkScreen(page, `${locale}-staff-login`, h1(page))));
      await page.locator('input[type="email"]').fill(DEMO_ADMIN.email);
      await page.locator('input[type="password"]').fill(DEMO_ADMIN.password);
      await page.locator('form button[type="submit"]').first().click();
      await page.waitForURL(/\/admin\/hospital-select$/, { timeout: 30_000 });
      await closeToasts(page);
      problems.push(...(await checkScreen(page, `${locale}-staff-hospitals`, async () => page.getByRole('radio').first().waitFor({ timeout: 30_000 }))));
      await page.getByRole('radio').first().check();
      const worklist = page.locator('.worklist-item').first();
      problems.push(...(await checkScreen(page, `${locale}-staff-patients`, () => worklist.waitFor({ timeout: 30_000 }))));
      await page.setViewportSize({ width: 1280, height: 900 });
      await worklist.getByRole('button').first().click();
      await page.waitForURL(/\/admin\/report$/, { timeout: 30_000 });
      problems.push(...(await checkScreen(page, `${locale}-staff-report`, async () => page.locator('.review-table').first().waitFor({ timeout: 30_000 }))));
      await page.goto(`${server.url}${prefix}/admin/manage`);
      problems.push(...(await checkScreen(page, `${locale}-staff-manage`, h1(page))));
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
  });
}
