// Severe-low alerts to the care team end to end (issue 18 proof): the admin sees the demo worklist
// and opens the top patient, turns alerts on for her device, and a patient's reading of 45 mg/dL
// reaches that device as one push through a real push service on loopback (server/testing/push-peer.ts,
// which decrypts it with the subscription's keys), is shown by the service worker, and its tap opens
// that patient's report. A second low within the hour sends nothing; alerts turned off show nothing.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startPushPeer, type PushPeer, type PushRequest } from '../../server/testing/push-peer.ts';
import {
  apiAddReading,
  apiLogin,
  DEMO_PATIENT,
  expect,
  launchChromium,
  loginAdmin,
  SCREENSHOT_DIR,
  screenshot,
  seedCookieChoice,
  seriousA11yViolations,
  startServer,
  test,
  until,
  type EddyServer,
} from '../fixtures/index.ts';
import { click, closeNotifications, installPushService, pushChannel, shownNotifications } from '../fixtures/push.ts';
import { watchContext } from '../fixtures/trail.ts';

let server: EddyServer;
let peer: PushPeer;
let browser: Browser;
let context: BrowserContext | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A push service on loopback http allowed (https otherwise); a scheduler pass every 5 s, so that
  // "no second alert" is checked across passes (the first alert is sent at once, woken by the write).
  server = await startServer({ env: { PUSH_ALLOW_INSECURE_ENDPOINTS: '1', REMINDER_INTERVAL_SECONDS: '5' } });
  peer = await startPushPeer();
  browser = await launchChromium();
});

test.afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await peer?.close();
  await server?.cleanup();
});

/** The alerts the push service received for one patient (the demo ward's own lows may come too). */
const alertsFor = (hospNo: string): PushRequest[] =>
  peer.of('nurse-tablet').filter((r) => (r.json['data'] as { hospNo?: string } | undefined)?.hospNo === hospNo);

async function recordReading(token: string, value: number): Promise<void> {
  expect(await apiAddReading(server.url, token, { type: 'Random', value })).toBe(201);
}

const adminLogin = (page: Page): Promise<void> => loginAdmin(page, server.url);

/** What the service worker had to go on when an alert did not show: the alerts flag, its registration, what it shows. */
async function workerState(page: Page): Promise<string> {
  return page
    .evaluate(async () => {
      const flag = await new Promise<string>((resolve) => {
        const open = indexedDB.open('eddy-alerts');
        open.onerror = () => resolve(`flag unreadable (${String(open.error)})`);
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains('flags')) return resolve('no flags store');
          const get = idb.transaction('flags').objectStore('flags').get('alerts');
          get.onsuccess = () => resolve(get.result ? 'alerts flag on' : 'alerts flag OFF');
          get.onerror = () => resolve(`flag unreadable (${String(get.error)})`);
        };
      });
      const registration = await navigator.serviceWorker.getRegistration();
      const versions = ['installing', 'waiting', 'active']
        .map((k) => `${k}: ${(registration as unknown as Record<string, ServiceWorker | null> | undefined)?.[k]?.state ?? 'none'}`)
        .join(', ');
      const shown = (await registration?.getNotifications())?.map((n) => n.tag).join(' ') || 'none';
      return `${flag}; ${versions}; controller ${navigator.serviceWorker.controller ? 'yes' : 'no'}; notifications: ${shown}`;
    })
    .catch((err: unknown) => `not readable (${String(err)})`);
}

