// The worked examples of TESTING.md, kept as tests so they stay true, and more offline/online
// scenarios in the same style, written with the fixtures of tests/fixtures (server, network, clock,
// patient, staff). The values (411–417 mg/dL) are ones the demo data never has (its readings stay
// below 260), so a count is of ours only.
import { DEMO_PATIENT, expect, recordGlucose, test, todayShows } from '../fixtures/index.ts';

// Each test has its own server, proxy and browser context: they can run on any worker.
test.describe.configure({ mode: 'parallel' });

test('a reading typed offline survives a reload and reaches the server once', async ({ patient, network, server }) => {
  await network.offline();
  await patient.recordGlucose(411);
  await patient.page.reload();
  await todayShows(patient.page, 'Random', 411).waitFor();
  expect(await server.api.readings()).not.toContainEqual(expect.objectContaining({ value: 411 }));

  await network.online();
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 411).length, { timeout: 30_000 }).toBe(1);
});

test('the server saves a reading but the answer is lost: the device sends it again and it is kept once', async ({ patient, network, server }) => {
  network.loseResponses(1);
  await patient.recordGlucose(412);
  // The device heard nothing, so it asks again; the server answers the repeat with its first answer.
  await expect.poll(() => network.seen('POST', '/api/glucose/add'), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  expect(network.stats().lost).toBe(1);
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 412).length, { timeout: 30_000 }).toBe(1);
  // Settled: no further sends, still one.
  await patient.page.reload();
  await todayShows(patient.page, 'Random', 412).waitFor();
  expect((await server.api.readings()).filter((r) => r.value === 412)).toHaveLength(1);
});

test('the server is killed with writes queued and answers 503 twice after its restart: nothing is lost or doubled', async ({ patient, network, server }) => {
  await network.offline();
  await patient.recordGlucose(413);
  await patient.recordGlucose(414);
  await server.kill();
  await network.online();
  network.serverErrors(2, 503);
  await server.restart();
  await expect
    .poll(
      async () =>
        (await server.api.readings())
          .filter((r) => r.value === 413 || r.value === 414)
          .map((r) => r.value)
          .sort(),
      { timeout: 45_000 },
    )
    .toEqual([413, 414]);
  expect(network.stats().failed).toBe(2);
});

test('a reload with the clock eight days ahead: the server still holds the session, so the patient stays logged in', async ({ patient, clock }) => {
  // The sealed session item's 7 days are over by the device's clock; the server, asked, decides.
  await clock.setSystemTime(new Date(Date.now() + 8 * 86_400_000));
  await patient.page.reload();
  await patient.page.getByLabel(/^Glucose \((mg\/dL|mmol\/L)\)$/).waitFor();
  expect(new URL(patient.page.url()).pathname).toBe('/app');
});

test('a reload offline with the clock eight days ahead ends the session and says so, keeping the unsent reading', async ({
  patient,
  network,
  clock,
  server,
}) => {
  await network.offline();
  await patient.recordGlucose(417);
  await clock.setSystemTime(new Date(Date.now() + 8 * 86_400_000));
  await patient.page.reload();
  // Never a silent return to the login page: the patient is told why.
  await patient.page.getByText('Session Expired. Please login again.').waitFor();
  await patient.page.getByLabel('Hospital number').waitFor();
  await clock.setSystemTime(new Date());
  await network.online();
  await patient.page.getByLabel('Hospital number').fill(patient.hospNo);
  await patient.page.getByLabel('Password', { exact: true }).fill(DEMO_PATIENT.password);
  await patient.page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 417).length, { timeout: 30_000 }).toBe(1);
});

test('a second tab of the same patient sees a reading typed offline in the first, and it is sent once', async ({ patient, network, server }) => {
  const tab = await patient.newTab();
  await network.offline();
  await patient.recordGlucose(415);
  await todayShows(tab, 'Random', 415).waitFor({ timeout: 15_000 });
  await network.online();
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 415).length, { timeout: 30_000 }).toBe(1);
  expect(network.seen('POST', '/api/glucose/add')).toBeGreaterThanOrEqual(1);
});

test('a second tab that does not lead the sync says it is back online once the server answers again', async ({ patient, network, server }) => {
  const tab = await patient.newTab();
  // The first tab leads the replication; the second only sends its outbox and asks the first to pull.
  await network.offline();
  await recordGlucose(tab, 418);
  const badge = tab.getByTestId('sync-badge');
  await expect(badge).toContainText('Offline:', { timeout: 30_000 });
  await network.online();
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 418).length, { timeout: 30_000 }).toBe(1);
  // Waited 30 s for a replication that never runs in that tab, and kept the notice (chaos review).
  await expect(badge.filter({ hasText: 'Offline:' })).toHaveCount(0, { timeout: 20_000 });
});

