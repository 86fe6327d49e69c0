// The testers' own probes, in a real Chromium: what `mainThread` says of a page that has stopped
// answering (the chaos check logs it with a FINDING), so a frozen page tells its own code's endless
// loop from a stall of the browser's.
import { expect, test } from '../fixtures/index.ts';
import type { Browser } from '@playwright/test';
import { launchChromium, mainThread, watchMainThread } from '../fixtures/index.ts';

let browser: Browser;

test.beforeAll(async () => {
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
});

test('mainThread names the function a frozen page spins in, and says when no script runs', async () => {
  const context = await browser.newContext();
  watchMainThread(context);
  const page = await context.newPage();
  await page.setContent('<p>idle</p>');
  expect(await mainThread(page)).toMatch(/^main thread idle/);
  // The pause asked for runs at the next script, and goes on by itself: the page is not held.
  expect(await page.evaluate(() => 1 + 1)).toBe(2);

  // A script that never gives the thread back: the page answers no evaluate, takes no click.
  await page.setContent(`<script>function spinForever() { for (;;) {} } setTimeout(spinForever, 0);</script><button>Tap</button>`);
  await expect(page.getByRole('button', { name: 'Tap' }).click({ timeout: 1_500 })).rejects.toThrow(/Timeout/);
  expect(await mainThread(page)).toMatch(/^main thread in the page's code: spinForever /);
  await context.close();
});
