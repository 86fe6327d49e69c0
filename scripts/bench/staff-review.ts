// `staffReviewOpenColdMs` and `staffReviewOpenCachedMs` (issue 46): a clinician opening the review of
// a patient with 3 years of readings (4,400 more, one about every 6 hours), first on a device that
// has never opened it (one request for the whole review), then chosen again from the patients page,
// from the copy the device keeps (shown before the server is asked what changed). Medians of 5
// rounds, from the tap to the frame after the review's tables and status line are in the page.
import { median } from '../../report/statistics.ts';
import { launchChromium, loginAdmin, startServer } from '../../tests/fixtures/index.ts';
import { addReadings } from './app.ts';

const THREE_YEARS_OF_READINGS = 4_400;
const EVERY_MINUTES = Math.round((3 * 365 * 24 * 60) / THREE_YEARS_OF_READINGS);
const ROUNDS = 5;

export interface StaffReviewFigures {
  coldMs: number;
  cachedMs: number;
  colds: number[];
  cacheds: number[];
  /** The review reloaded (the app started anew), shown from the device's copy. */
  reloads: number[];
}

export async function staffReviewOpen(): Promise<StaffReviewFigures> {
  const server = await startServer();
  await server.stop();
  await addReadings(server.dataDir, THREE_YEARS_OF_READINGS, EVERY_MINUTES);
  await server.restart();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // When the review showed, taken in the page: the first frame after its tables and its status
    // line are in the document (ms since the epoch). Armed again before each measured step.
    const watch = () => {
      const w = window as unknown as { benchReviewAt?: number; benchObserver?: MutationObserver };
      w.benchObserver?.disconnect();
      delete w.benchReviewAt;
      const check = () => {
        const status = [...document.querySelectorAll('#staff-main [role="status"]')].some((el) => /^(Fetched|As of) /.test(el.textContent ?? ''));
        if (status && document.querySelector('.review-table')) {
          observer.disconnect();
          requestAnimationFrame(() => (w.benchReviewAt = performance.timeOrigin + performance.now()));
        }
      };
      const observer = new MutationObserver(check);
      w.benchObserver = observer;
      observer.observe(document, { childList: true, subtree: true });
    };
    const shownAt = async (): Promise<number> => {
      await page.waitForFunction(() => (window as unknown as { benchReviewAt?: number }).benchReviewAt !== undefined, undefined, { timeout: 60_000 });
      return page.evaluate(() => (window as unknown as { benchReviewAt: number }).benchReviewAt);
    };
    /** From the patients page: chooses Maria Lopez, and returns how long her review took to show. */
    const openFromList = async (): Promise<number> => {
      await page.getByLabel('Search by name or hospital number').fill('100001');
      const open = page.getByRole('region', { name: 'Patients' }).getByRole('button', { name: /Open report.*Maria Lopez/ });
      await open.waitFor({ timeout: 30_000 });
      await page.evaluate(watch);
      const start = Date.now();
      await open.click();
      const ms = (await shownAt()) - start;
      await page.getByText(/^Fetched /).waitFor({ timeout: 60_000 });
      return Math.round(ms);
    };
    await loginAdmin(page, server.url);
    await page.getByRole('radio', { name: /City General Hospital/ }).check();

    const colds: number[] = [];
    const cacheds: number[] = [];
    const reloads: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Cold: chosen on a device that holds no copy of the review (Reset forgot it).
      colds.push(await openFromList());
      // From the device: chosen again from the patients page, the copy kept.
      await page.getByRole('link', { name: 'Patients' }).click();
      await page.waitForURL(/\/admin\/hospital-select$/);
      cacheds.push(await openFromList());
      // And a reload of the review, the app started anew (for the log).
      await page.addInitScript(watch);
      const reloaded = Date.now();
      await page.reload();
      reloads.push(Math.round((await shownAt()) - reloaded));
      await page.getByText(/^Fetched /).waitFor({ timeout: 60_000 });
      // Forget it again for the next cold round.
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reset', exact: true }).click();
      await page.waitForURL(/\/admin\/hospital-select$/);
    }
    const mid = (values: number[]) => Math.round(median(values) ?? Number.NaN);
    return { coldMs: mid(colds), cachedMs: mid(cacheds), colds, cacheds, reloads };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}