test('a device whose clock runs eight days ahead: the server refuses the reading, the patient is told why and nothing is lost', async ({
  patient,
  network,
  server,
  clock,
}) => {
  await clock.setSystemTime(new Date(Date.now() + 8 * 86_400_000));
  await network.offline();
  await patient.recordGlucose(416);
  await network.online();
  const notice = patient.page.getByTestId('refused-notice');
  await notice.getByText("1 entry was not accepted by your hospital's server.").waitFor({ timeout: 30_000 });
  // The offline notice above it goes once the sync is done. It used to take the page up with it, and
  // a click aimed before that landed on the greeting below (fresh-clone CI run of 2026-11-30); it
  // now holds its room as "Up to date" (next test), and the test still waits for the sync to end.
  await expect(patient.page.getByTestId('sync-badge')).toHaveCount(0, { timeout: 30_000 });
  await notice.getByRole('button', { name: 'Review' }).click();
  const review = patient.page.getByRole('dialog', { name: 'Entries not accepted' });
  await review.getByText(/cannot be in the future: check the date and time of the device/).waitFor();
  // Kept on the device (sealed, in the refused list) until the patient decides; never on the server.
  await expect(todayShows(patient.page, 'Random', 416)).not.toHaveCount(0);
  expect((await server.api.readings()).some((r) => r.value === 416)).toBe(false);
});

test('the page under the sync bar stays put: entries on their way are announced only after a second, and a bar that was seen holds its room as "Up to date" until another page opens', async ({
  patient,
  network,
}) => {
  const { page } = patient;
  const bar = page.getByTestId('sync-badge');
  const done = page.getByTestId('sync-done');
  // When the bar came (it is there, hidden, as soon as an entry waits) and when it was first seen.
  await page.evaluate(() => {
    const times: { came?: number; seen?: number } = {};
    Object.assign(window, { syncBarTimes: times });
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="sync-badge"]');
      if (!el) return;
      times.came ??= performance.now();
      if (!el.hasAttribute('hidden')) times.seen ??= performance.now();
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
  });
  const heading = page.getByRole('heading', { level: 1 });
  const headingTop = async () => (await heading.boundingBox())?.y;

  // Online, a send that takes 2.5 s: the bar says so only once the second is over, whatever the machine's speed.
  network.latency(2_500);
  await patient.recordGlucose(419);
  await bar.getByText('Sending your entries…').waitFor({ timeout: 15_000 });
  const times = await page.evaluate(() => (window as unknown as { syncBarTimes: { came?: number; seen?: number } }).syncBarTimes);
  expect(times.came).toBeDefined();
  expect((times.seen ?? 0) - (times.came ?? 0)).toBeGreaterThanOrEqual(1_000);
  await page.evaluate(() => window.scrollTo(0, 0));
  const whileSending = await headingTop();
  await done.getByText(/Up to date: last synchronized /).waitFor({ timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  expect(await headingTop()).toBe(whileSending);
  network.latency(0);

  // Offline at the top of the dashboard: the bar pushes the page down once; back online, the page does not move up.
  await network.offline();
  await patient.recordGlucose(420);
  await page.evaluate(() => window.scrollTo(0, 0));
  await bar.getByText(/Offline:/).waitFor();
  const whileOffline = await headingTop();
  await network.online();
  await done.getByText(/Up to date: last synchronized /).waitFor({ timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  expect(await headingTop()).toBe(whileOffline);

  // Another page: the held room goes with the page it was held on.
  await page.getByRole('link', { name: 'Symptoms' }).click();
  await page.getByRole('heading', { level: 1, name: 'Symptoms' }).waitFor();
  await expect(done).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  // Nor does it come back with the page it was held on.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByLabel(/^Glucose \((mg\/dL|mmol\/L)\)$/).waitFor();
  await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
  expect(await done.count()).toBe(0);
});

test('a logout tapped the moment a reading is saved offline, on a slowed CPU, always asks and counts every unsent entry', async ({
  patient,
  network,
  server,
}) => {
  // Issue 44: the question counted only the outbox, which a save reaches a moment later; a logout in
  // that moment could wipe the reading without asking. Eight times, each tap right after Save.
  test.setTimeout(240_000);
  const { page } = patient;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  await network.offline();
  const ask = page.getByRole('dialog', { name: 'Log out and delete unsent entries?' });
  // Values without advice (a dialog would come first); the demo data may hold them, so counts are compared.
  const values = [231, 232, 233, 234, 235, 236, 237, 238];
  const count = async () => (await server.api.readings()).filter((r) => values.includes(r.value)).length;
  const before = await count();
  for (const [i, value] of values.entries()) {
    await page.getByRole('radio', { name: 'Random' }).check();
    await page.getByLabel(/^Glucose \((mg\/dL|mmol\/L)\)$/).fill(String(value));
    // Save, and Log out in the same turn of the page: no moment for the save to reach the outbox.
    await page.evaluate(() => {
      const byText = (root: ParentNode, text: string) =>
        [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === text || b.getAttribute('aria-label') === text);
      byText(document, 'Save reading')?.click();
      const header = document.querySelector('header');
      (header && byText(header, 'Log out'))?.click();
    });
    await ask.waitFor({ timeout: 30_000 });
    const n = i + 1;
    await expect(ask.getByTestId('unsent-warning')).toContainText(`${n} ${n === 1 ? 'entry has' : 'entries have'} not reached your hospital yet.`);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await network.online();
  await expect.poll(count, { timeout: 60_000 }).toBe(before + values.length);
  // Settled, and still each once.
  await page.reload();
  await page.getByTestId('today-readings').waitFor();
  expect(await count()).toBe(before + values.length);
});
