// Shared set-up of the end-to-end tests: the real server (built app, embedded database) as a child
// process that a test can kill and restart, and Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '../..');

/** Why the end-to-end tests cannot run here, or undefined when they can. */
export function e2eUnavailable(): string | undefined {
  if (!existsSync(chromiumPath)) return `no Chromium at ${chromiumPath} (set CHROMIUM_PATH or install Debian's chromium)`;
  if (!existsSync(path.join(root, 'dist', 'index.html'))) return 'the web app is not built (npm run build)';
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  cleanup(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${log.join('')}`);
}

/**
 * Starts `node server/main.ts` on a fresh embedded database with the demo data. `env` adds to or
 * overrides the server's environment (e.g. a higher AUTH_RATE_LIMIT for a test that logs in often).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  const log: string[] = [];
  const launch = async () => {
    child = spawn(process.execPath, [path.join(root, 'server', 'main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
    await waitHealthy(url, child, log);
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    await exited;
  };
  await launch();
  return {
    url,
    port,
    dataDir,
    stop,
    restart: launch,
    async cleanup() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium for the tests. Its contexts start like a returning visitor's browser: with a saved cookie
 * choice (Reject All), so the cookie banner, a bottom sheet, does not cover the pages under test.
 * `{ savedCookieChoice: false }` gives a first visit's browser (tests/consent.e2e.test.ts, the bench).
 */
export async function launchChromium(opts: { savedCookieChoice?: boolean } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  if (opts.savedCookieChoice === false) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(seedCookieChoice);
    return context;
  };
  return browser;
}

/** Runs in the page before its scripts: the choice c15t and the app keep (once per browser profile). */
function seedCookieChoice(): void {
  const seeded = 'eddy-e2e-cookie-choice-seeded';
  if (localStorage.getItem(seeded) !== null) return;
  const time = Date.now();
  const consents = { necessary: true, functionality: false, measurement: false, experience: false, marketing: false };
  localStorage.setItem('c15t-consent', JSON.stringify({ consents, consentInfo: { time, type: 'necessary' } }));
  localStorage.setItem('eddy-cookie-consent', JSON.stringify({ type: 'cookie_banner', domain: location.hostname, preferences: { necessary: true, analytics: false, functional: false }, timestamp: time }));
  localStorage.setItem(seeded, '1');
}

/** Logs in through the API (not the UI) to check what the server holds. */
export async function apiLogin(url: string, hospNo: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/loginWithPassword`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hospNo, password }) });
  const json = (await res.json()) as { token?: string };
  if (!json.token) throw new Error(`login failed: ${res.status}`);
  return json.token;
}

export interface ServerReading {
  _id: string;
  type: string;
  value: number;
  recordedAt: string;
}

export async function serverReadings(url: string, token: string): Promise<ServerReading[]> {
  const res = await fetch(`${url}/api/glucose`, { headers: { authorization: `Bearer ${token}` } });
  const json = (await res.json()) as Record<string, ServerReading[]>;
  return [...(json['fasting'] ?? []), ...(json['postprandial'] ?? []), ...(json['random'] ?? [])];
}

/** Logs in through the login page with a password and waits for the dashboard. */
export async function uiLogin(page: Page, url: string, hospNo: string, password: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Hospital number').fill(hospNo);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/app$/);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and returns the serious and
 * critical violations, described one per line, so a test can `expect(...).toEqual([])`.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Evaluated through DevTools, which the page's Content Security Policy (rightly) does not cover.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

export const SCREENSHOT_DIR = path.join(root, 'test-results', 'screens');

/** Saves a full-page screenshot to test-results/screens/<name>.png for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Polls `fn` until it returns something other than undefined (e.g. a row the server now holds). */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until the service worker has finished installing (the whole app shell is precached) and
 * controls the page: only then can a test cut the connection and expect every screen to open.
 */
export async function offlineReady(page: Page, timeout = 60_000): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout });
}
