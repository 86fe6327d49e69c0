// `lighthouse` of `npm run bench`: Lighthouse (mobile, its default simulated slow 4G and 4× slower
// CPU) on the login page as a first visit sees it, and on the dashboard of the logged-in demo
// patient. Lighthouse drives Debian's Chromium through its debugging port; the browser is one
// persistent profile, so the dashboard is audited with the session the login left.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath, freePort, offlineReady, seedCookieChoice, startServer, uiLogin, DEMO_PATIENT } from '../../tests/fixtures/index.ts';

export interface PageScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
}

export interface LighthouseFigure {
  login: PageScores;
  dashboard: PageScores & { cls: number };
}

interface Audited {
  scores: PageScores;
  cls: number;
}

async function audit(url: string, port: number, keepStorage: boolean): Promise<Audited> {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse failed on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => {
    const s = categories[id]?.score;
    if (typeof s !== 'number') throw new Error(`Lighthouse gave no ${id} score for ${url}`);
    return Math.round(s * 100);
  };
  return {
    scores: { performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices') },
    cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN) * 1000) / 1000,
  };
}

export async function lighthouseScores(opts: { log?: (line: string) => void } = {}): Promise<LighthouseFigure> {
  const log = opts.log ?? (() => undefined);
  const server = await startServer();
  const profile = await mkdtemp(path.join(tmpdir(), 'eddy-lighthouse-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    // A first visit: Lighthouse clears the origin's storage before it loads the page.
    const login = await audit(`${server.url}/`, port, false);
    log(`lighthouse: login page ${JSON.stringify(login.scores)}`);
    // The dashboard of a returning patient: logged in, the app installed, the cookie choice made.
    await context.addInitScript(seedCookieChoice);
    const page = context.pages()[0] ?? (await context.newPage());
    await uiLogin(page, server.url, DEMO_PATIENT.hospNo, DEMO_PATIENT.password);
    await page.getByLabel(/^Glucose \((mg\/dL|mmol\/L)\)$/).waitFor();
    await offlineReady(page);
    await page.goto('about:blank');
    const dashboard = await audit(`${server.url}/app`, port, true);
    log(`lighthouse: dashboard ${JSON.stringify(dashboard.scores)}, CLS ${dashboard.cls}`);
    return { login: login.scores, dashboard: { ...dashboard.scores, cls: dashboard.cls } };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    await server.cleanup();
  }
}
