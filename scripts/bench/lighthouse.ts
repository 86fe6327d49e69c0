// `lighthouse` of `npm run bench`: Lighthouse (mobile, its default simulated slow 4G and 4× slower
// CPU) on the login page as a first visit sees it, and on the dashboard of the logged-in demo
// patient. Lighthouse drives Debian's Chromium through its debugging port; the browser is one
// persistent profile, so the dashboard is audited with the session the login left. Each page is
// audited RUNS times and the median run counts, chosen by Lighthouse's own computeMedianRun (its
// documentation on variability asks for this): one run's performance score varied from 42 to 90
// within a minute on the same page here.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
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

const RUNS = 3;

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function run(url: string, port: number, keepStorage: boolean): Promise<Lhr> {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

const performanceOf = (lhr: Lhr) => Math.round((lhr.categories['performance']?.score ?? Number.NaN) * 100);

async function audit(url: string, port: number, keepStorage: boolean, log: (line: string) => void): Promise<Audited> {
  const runs: Lhr[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run(url, port, keepStorage));
  log(`lighthouse: ${url} performance of each run ${runs.map(performanceOf).join(', ')}`);
  const { categories, audits } = computeMedianRun(runs);
  if (process.env['LH_DETAILS']) {
    const items = (id: string) => ((audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []).slice(0, 12);
    for (const id of ['long-tasks', 'bootup-time', 'mainthread-work-breakdown']) log(`${id}: ${JSON.stringify(items(id))}`);
  }
  const metric = (id: string) => Math.round(audits[id]?.numericValue ?? Number.NaN);
  log(
    `lighthouse: ${url} median run: first contentful paint ${metric('first-contentful-paint')} ms, largest ${metric('largest-contentful-paint')} ms, ` +
      `total blocking time ${metric('total-blocking-time')} ms, speed index ${metric('speed-index')} ms`,
  );
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
    const login = await audit(`${server.url}/`, port, false, log);
    log(`lighthouse: login page ${JSON.stringify(login.scores)}`);
    // The dashboard of a returning patient: logged in, the app installed, the cookie choice made.
    await context.addInitScript(seedCookieChoice);
    const page = context.pages()[0] ?? (await context.newPage());
    await uiLogin(page, server.url, DEMO_PATIENT.hospNo, DEMO_PATIENT.password);
    await page.getByLabel(/^Glucose \((mg\/dL|mmol\/L)\)$/).waitFor();
    await offlineReady(page);
    await page.goto('about:blank');
    const dashboard = await audit(`${server.url}/app`, port, true, log);
    log(`lighthouse: dashboard ${JSON.stringify(dashboard.scores)}, CLS ${dashboard.cls}`);
    return { login: login.scores, dashboard: { ...dashboard.scores, cls: dashboard.cls } };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    await server.cleanup();
  }
}
