// The testers' own probes, in a real Chromium: what `mainThread` says of a page that has stopped
// answering (the chaos check logs it with a FINDING), so a frozen page tells its own code's endless
// loop from a stall of the browser's; that `coveredControls` names a control something covers, and
// only that; and that `misplacedUnitPunctuation` names a unit whose full stop shows on the far side.
import { expect, test } from '../fixtures/index.ts';
import type { Browser } from '@playwright/test';
import { coveredControls, launchChromium, mainThread, misplacedUnitPunctuation, watchMainThread } from '../fixtures/index.ts';

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

test('coveredControls names a control under a card that stays on screen, and not one the tab bar’s scroll padding lets be scrolled clear', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  // A phone page: a tab bar fixed at the bottom with the scroll padding that keeps focus above it; a
  // button under a card fixed over it, one under the tab bar as the page opens (scrolled clear of it,
  // as a patient would), and a field far down the page.
  await page.setContent(`
    <style>html { scroll-padding-block-end: 80px } body { margin: 0 } nav { position: fixed; inset-block-end: 0; inset-inline: 0; block-size: 72px; background: #eee }
      .card { position: fixed; inset-block-start: 100px; inset-inline: 0; block-size: 100px; background: #ccf }</style>
    <main>
      <button style="margin-block-start: 130px">Save reading</button>
      <div style="block-size: 440px"></div>
      <button>Show more</button>
      <div style="block-size: 2000px"></div>
      <input aria-label="Note">
      <div style="block-size: 600px"></div>
    </main>
    <div class="card">Install Eddy on this device</div>
    <nav><a href="#">Home</a></nav>`);
  expect(await coveredControls(page)).toEqual(['button "Save reading" is covered by div.card']);
  // With the card gone nothing is covered, the controls near the bar included.
  await page.evaluate(() => document.querySelector('.card')?.remove());
  expect(await coveredControls(page)).toEqual([]);
  await page.close();
});

test('misplacedUnitPunctuation names a unit whose full stop a left-to-right island keeps on the far side of an Arabic sentence, and not one the sentence places', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  await page.setContent(`
    <main dir="rtl">
      <p>الشريط المظلل هو النطاق، 70–180 mg/dL.</p>
      <p>الانحراف المعياري 49 mg/dL؛ والهدف 36% أو أقل.</p>
      <p>النطاق <span dir="ltr">70–180 mmol/L.</span></p>
      <p dir="ltr">Range 70–180 mg/dL.</p>
    </main>`);
  const found = await misplacedUnitPunctuation(page);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatch(/^"mmol\/L\." in right-to-left text shows its "\." on the far side: /);
  await page.close();
});
