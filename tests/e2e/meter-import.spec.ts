// "Import from meter" in Chromium (issue 19): offered where the browser has Web Bluetooth (here with
// Chromium's switch for Linux, where it is still experimental), and replaced by its one-line reason
// where it has none. The meter's side (the Glucose Profile's bytes, the Record Access Control Point
// dialogue, what each record becomes) is proved by the unit tests of src/features/meter/; a meter
// simulated by Chromium's BluetoothEmulation domain is paired, connected, its clock read and its
// records asked for, as far as the emulation goes (it cannot send notifications, so no records).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Locator, type Page } from '@playwright/test';
import {
  CURRENT_TIME,
  CURRENT_TIME_SERVICE,
  GLUCOSE_FEATURE,
  GLUCOSE_MEASUREMENT,
  GLUCOSE_MEASUREMENT_CONTEXT,
  GLUCOSE_SERVICE,
  RECORD_ACCESS_CONTROL_POINT,
} from '../../src/features/meter/glucose-profile.ts';
import { METER_SILENCE_MS } from '../../src/features/meter/meter-import.ts';
import { CHROMIUM_ARGS, chromiumPath, offlineReady, seedCookieChoice } from '../fixtures/browser.ts';
import {
  DEMO_PATIENT,
  expect,
  launchChromium,
  loginPatient,
  openReadings,
  screenshot,
  seriousA11yViolations,
  startServer,
  test,
  type EddyServer,
} from '../fixtures/index.ts';

let server: EddyServer;
const browsers: Browser[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
});

test.afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.cleanup();
});

/** A patient logged in, on the readings page, where the import is (issue 50: off the dashboard). */
async function readingsPage(extraArgs: string[]) {
  const browser = await launchChromium({ extraArgs });
  browsers.push(browser);
  const page = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await loginPatient(page, server.url);
  await openReadings(page);
  return page;
}

test('offers the import where the browser has Web Bluetooth, and says why not where it has none', async () => {
  test.setTimeout(120_000);
  // Web Bluetooth is behind this switch in Chromium on Linux (on by default on Android, Windows, macOS and ChromeOS).
  const page = await readingsPage(['--enable-experimental-web-platform-features']);
  expect(await page.evaluate(() => 'bluetooth' in navigator)).toBe(true);
  const card = page.getByRole('region', { name: 'Import from meter' });
  await card.getByText(/Readings from a Bluetooth glucometer/).waitFor();
  await card.getByRole('button', { name: 'Import from meter' }).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'meter-import-readings-360');

  const without = await readingsPage([]);
  expect(await without.evaluate(() => 'bluetooth' in navigator)).toBe(false);
  const missing = without.getByRole('region', { name: 'Import from meter' });
  await missing.getByText(/needs Bluetooth in the browser: Chrome or Edge on Android, Windows, macOS or Linux/).waitFor();
  expect(await missing.getByRole('button').count()).toBe(0);
});

/**
 * Switches Playwright's own launch adds, so that this tab runs as in a browser Playwright launches:
 * timers not throttled, the renderer not backgrounded, input not held back until a first paint.
 */
const PLAYWRIGHTS_LAUNCH_SWITCHES = [
  '--disable-features=PaintHolding',
  '--allow-pre-commit-input',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-ipc-flooding-protection',
  '--disable-hang-monitor',
];