test('a severe low reaches the staff device once, and its tap opens the patient’s report', async () => {
  test.setTimeout(240_000);
  const device = peer.subscribe('nurse-tablet');
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  watchContext(context);
  // What the worker said, for a failure to show (its push handler logs what it could not do).
  const workerSaid: string[] = [];
  context.on('serviceworker', (w) => w.on('console', (m) => workerSaid.push(`${m.type()}: ${m.text()}`)));
  await context.addInitScript(seedCookieChoice);
  await context.grantPermissions(['notifications'], { origin: server.url });
  await installPushService(context, device);
  const page = await context.newPage();
  await adminLogin(page);

  // The nurse starts her shift on the worklist, and opens the patient who needs her first.
  await page.getByRole('radio', { name: /City General Hospital/ }).check();
  const worklist = page.getByRole('region', { name: 'Who needs you first' });
  const top = worklist.locator('.worklist-item').first();
  await top.waitFor({ timeout: 30_000 });
  const topName = (await top.locator('.worklist-name').innerText()).trim();
  await top.getByRole('button', { name: `Open report for ${topName}` }).click();
  await page.waitForURL(/\/admin\/report$/);
  await page.getByText(topName).first().waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Patients' }).click();

  // She turns alerts on for this device.
  const card = page.getByTestId('staff-alerts');
  await card.getByRole('heading', { name: 'Severe-low alerts on this device' }).waitFor();
  await card.getByText(/records a glucose below 54\smg\/dL/).waitFor();
  const subscribed = page.waitForResponse((r) => r.url().endsWith('/api/admin/alerts/on'));
  await card.getByRole('button', { name: 'Turn alerts on' }).click();
  expect((await subscribed).status()).toBe(200);
  await page
    .getByText(/Severe-low alerts are on/)
    .first()
    .waitFor();
  await card.getByRole('button', { name: 'Turn alerts off' }).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'staff-alerts-1280');
  await page.setViewportSize({ width: 768, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'staff-alerts-card-768.png') });
  await screenshot(page, 'staff-alerts-768');
  await page.setViewportSize({ width: 1280, height: 900 });

  // A patient on a ward records 45 mg/dL: one alert reaches the push service, encrypted for this device.
  const channel = await pushChannel(page, server);
  const patient = await apiLogin(server.url, DEMO_PATIENT.hospNo, DEMO_PATIENT.password);
  const written = Date.now();
  await recordReading(patient, 45);
  const [alert] = await until(
    'the alert at the push service',
    async () => (alertsFor(DEMO_PATIENT.hospNo).length > 0 ? alertsFor(DEMO_PATIENT.hospNo) : undefined),
    60_000,
    100,
  );
  expect(Date.now() - written).toBeLessThan(60_000);
  const notification = alert?.json['notification'] as { title: string; body: string; tag: string };
  expect(notification.title).toBe('Severe low: 45 mg/dL (2.5 mmol/L)');
  // The time is on the patient's clock and names its zone (a ward's staff may be elsewhere).
  expect(notification.body).toMatch(/^Maria Lopez \(100001\), measured \S+ \d+, \d\d:\d\d \S.*$/);

  // Exactly that text, delivered to the service worker, is shown; a tap opens Maria Lopez's report.
  await channel.deliver(alert?.text ?? '');
  // Once in fresh-clone CI (2026-11-29) the alert never showed; 4 repeats here all passed. A next
  // failure says what the worker had to go on: its flag, its version, what it shows.
  const shown = await until('the alert on screen', async () => (await shownNotifications(page)).find((n) => n.tag === 'severe-low:100001')).catch(
    async (err: unknown) => {
      throw new Error(
        `${err instanceof Error ? err.message : String(err)}; the worker then: ${await workerState(page)}; it said: ${workerSaid.slice(-20).join(' | ') || 'nothing'}`,
      );
    },
  );
  expect(shown.title).toBe(notification.title);
  const worker = context.serviceWorkers()[0];
  if (!worker) throw new Error('no service worker');
  await click(worker, 'severe-low:100001', '');
  await page.waitForURL(/\/admin\/report$/);
  await page.getByText('Maria Lopez').first().waitFor({ timeout: 30_000 });
  await screenshot(page, 'staff-alert-opened-report-1280');

  // A second low within the hour: no second alert, across two more scheduler passes.
  await recordReading(patient, 44);
  await page.waitForTimeout(12_000);
  expect(alertsFor(DEMO_PATIENT.hospNo)).toHaveLength(1);

  // Turned off, the device shows nothing, even if an alert still arrives.
  await closeNotifications(page);
  await page.getByRole('link', { name: 'Patients' }).click();
  const unsubscribed = page.waitForResponse((r) => r.url().endsWith('/api/admin/alerts/off'));
  await card.getByRole('button', { name: 'Turn alerts off' }).click();
  expect((await unsubscribed).status()).toBe(200);
  await card.getByRole('button', { name: 'Turn alerts on' }).waitFor();
  await channel.deliver(alert?.text ?? '');
  await page.waitForTimeout(1_500);
  expect((await shownNotifications(page)).filter((n) => n.tag === 'severe-low:100001')).toEqual([]);
});
