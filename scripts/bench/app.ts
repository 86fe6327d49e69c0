// The figures of `npm run bench` (scripts/bench.ts) measured in Chromium on the built app and the
// real server: what the login route and a first visit download, and the dashboard of a patient with
// 10,000 more readings.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { openDatabase } from '../../server/db/client.ts';
import { glucoseReadings, patients } from '../../server/db/schema.ts';
import { median } from '../../report/statistics.ts';
import { FaultProxy, launchChromium, root, startServer, uiLogin } from '../../tests/fixtures/index.ts';

/** A part of the login route's script, by the source path its code came from (the build's source maps). */
const PROFILE_PARTS: [part: string, source: RegExp][] = [
  ['react-dom', /node_modules\/react-dom\//],
  ['react, jsx-runtime, scheduler', /node_modules\/(react|scheduler)\//],
  ['TanStack Router', /node_modules\/@tanstack\//],
  ['Lingui', /node_modules\/@lingui\//],
  ['other packages', /node_modules\//],
  ['login catalogs (locales/)', /\/locales\//],
  ['the app (src/, sync/, schemas/)', /./],
];

/**
 * Where the login route's gzipped script goes (issue 49 asks for the profile behind a budget not
 * met): each chunk's code is split by the part its source belongs to, and a part weighs what gzip
 * (level 9) saves when its code is cut out of the chunks (bundler glue without a source counts for
 * none). The parts add up to about the whole: code compresses against its neighbours.
 */
function loginRouteProfile(loaded: { file: string; body: Buffer }[]): Record<string, number> {
  const gz = (text: string) => gzipSync(text, { level: 9 }).length;
  const saved = new Map<string, number>();
  for (const { file, body } of loaded) {
    const mapFile = path.join(root, 'dist', `${file}.map`);
    if (!existsSync(mapFile)) continue;
    const code = body.toString('utf8');
    const lineStarts = [0];
    for (let i = 0; i < code.length; i += 1) if (code[i] === '\n') lineStarts.push(i + 1);
    const map = new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap);
    const at: { offset: number; part: string | undefined }[] = [];
    map.eachMapping(
      (m) => {
        const source = m.source;
        const part = source ? PROFILE_PARTS.find(([, re]) => re.test(source))?.[0] : undefined;
        at.push({ offset: (lineStarts[m.generatedLine - 1] ?? 0) + m.generatedColumn, part });
      },
      undefined,
      SourceMapConsumer.GENERATED_ORDER,
    );
    const whole = gz(code);
    for (const [part] of PROFILE_PARTS) {
      let kept = '';
      let from = 0;
      for (let i = 0; i < at.length; i += 1) {
        const seg = at[i];
        if (!seg || seg.part !== part) continue;
        kept += code.slice(from, seg.offset);
        from = at[i + 1]?.offset ?? code.length;
      }
      kept += code.slice(from);
      if (kept.length < code.length) saved.set(part, (saved.get(part) ?? 0) + whole - gz(kept));
    }
  }
  return Object.fromEntries([...saved].map(([part, bytes]) => [part, Math.round(bytes / 102.4) / 10]));
}

/** JS the login route loads on a first visit, gzipped at level 9 (KB): `loginRouteGzipKb`, with its profile. */
export async function loginRouteJs(): Promise<{ files: number; gzipKb: number; profile: Record<string, number> }> {
  const server = await startServer();
  // A first visit: no cookie choice saved yet, so the cookie banner's code counts too.
  const browser = await launchChromium({ savedCookieChoice: false });
  try {
    const page = await browser.newPage();
    const bodies: Promise<{ file: string; body: Buffer }>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script' || res.url().endsWith('.js'))
        bodies.push(res.body().then((body) => ({ file: new URL(res.url()).pathname, body })));
    });
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(bodies);
    const gz = all.reduce((sum, b) => sum + gzipSync(b.body, { level: 9 }).length, 0);
    return { files: all.length, gzipKb: Math.round(gz / 102.4) / 10, profile: loginRouteProfile(all) };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

const READINGS = 10_000;

/**
 * Adds readings to the demo patient 100001 directly in the stopped server's embedded database, one
 * every `everyMinutes` back from now.
 */
export async function addReadings(dataDir: string, count: number, everyMinutes = 47): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const [patient] = await database.db.select({ id: patients.id }).from(patients).where(eq(patients.hospNo, '100001'));
    if (!patient) throw new Error('demo patient 100001 is missing');
    const types = ['Fasting', 'Postprandial', 'Random'] as const;
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      patientId: patient.id,
      type: types[i % 3] ?? 'Random',
      valueMgDl: 70 + ((i * 37) % 200),
      recordedAt: new Date(now - (i + 1) * everyMinutes * 60_000),
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insert(glucoseReadings).values(rows.slice(i, i + 500));
  } finally {
    await database.close();
  }
}

/** Reloads measured after the first sync; the figures are their medians (one reload varies by ±30 %). */
const RELOADS = 5;

export interface DashboardFigures {
  firstSyncMs: number;
  /** Medians over the reloads. */
  formMs: number;
  listsMs: number;
  /** The readings page opened from the dashboard, until its lists and trend show (median). */
  readingsMs: number;
  /** Every reload, in order: the first one after the first sync is the slowest (scripts not yet compiled from cache). */
  reloads: { formMs: number; listsMs: number }[];
  readingsOpens: number[];
}

/**
 * The demo patient with 10,000 more readings: the first login that pulls them all
 * (`firstSync10kMs`, from the login button to the latest readings shown, once every reading is
 * written), then after each of several reloads the time until the entry form can be used
 * (`dashboard10kFormMs`) and until the latest readings show (`dashboard10kListsMs`); then the
 * readings page opened from the dashboard, until its three lists and the trend show
 * (`readings10kOpenMs`).
 */
export async function dashboardWith10k(): Promise<DashboardFigures> {
  const server = await startServer();
  await server.stop();
  await addReadings(server.dataDir, READINGS);
  await server.restart();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // When the readings show is taken in the page: the first frame after they are in the document
    // (the dashboard's latest readings; on the readings page, its lists and the trend). Playwright's
    // waiting polls ever more slowly (up to every 500 ms once it has waited a while) and saw them up
    // to half a second after they showed. `benchWatch(selectors)` starts watching for them.
    await page.addInitScript(() => {
      const w = window as unknown as { benchListedAt?: number | undefined; benchWatch: (selectors: string[]) => void };
      w.benchWatch = (selectors) => {
        w.benchListedAt = undefined;
        const check = () => {
          if (selectors.every((selector) => document.querySelector(selector))) {
            observer.disconnect();
            requestAnimationFrame(() => (w.benchListedAt = performance.timeOrigin + performance.now()));
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document, { childList: true, subtree: true });
        check();
      };
      w.benchWatch(['[data-testid="latest-Fasting"] .latest-value']);
    });
    /** Waits for what the watch looks for; returns when it showed (ms since the epoch). */
    const listed = async (): Promise<number> => {
      await page.waitForFunction(() => (window as unknown as { benchListedAt?: number }).benchListedAt !== undefined, undefined, { timeout: 120_000 });
      return Math.round(await page.evaluate(() => (window as unknown as { benchListedAt: number }).benchListedAt));
    };
    // The time from the login button on (the login page's first visit is `loginRouteGzipKb` and
    // Lighthouse's part).
    let start = 0;
    // BENCH_CPU_PROFILE=<file>: the page's CPU profile of the first login, for Chromium's DevTools.
    const profileFile = process.env['BENCH_CPU_PROFILE'];
    const cdp = profileFile ? await page.context().newCDPSession(page) : undefined;
    await uiLogin(page, server.url, '100001', 'Demo-patient-1', {
      beforeSubmit: async () => {
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        start = Date.now();
      },
    });
    // The first pull (begun as the login answered, sync/replication.ts beginFirstPulls) hands RxDB
    // every page at once, so the lists show once all the readings are written.
    const firstSyncMs = (await listed()) - start;
    if (cdp && profileFile) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify({ ...profile, benchStart: start, benchListed: start + firstSyncMs }));
      await cdp.detach();
    }
    // RxDB stores the pulled documents, then the checkpoint: a reload before that would pull again.
    await new Promise((r) => setTimeout(r, 15_000));
    const reloads: DashboardFigures['reloads'] = [];
    for (let i = 0; i < RELOADS; i++) {
      // The sync that follows a reload ends with its history check: done before the next reload.
      // (Not "network idle": the app keeps its live change stream open while it is shown.)
      const synced = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/sync/history', { timeout: 60_000 });
      start = Date.now();
      await page.reload();
      await page.getByLabel('Glucose (mg/dL)').fill('100');
      const formMs = Date.now() - start;
      reloads.push({ formMs, listsMs: (await listed()) - start });
      await synced;
    }
    // The readings page from the dashboard's link (no reload: the app is running), and back.
    const readingsOpens: number[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.evaluate(() =>
        (window as unknown as { benchWatch: (selectors: string[]) => void }).benchWatch([
          '[data-testid="glucose-list-Fasting"] li',
          '[data-testid="glucose-list-Random"] li',
          '.trend-canvas canvas',
        ]),
      );
      start = Date.now();
      await page.getByTestId('all-readings').click();
      readingsOpens.push((await listed()) - start);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await page.getByTestId('all-readings').waitFor();
    }
    const mid = (values: number[]) => median(values) ?? Number.NaN;
    return {
      firstSyncMs,
      formMs: mid(reloads.map((r) => r.formMs)),
      listsMs: mid(reloads.map((r) => r.listsMs)),
      readingsMs: mid(readingsOpens),
      reloads,
      readingsOpens,
    };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

/**
 * What a first visit downloads before the patient does anything (KB, as sent: compressed where the
 * server compresses): the login page and, once its service worker is installed, everything it
 * precaches for offline use. Counted by a proxy between the browser (page and worker) and the server,
 * until nothing more has come for 3 s after the worker took control.
 */
export async function firstVisitDownload(): Promise<{ kb: number; requests: number }> {
  const server = await startServer();
  const proxy = await FaultProxy.start(server.url);
  const browser = await launchChromium({ savedCookieChoice: false });
  try {
    const page = await browser.newPage();
    await page.goto(`${proxy.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', undefined, { timeout: 60_000 });
    let last = -1;
    let quietSince = Date.now();
    const deadline = Date.now() + 120_000;
    while (Date.now() - quietSince < 3_000) {
      if (Date.now() > deadline) throw new Error('the first visit was still downloading after 2 minutes');
      const bytes = proxy.stats().bytes;
      if (bytes !== last) {
        last = bytes;
        quietSince = Date.now();
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const stats = proxy.stats();
    return { kb: Math.round(stats.bytes / 102.4) / 10, requests: stats.requests };
  } finally {
    await browser.close();
    await proxy.close();
    await server.cleanup();
  }
}
