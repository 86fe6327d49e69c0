// The patient's open app hears its own records change (issue 46's proof, the patient's side): staff
// prescribe a medicine, or the patient's other device records a reading, and the open dashboard
// shows it within 2 s, without a reload and before the app's own 10-minute refresh; a hidden page
// closes its stream and, shown again, catches up on what changed meanwhile. Through two instances
// behind HAProxy: tests/e2e/live-changes-balanced.spec.ts.
import { apiAddReading, apiLogin, apiStaffLogin, expect, test, until, type FaultProxy } from '../fixtures/index.ts';

async function prescribe(url: string, token: string, name: string, dose: string): Promise<void> {
  const res = await fetch(`${url}/api/admin/patients/100001/prescriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ prescrNo: 'RX-LIVE-1', name, dose }),
  });
  expect(res.status, await res.text()).toBe(201);
}

/** The app's change stream asked for (through the test's proxy), and its `ready` and the start's own pull over. */
async function streamOpen(network: FaultProxy): Promise<void> {
  await until('the change stream asked for', async () => (network.seen('GET', '/api/changes') > 0 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

test.describe("the patient's open app, live", () => {
  test('a medicine staff prescribe and a reading from the other device show within 2 s, without a reload', async ({ patient, server, network }) => {
    const { page } = patient;
    let loads = 0;
    page.on('load', () => loads++);
    await streamOpen(network);
    const admin = await apiStaffLogin(server.url);

    // Each 2 s start when the write is known made (the server's answer): its own round trip is not the feed's.
    await prescribe(server.url, admin, 'Pioglitazone 15 mg tablet', '1-0-0');
    const sent = Date.now();
    await page.getByTestId('medicines').getByText('Pioglitazone 15 mg tablet').waitFor({ timeout: 2_000 });
    expect(Date.now() - sent, 'a prescription shown after').toBeLessThan(2_000);

    const other = await apiLogin(server.url, '100001', 'Demo-patient-1');
    expect(await apiAddReading(server.url, other, { type: 'Fasting', value: 377 })).toBe(201);
    const recorded = Date.now();
    await page.getByTestId('latest-Fasting').getByText('377', { exact: true }).first().waitFor({ timeout: 2_000 });
    expect(Date.now() - recorded, 'a reading from the other device shown after').toBeLessThan(2_000);
    expect(loads, 'page loads').toBe(0);
  });

  test('a hidden app follows nothing; shown again, it catches up on what changed meanwhile', async ({ patient, server, network }) => {
    const { page } = patient;
    await streamOpen(network);
    const hide = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await hide(true);
    const asked: string[] = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p === '/api/changes' || p === '/api/glucose') asked.push(p);
    });
    const other = await apiLogin(server.url, '100001', 'Demo-patient-1');
    expect(await apiAddReading(server.url, other, { type: 'Fasting', value: 388 })).toBe(201);
    await page.waitForTimeout(2_000);
    expect(asked, 'requests while hidden').toEqual([]);
    await expect(page.getByTestId('latest-Fasting').getByText('388', { exact: true })).toHaveCount(0);

    const shown = Date.now();
    await hide(false);
    await page.getByTestId('latest-Fasting').getByText('388', { exact: true }).first().waitFor({ timeout: 3_000 });
    expect(Date.now() - shown, 'shown again, caught up after').toBeLessThan(3_000);
    expect(asked).toContain('/api/changes');
  });
});