/** Chromium started by hand with a DevTools port: Bluetooth emulation works only on its default context. */
async function chromiumWithDevtoolsPort(): Promise<{ browser: Browser; stop: () => Promise<void> }> {
  const profile = await mkdtemp(path.join(tmpdir(), 'eddy-bt-'));
  const child = spawn(
    chromiumPath,
    [
      ...CHROMIUM_ARGS,
      ...PLAYWRIGHTS_LAUNCH_SWITCHES,
      '--headless=new',
      '--enable-experimental-web-platform-features',
      '--remote-debugging-port=0',
      '--window-size=360,800',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore', detached: true },
  );
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 30_000;
  let port = '';
  while (!port) {
    if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port');
    port = (await readFile(portFile, 'utf8').catch(() => '')).split('\n')[0] ?? '';
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  return {
    browser,
    stop: async () => {
      await browser.close().catch(() => undefined);
      // Debian's /usr/bin/chromium is a script that starts the browser as its child: end the whole group.
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group has ended already
      }
      await exited;
      await rm(profile, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

const uuid = (short: number) => `0000${short.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;
const NO_PROPERTIES = {
  broadcast: false,
  read: false,
  writeWithoutResponse: false,
  write: false,
  notify: false,
  indicate: false,
  authenticatedSignedWrites: false,
  extendedProperties: false,
};

/** The Current Time characteristic's 10 bytes for a clock showing `at` (its local wall time). */
function currentTimeBytes(at: Date): number[] {
  const year = at.getFullYear();
  return [year & 0xff, year >> 8, at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes(), at.getSeconds(), ((at.getDay() + 6) % 7) + 1, 0, 0];
}

/**
 * A glucose meter in Chromium's Bluetooth emulation: the Glucose Service (measurement and context
 * with notifications, feature, RACP with indications) and a Current Time Service whose clock is
 * `clockAheadMin` minutes ahead. It answers connections, discovery, reads and subscriptions, and
 * records what the app writes to its RACP. (The emulation cannot send notifications, so it cannot
 * send records: what the records become is proved by the unit tests.)
 */
async function emulatedMeter(session: CDPSession, clockAheadMin: number) {
  const address = '09:09:09:09:09:09';
  await session.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
  await session.send('BluetoothEmulation.simulatePreconnectedPeripheral', {
    address,
    name: 'Emulated meter',
    manufacturerData: [],
    knownServiceUuids: [uuid(GLUCOSE_SERVICE)],
  });
  const characteristics = new Map<string, number>();
  const add = async (serviceId: string, short: number, properties: Partial<typeof NO_PROPERTIES>) => {
    const { characteristicId } = await session.send('BluetoothEmulation.addCharacteristic', {
      serviceId,
      characteristicUuid: uuid(short),
      properties: { ...NO_PROPERTIES, ...properties },
    });
    characteristics.set(characteristicId, short);
    // The Client Characteristic Configuration descriptor that turns notifications and indications on.
    if (properties.notify || properties.indicate) await session.send('BluetoothEmulation.addDescriptor', { characteristicId, descriptorUuid: uuid(0x2902) });
  };
  const { serviceId: glucose } = await session.send('BluetoothEmulation.addService', { address, serviceUuid: uuid(GLUCOSE_SERVICE) });
  await add(glucose, GLUCOSE_MEASUREMENT, { notify: true });
  await add(glucose, GLUCOSE_MEASUREMENT_CONTEXT, { notify: true });
  await add(glucose, GLUCOSE_FEATURE, { read: true });
  await add(glucose, RECORD_ACCESS_CONTROL_POINT, { write: true, indicate: true });
  const { serviceId: time } = await session.send('BluetoothEmulation.addService', { address, serviceUuid: uuid(CURRENT_TIME_SERVICE) });
  await add(time, CURRENT_TIME, { read: true, notify: true });

  const seen = { connections: 0, clockReads: 0, subscribed: new Set<number>(), racpWrites: [] as number[][] };
  // The answers are sent from event listeners, which cannot wait for them. One still on its way when
  // the test ends fails with "Target closed": that does not matter, and an answer that never arrives
  // shows as a failed expectation below.
  session.on('BluetoothEmulation.gattOperationReceived', (e) => {
    if (e.type === 'connection') seen.connections++;
    session.send('BluetoothEmulation.simulateGATTOperationResponse', { address, type: e.type, code: 0 }).catch(() => undefined);
  });
  session.on('BluetoothEmulation.characteristicOperationReceived', (e) => {
    const short = characteristics.get(e.characteristicId);
    let data: string | undefined;
    if (e.type === 'read' && short === CURRENT_TIME) {
      seen.clockReads++;
      data = Buffer.from(currentTimeBytes(new Date(Date.now() + clockAheadMin * 60_000))).toString('base64');
    } else if (e.type === 'read' && short === GLUCOSE_FEATURE) data = Buffer.from([0, 0]).toString('base64');
    else if (e.type === 'write' && short === RECORD_ACCESS_CONTROL_POINT) seen.racpWrites.push([...Buffer.from(e.data ?? '', 'base64')]);
    else if (e.type === 'subscribe-to-notifications' && short !== undefined) seen.subscribed.add(short);
    session
      .send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
        characteristicId: e.characteristicId,
        type: e.type,
        code: 0,
        ...(data ? { data } : {}),
      })
      .catch(() => undefined);
  });
  session.on('BluetoothEmulation.descriptorOperationReceived', (e) => {
    session
      .send('BluetoothEmulation.simulateDescriptorOperationResponse', {
        descriptorId: e.descriptorId,
        type: e.type,
        code: 0,
        ...(e.type === 'read' ? { data: Buffer.from([0, 0]).toString('base64') } : {}),
      })
      .catch(() => undefined);
  });
  return seen;
}

/**
 * Clicks `button` from inside the page. In a tab of a Chromium started by hand and attached to over
 * CDP, Playwright's mouse and keyboard events often never reached the app (no mousedown arrived at
 * all; the same clicks work in a browser Playwright launches, where Bluetooth emulation is not
 * available); a script's click carries the user activation the browser's chooser needs.
 */
async function tap(button: Locator): Promise<void> {
  await button.evaluate((b: HTMLElement) => b.click());
}

/** Picks the first device of every Bluetooth chooser `page` opens (each chooser once: it is announced again as it scans). */
async function pickFirstDevice(page: Page): Promise<{ prompts: number }> {
  const session = await page.context().newCDPSession(page);
  await session.send('DeviceAccess.enable');
  const answered = new Set<string>();
  session.on('DeviceAccess.deviceRequestPrompted', (p) => {
    const device = p.devices[0];
    if (!device || answered.has(p.id)) return;
    answered.add(p.id);
    // Not waited for (a listener cannot); a failed pick shows as the import never starting.
    session.send('DeviceAccess.selectPrompt', { id: p.id, deviceId: device.id }).catch(() => undefined);
  });
  return {
    get prompts() {
      return answered.size;
    },
  };
}

test('pairs with an emulated meter, reads its clock and asks it for every stored record', async () => {
  test.setTimeout(120_000);
  const { browser, stop } = await chromiumWithDevtoolsPort();
  try {
    const meter = await emulatedMeter(await browser.newBrowserCDPSession(), 7);
    const context = browser.contexts()[0]!;
    await context.addInitScript(seedCookieChoice);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').fill(DEMO_PATIENT.hospNo);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PATIENT.password);
    await tap(page.getByRole('button', { name: 'Log in', exact: true }));
    await page.waitForURL(/\/app$/);
    await offlineReady(page);
    await tap(page.getByTestId('all-readings'));
    await page.getByRole('heading', { level: 1, name: 'Your readings' }).waitFor();
    const chooser = await pickFirstDevice(page);
    await tap(page.getByRole('region', { name: 'Import from meter' }).getByRole('button', { name: 'Import from meter' }));
    // Pairing: the browser's chooser lists the meter and the patient picks it; the app connects.
    await expect.poll(() => chooser.prompts).toBe(1);
    await expect.poll(() => meter.connections).toBeGreaterThanOrEqual(1);
    // The meter's clock is read, to show how far off it is.
    await expect.poll(() => meter.clockReads).toBe(1);
    // Notifications of measurements and contexts and indications of the RACP are on before the request…
    await expect.poll(() => [...meter.subscribed].sort()).toEqual([GLUCOSE_MEASUREMENT, GLUCOSE_MEASUREMENT_CONTEXT, RECORD_ACCESS_CONTROL_POINT].sort());
    // …which, on a first import, asks for every stored record: "report stored records", "all records".
    await expect.poll(() => meter.racpWrites).toEqual([[0x01, 0x01]]);
    // The emulated meter cannot send records (the emulation has no notifications): the import says the meter went silent.
    const dialog = page.getByRole('dialog', { name: 'Import from meter' });
    await dialog.getByText('The meter could not be read: The meter stopped answering.').waitFor({ timeout: METER_SILENCE_MS + 15_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Nothing was imported, and nothing remembered: the next import asks for every record again.
    await tap(dialog.getByRole('button', { name: 'Close' }));
    await tap(page.getByRole('region', { name: 'Import from meter' }).getByRole('button', { name: 'Import from meter' }));
    await expect.poll(() => chooser.prompts).toBe(2);
    await expect
      .poll(() => meter.racpWrites)
      .toEqual([
        [0x01, 0x01],
        [0x01, 0x01],
      ]);
  } finally {
    await stop();
  }
});
