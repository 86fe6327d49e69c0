// Staff alerts on a network that does not reach the browser's push service (issue 46, item 4): a
// hospital network without internet. This machine has no internet either, so Chromium's own push
// service (no test stand-in here) is what a ward PC meets: "Turn alerts on" must say so within a
// few seconds, name what still works, and give the button back.
import { expect, loginAdmin, seedCookieChoice, seriousA11yViolations, test } from '../fixtures/index.ts';

test('without a reachable push service, "Turn alerts on" says so within seconds and points to the worklist', async ({ server, browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(seedCookieChoice);
    await context.grantPermissions(['notifications'], { origin: server.url });
    const page = await context.newPage();
    const alertCalls: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/admin/alerts/')) alertCalls.push(req.url());
    });
    await loginAdmin(page, server.url);
    await page.getByRole('radio', { name: /City General Hospital/ }).check();
    // The page's service worker is what the browser subscribes through.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    const card = page.getByTestId('staff-alerts');
    const turnOn = card.getByRole('button', { name: 'Turn alerts on' });
    const asked = Date.now();
    await turnOn.click();
    await card
      .getByRole('alert')
      .getByText(/^This network does not reach the browser’s push service/)
      .waitFor({ timeout: 15_000 });
    // Within a few seconds (6 s at most for a push service that never answers), not 25 s of a disabled button.
    expect(Date.now() - asked).toBeLessThan(9_000);
    await expect(turnOn).toBeEnabled();
    // No token was given to the server: there was none to give.
    expect(alertCalls).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    await context.close();
  }
});
