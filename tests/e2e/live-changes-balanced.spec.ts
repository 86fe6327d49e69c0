// The live change feed through two instances behind HAProxy (issue 46's proof): a clinician's review
// is open through the balancer; the patient records readings on another device, through one
// instance and then the other, and each shows in the open review within 2 s without a reload; with
// the instance that served the stream killed, the review hears the next one from the other. The same
// for the worklist (a severe low), and for the patient's open app (a medicine staff prescribe). Needs
// PostgreSQL (two instances share one database) and haproxy: on the embedded database it is skipped
// and says why.
import type { Browser, Page } from '@playwright/test';
import {
  apiAddReading,
  apiLogin,
  apiStaffLogin,
  expect,
  launchChromium,
  loginAdmin,
  loginPatient,
  startServer,
  test,
  type Balanced,
  type EddyServer,
} from '../fixtures/index.ts';

let server: EddyServer;
let browser: Browser | undefined;
let balanced: Balanced | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer();
  if (server.balanceUnavailable()) return;
  balanced = await server.balance();
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

/**
 * Records a reading through one instance; the moment its write is known made (the server's answer)
 * is when the 2 s start. The write's own round trip is not the feed's: on CI's loaded machine a
 * staff POST alone took 750 ms, and counting it failed a feed that delivered well within 2 s.
 */
async function record(url: string, type: 'Fasting' | 'Random', value: number): Promise<number> {
  const token = await apiLogin(url, '100001', 'Demo-patient-1');
  expect(await apiAddReading(url, token, { type, value })).toBe(201);
  return Date.now();
}

const cell = (page: Page, value: number) => page.getByRole('table', { name: 'Fasting' }).getByRole('cell', { name: new RegExp(`^${value}(\\s|$)`) });

test('a reading recorded through either instance shows in the review open through HAProxy within 2 s, and after the stream’s instance dies', async () => {
  test.skip(balanced === undefined, server?.balanceUnavailable() ?? 'no balancer');
  test.setTimeout(180_000);
  const lb = balanced as Balanced;
  const page = await (browser as Browser).newPage({ viewport: { width: 1280, height: 900 } });
  await loginAdmin(page, lb.url);
  await page.getByRole('radio', { name: /City General Hospital/ }).check();
  await page.getByLabel('Search by name or hospital number').fill('100001');
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/changes', { timeout: 30_000 });
  await page
    .getByRole('region', { name: 'Patients' })
    .getByRole('button', { name: /Open report.*Maria Lopez/ })
    .click();
  await page.getByText(/^Fetched /).waitFor({ timeout: 30_000 });
  expect((await stream).status()).toBe(200);
  await page.waitForTimeout(500);

  for (const [i, instance] of lb.instances.entries()) {
    const value = 511 + i;
    const sent = await record(instance.url, 'Fasting', value);
    await cell(page, value).waitFor({ timeout: 2_000 });
    expect(Date.now() - sent, `a reading through ${instance.name}`).toBeLessThan(2_000);
  }

  // The instance serving the stream dies: the device opens it again through HAProxy (from 3 s on),
  // on the other instance, and hears the next reading from there.
  const serving = (await lb.busy())[0];
  const victim = lb.instances.find((s) => s.name === serving) ?? lb.instances[0];
  const other = lb.instances.find((s) => s !== victim);
  if (!victim || !other) throw new Error('two instances were expected');
  await victim.kill();
  await page.waitForTimeout(5_000);
  const sent = await record(other.url, 'Fasting', 521);
  await cell(page, 521).waitFor({ timeout: 10_000 });
  test.info().annotations.push({ type: 'after the kill', description: `shown ${Date.now() - sent} ms after the write (stream held by ${String(serving)})` });
  await expect(page.getByRole('heading', { name: 'Maria Lopez', exact: true })).toBeVisible();
  await victim.restart();
});

test('a severe low recorded through either instance marks the worklist open through HAProxy within 2 s', async () => {
  test.skip(balanced === undefined, server?.balanceUnavailable() ?? 'no balancer');
  test.setTimeout(120_000);
  const lb = balanced as Balanced;
  const page = await (browser as Browser).newPage({ viewport: { width: 1280, height: 900 } });
  await loginAdmin(page, lb.url);
  await page.getByRole('radio', { name: /City General Hospital/ }).check();
  const worklist = page.getByRole('region', { name: 'Who needs you first' });
  await worklist.locator('.worklist-item').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1_500);
  const maria = worklist.locator('.worklist-item').filter({ hasText: 'Maria Lopez' });
  for (const [i, instance] of lb.instances.entries()) {
    // Each low counts among her reasons: her row reads differently each time.
    const before = await maria.textContent();
    const sent = await record(instance.url, 'Random', 41 - i);
    await expect.poll(() => maria.textContent(), { timeout: 2_000, intervals: [50] }).not.toBe(before);
    expect(Date.now() - sent, `a low through ${instance.name}`).toBeLessThan(2_000);
    await expect(maria.getByText('Updated', { exact: true })).toBeVisible();
  }
  await page.close();
});

test('a medicine prescribed through either instance shows in the patient’s app open through HAProxy within 2 s', async () => {
  test.skip(balanced === undefined, server?.balanceUnavailable() ?? 'no balancer');
  test.setTimeout(120_000);
  const lb = balanced as Balanced;
  const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let streams = 0;
  page.on('request', (r) => void (new URL(r.url()).pathname === '/api/changes' && streams++));
  await loginPatient(page, lb.url);
  await expect.poll(() => streams, { timeout: 20_000 }).toBeGreaterThan(0);
  await page.waitForTimeout(1_000);
  const admin = await apiStaffLogin(lb.url);
  for (const [i, instance] of lb.instances.entries()) {
    const name = `Acarbose ${50 + i} mg tablet`;
    const res = await fetch(`${instance.url}/api/admin/patients/100001/prescriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ prescrNo: `RX-LB-${i}`, name, dose: '1-0-0' }),
    });
    expect(res.status, await res.text()).toBe(201);
    const sent = Date.now();
    await page.getByTestId('medicines').getByText(name).waitFor({ timeout: 2_000 });
    expect(Date.now() - sent, `a prescription through ${instance.name}`).toBeLessThan(2_000);
  }
  await context.close();
});
