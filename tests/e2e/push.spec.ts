// Reminders end to end in Chromium (issue 6 proof): the dashboard offers reminders without asking on
// page load; with notifications granted the app subscribes and gives the server its token; a push
// delivered to the service worker through the DevTools protocol (ServiceWorker.deliverPushMessage)
// shows the notification with its two actions and a pending entry on the dashboard; malformed
// pushes and pushes after logout show nothing; "Mark as Taken" records the dose on the server with
// the page open and with it closed; "Remind Later" asks the server; pending entries expire after 2 h.
//
// The browser's push service is the one thing faked: Chromium subscribes through Google's servers,
// which a test machine cannot reach, so PushManager.subscribe is replaced in the page by one that
// hands out a subscription of an unreachable https endpoint. Everything after it is real, the
// server's key (GET /api/push/config) included.
//
// The last case runs the whole chain with a push service of our own (server/testing/push-peer.ts,
// on loopback): the server's scheduler sends a due reminder to the subscription the page made, the
// peer decrypts it with the subscription's private key, and exactly that text is delivered to the
// worker, whose "Mark as Taken" records the dose on the server.
import { expect, test } from '../fixtures/index.ts';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request, Worker } from '@playwright/test';
import { formatClockTime, zoneShortName } from '../../src/lib/dates.ts';
import { startPushPeer, verifyVapid, type PushPeer, type PushRequest } from '../../server/testing/push-peer.ts';
import {
  apiLogin,
  closeToasts,
  launchChromium,
  note,
  SCREENSHOT_DIR,
  screenshot,
  seriousA11yViolations,
  startServer,
  uiLogin,
  type EddyServer,
  until,
} from '../fixtures/index.ts';
import { click, closeNotifications, installPushService, pushChannel, shownNotifications, type SubscriptionJSON } from '../fixtures/push.ts';
import { watchContext } from '../fixtures/trail.ts';

let server: EddyServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
});

test.afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.cleanup();
});

const PRESCR = 'RX-100001-01';
const medicinePush = (tag: string, extra: Record<string, string> = {}) => ({
  notification: { title: 'Time for your medicine', body: 'Metformin 500 mg tablet — 1 (breakfast, 08:00)', tag },
  data: {
    type: 'medicine',
    prescrNo: PRESCR,
    medicineName: 'Metformin 500 mg tablet',
    dose: '1-0-1',
    time: '08:00',
    meal: 'breakfast',
    notificationTime: new Date().toISOString(),
    ...extra,
  },
});

/**
 * A context like a patient's phone; `granted` = notifications already allowed for the app. The
 * subscription PushManager.subscribe hands out is `subscription` when given (the push peer's),
 * otherwise one at an unreachable https endpoint with fixed keys.
 */
async function newContext(opts: {
  granted: boolean;
  width?: number;
  at?: EddyServer;
  subscription?: SubscriptionJSON;
  timezoneId?: string;
}): Promise<BrowserContext> {
  const origin = (opts.at ?? server).url;
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 360, height: 780 },
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  contexts.push(context);
  // A failing case prints what the pages and the service worker did (tests/fixtures/trail.ts): a
  // push the worker dropped says why in its console ("the session could not be read", …).
  watchContext(context);
  const noteWorker = (w: Worker) =>
    w.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') note(`service worker ${m.type()}: ${m.text()}`);
    });
  context.serviceWorkers().forEach(noteWorker);
  context.on('serviceworker', noteWorker);
  if (opts.granted) await context.grantPermissions(['notifications'], { origin });
  // The push service (see the header): a subscription kept in localStorage across reloads.
  await installPushService(context, opts.subscription ?? null);
  return context;
}

/** One part of the page, for a closer look than the full-page screenshots give. */
const snap = (locator: ReturnType<Page['locator']>, name: string) => locator.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });

const waiting = (page: Page) => page.getByTestId('medicines').locator('.pending');

/**
 * Makes the worker keep every promise its event handlers give event.waitUntil (test-only, in the
 * worker's global), so that `handled` can wait until the worker has finished with each push.
 */
async function trackWorkerHandling(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    type Handling = { type: string; promise: Promise<unknown>; at: number; outcome?: string };
    const scope = self as unknown as { e2eHandling?: Handling[] };
    if (scope.e2eHandling) return;
    scope.e2eHandling = [];
    const original = ExtendableEvent.prototype.waitUntil;
    ExtendableEvent.prototype.waitUntil = function (this: ExtendableEvent, promise: Promise<unknown>) {
      const handling: Handling = { type: this.type, promise, at: Date.now() };
      // How it ended, and when: a failure can then tell a worker still busy from one that gave up.
      promise.then(
        () => (handling.outcome = `done after ${Date.now() - handling.at} ms`),
        (err: unknown) => (handling.outcome = `failed after ${Date.now() - handling.at} ms: ${String(err)}`),
      );
      scope.e2eHandling?.push(handling);
      return original.call(this, promise);
    };
  });
}

/** How many push events the worker has received since trackWorkerHandling. */
function pushesReceived(worker: Worker): Promise<number> {
  return worker.evaluate(() => ((self as unknown as { e2eHandling?: { type: string }[] }).e2eHandling ?? []).filter((h) => h.type === 'push').length);
}

/** What became of the worker's push events from the `from`-th on: "done after N ms", "failed …" or "still running after N ms". */
function pushOutcomes(worker: Worker, from: number): Promise<string[]> {
  return worker.evaluate(
    (from) =>
      ((self as unknown as { e2eHandling?: { type: string; at: number; outcome?: string }[] }).e2eHandling ?? [])
        .filter((h) => h.type === 'push')
        .slice(from)
        .map((h) => h.outcome ?? `still running after ${Date.now() - h.at} ms`),
    from,
  );
}

/** Resolves once the worker has finished handling every event since trackWorkerHandling. */
async function handled(worker: Worker): Promise<void> {
  await worker.evaluate(async () => {
    const scope = self as unknown as { e2eHandling?: { promise: Promise<unknown> }[] };
    if (!scope.e2eHandling) throw new Error('the worker was restarted: its handling is no longer tracked');
    await Promise.allSettled(scope.e2eHandling.map((h) => h.promise));
  });
}

/** How many pushes the worker left in the push inbox that the page has not taken yet. */
function inboxCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('eddy-push-inbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          if (!open.result.objectStoreNames.contains('items')) return resolve(0);
          const req = open.result.transaction('items').objectStore('items').count();
          req.onsuccess = () => resolve(req.result);
        };
      }),
  );
}

async function serverDoses(token: string, since: string, at: EddyServer = server): Promise<{ _id: string; prescrNo: string; takenAt: string }[]> {
  const res = await fetch(`${at.url}/api/user/medicines/taken?since=${encodeURIComponent(since)}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { taken: { _id: string; prescrNo: string; takenAt: string }[] }).taken;
}

test.describe('reminders in Chromium', () => {
  test('offers reminders on the dashboard without asking on load; "Not now" is remembered; 360 px, 1280 px, RTL, axe', async () => {
    test.setTimeout(120_000);
    const context = await newContext({ granted: false });
    const page = await context.newPage();
    const asked: string[] = [];
    await page.exposeFunction('e2eAsked', (what: string) => asked.push(what));
    await page.addInitScript(() => {
      const original = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args) => {
        (window as unknown as { e2eAsked(w: string): void }).e2eAsked('requestPermission');
        return original(...args);
      };
    });
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    const prompt = page.getByTestId('reminders-prompt');
    await prompt.getByRole('heading', { name: 'Reminders' }).waitFor({ timeout: 30_000 });
    await prompt.getByText(/meal times to take your medicines/).waitFor();
    await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
    expect(asked).toEqual([]);
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    await screenshot(page, 'reminders-prompt-360');
    await snap(prompt, 'reminders-prompt-card-360');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    await screenshot(page, 'reminders-prompt-360-rtl');
    await snap(prompt, 'reminders-prompt-card-360-rtl');
    await page.evaluate(() => document.documentElement.removeAttribute('dir'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'reminders-prompt-1280');
    await snap(page.locator('main'), 'reminders-prompt-main-1280');

    // The profile says so and offers the same.
    await page.getByRole('link', { name: 'Profile' }).click();
    const section = page.getByTestId('reminders-settings');
    await section.getByText('Reminders are off for this device.').waitFor();
    await section.getByRole('button', { name: 'Turn on reminders' }).waitFor();
    await snap(section, 'reminders-settings-off-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
    expect(await prompt.count()).toBe(0);
    expect(asked).toEqual([]);
  });

  test.describe('with notifications allowed', () => {
    // Each case goes on from where the one before left the device (logged in, subscribed, the
    // DevTools channel open): after a failure the rest are skipped, not failed for want of a channel.
    test.describe.configure({ mode: 'serial' });
    let context: BrowserContext;
    let page: Page;
    /** A second, blank tab: keeps the DevTools session when the app's tab is closed. */
    let keeper: Page;
    let channel: Awaited<ReturnType<typeof pushChannel>>;
    /**
     * The service worker as it runs now: the browser may stop an idle worker and start it again for
     * the next event, and a handle to the stopped one answers nothing.
     */
    const liveWorker = async (): Promise<Worker> => context.serviceWorkers().at(-1) ?? (await context.waitForEvent('serviceworker'));
    let token: string;
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    const requests: Request[] = [];
    /**
     * Delivers a push and waits until the worker shows the notification with `tag`. A push service
     * keeps a message until the browser takes it; the DevTools delivery does not, and a worker that
     * the browser was stopping when it came loses it (seen on a loaded CI machine: no notification,
     * the app closed). So a push the worker never received is delivered again, at most twice more;
     * one it received and did not show fails at once, with what the worker logged.
     */
    const deliverUntilShown = async (payload: unknown, tag: string): Promise<void> => {
      for (let attempt = 1; ; attempt++) {
        const worker = await liveWorker();
        await trackWorkerHandling(worker);
        const received = await pushesReceived(worker);
        await channel.deliver(payload);
        const isShown = async () =>
          (await (
            await liveWorker()
          ).evaluate(async (tag) => (await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications({ tag })).length, tag)) > 0
            ? true
            : undefined;
        try {
          await until(`the notification ${tag}`, isShown, 15_000);
          return;
        } catch (err) {
          const same = (await liveWorker()) === worker;
          const got = same ? (await pushesReceived(worker).catch(() => received)) - received : 0;
          if (got > 0) {
            // Received: the worker must show it. One still handling it on a loaded machine is given
            // its time (said in the trail); one that finished without showing it is the fault.
            const outcomes = await pushOutcomes(worker, received).catch((e: unknown) => [`unknown (${String(e)})`]);
            note(`push ${tag}: received ${got} time(s), not shown after 15 s; the handling: ${outcomes.join('; ')}`);
            if (outcomes.some((o) => o.startsWith('still running'))) {
              await until(`the notification ${tag} (its push still being handled after 15 s)`, isShown, 45_000).catch(async (late: unknown) => {
                const shown = await (
                  await liveWorker()
                )
                  .evaluate(async () => (await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications()).map((n) => n.tag))
                  .catch(() => []);
                throw new Error(
                  `${String(late)}: the handling ${(await pushOutcomes(worker, received).catch(() => outcomes)).join('; ')}; shown now: [${shown.join(', ')}]`,
                  { cause: late },
                );
              });
              return;
            }
            const shown = await (
              await liveWorker()
            )
              .evaluate(async () => (await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications()).map((n) => n.tag))
              .catch(() => []);
            throw new Error(
              `${err instanceof Error ? err.message : String(err)}: the worker received the push ${got} time(s) and showed nothing (the handling: ${outcomes.join('; ')}; shown now: [${shown.join(', ')}])`,
              { cause: err },
            );
          }
          if (attempt === 3) throw new Error(`${err instanceof Error ? err.message : String(err)}: the worker received none of 3 deliveries`, { cause: err });
          note(`push ${tag}: the worker ${same ? 'never received the delivery' : 'was restarted meanwhile'} (attempt ${attempt}); delivered again`);
        }
      }
    };
    /** What the server answered the worker's remindLater requests (their bodies are not kept otherwise). */
    const remindLaterAnswers: { status: number; body: unknown }[] = [];

    test.beforeAll(async () => {
      context = await newContext({ granted: true });
      context.on('request', (r) => requests.push(r));
      await context.route('**/api/users/medicines/remindLater', async (route) => {
        const response = await route.fetch();
        remindLaterAnswers.push({ status: response.status(), body: await response.json() });
        await route.fulfill({ response });
      });
      keeper = await context.newPage();
      page = await context.newPage();
      token = await apiLogin(server.url, '100001', 'Demo-patient-1');
    });

    test('subscribes after login and gives the server the token with the time zone and language', async () => {
      test.setTimeout(120_000);
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/users/notificationToken') && r.method() === 'POST', { timeout: 60_000 });
      await uiLogin(page, server.url, '100001', 'Demo-patient-1');
      const body = (await posted).postDataJSON() as { token: { endpoint: string; keys: { p256dh: string; auth: string } }; timeZone?: string; locale?: string };
      expect(body.token.endpoint).toMatch(/^https:\/\/push\.invalid\/send\/e2e-/);
      expect(body.token.keys.auth).toBe('AAAAAAAAAAAAAAAAAAAAAA');
      expect(body.timeZone).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
      expect(body.locale).toBe('en');
      expect((await (await posted).response())?.status()).toBe(200);
      // The subscription was made with the server's own key.
      const config = (await (await fetch(`${server.url}/api/push/config`)).json()) as { provider: string; publicKey: string };
      expect(config.provider).toBe('webpush');
      const made = JSON.parse((await page.evaluate(() => localStorage.getItem('e2e-push-subscription'))) ?? '{}') as { key?: string };
      expect(made.key).toBe(Buffer.from(config.publicKey, 'base64url').toString('base64'));
      // No prompt: the browser already allows notifications.
      await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('reminders-prompt').count()).toBe(0);
      // The record is sealed, category security, kept 30 days (docs/requirements.md §9): the endpoint appears in
      // no envelope in plain form.
      const envelope = await until('the token record', async () => {
        const raw = await page.evaluate(() => localStorage.getItem('user_fcmToken'));
        return raw ? (JSON.parse(raw) as { category: string; maxAge: number; data: string }) : undefined;
      });
      expect(envelope).toMatchObject({ category: 'security', maxAge: 30 * 86_400_000 });
      const envelopes = await page.evaluate(() =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('user_'))
          .map((k) => localStorage.getItem(k) ?? ''),
      );
      for (const e of envelopes) expect(e).not.toContain(body.token.endpoint);

      channel = await pushChannel(keeper, server);
    });

    test('the profile turns reminders off (unsubscribing and telling the server) and on again', async () => {
      test.setTimeout(90_000);
      await page.getByRole('link', { name: 'Profile' }).click();
      const section = page.getByTestId('reminders-settings');
      await section.getByText('Reminders are on for this device.').waitFor();
      await snap(section, 'reminders-settings-on-360');
      expect(await seriousA11yViolations(page)).toEqual([]);
      const removed = page.waitForRequest((r) => r.url().endsWith('/api/users/notificationToken/remove'));
      await section.getByRole('button', { name: 'Turn off reminders' }).click();
      expect((await removed).postDataJSON()).toEqual({ endpoint: expect.stringMatching(/^https:\/\/push\.invalid\//) });
      await section.getByText('Reminders are off for this device.').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('e2e-push-subscription'))).toBeNull();
      // Off survives a reload although the browser still allows notifications.
      await page.reload();
      await section.getByText('Reminders are off for this device.').waitFor({ timeout: 30_000 });

      const saved = page.waitForRequest((r) => r.url().endsWith('/api/users/notificationToken') && r.method() === 'POST');
      await section.getByRole('button', { name: 'Turn on reminders' }).click();
      await saved;
      await section.getByText('Reminders are on for this device.').waitFor();
      await page.getByText('Reminders are on', { exact: true }).first().waitFor();
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
    });

    test('ignores malformed pushes: no notification part, no data part, a medicine missing a field', async () => {
      test.setTimeout(60_000);
      const good = medicinePush('med-malformed');
      const noDose: Partial<typeof good.data> = { ...good.data };
      delete noDose.dose;
      const worker = await liveWorker();
      await trackWorkerHandling(worker);
      const received = await pushesReceived(worker);
      for (const bad of [{ data: good.data }, { notification: good.notification }, { notification: good.notification, data: noDose }, 'not json at all']) {
        await channel.deliver(bad);
      }
      // A valid glucometer day after them: once it shows, the malformed ones were handled.
      await channel.deliver({
        notification: { title: 'Glucometer day', body: 'Today is a glucose check day: please check your blood glucose.', tag: 'gluco-e2e' },
        data: { type: 'glucometerAlert', time: '08:00' },
      });
      const shown = await until('the glucometer notification', async () => {
        const list = await shownNotifications(page);
        return list.some((n) => n.tag === 'gluco-e2e') ? list : undefined;
      });
      expect(shown).toEqual([
        { title: 'Glucometer day', body: 'Today is a glucose check day: please check your blood glucose.', tag: 'gluco-e2e', actions: [] },
      ]);
      await page.getByText('Today is a glucose check day: please check your blood glucose.').first().waitFor();
      // The worker has finished with every push, and the page has taken all it left in the inbox: a
      // malformed reminder let through would be a pending entry by now.
      await expect.poll(() => pushesReceived(worker)).toBe(received + 5);
      await handled(worker);
      await expect.poll(() => inboxCount(page)).toBe(0);
      expect(await waiting(page).count()).toBe(0);
      await closeNotifications(page);
    });

    test('titles the two actions in the language the server words the reminder in', async () => {
      test.setTimeout(60_000);
      const push = medicinePush('med-e2e-hi');
      const notification = {
        ...push.notification,
        title: 'आपकी दवा का समय',
        actions: [
          { action: 'taken', title: 'दवा ले ली' },
          { action: 'later', title: 'बाद में याद दिलाएँ' },
        ],
      };
      await channel.deliver({ ...push, notification });
      const shown = await until('the Hindi reminder', async () => (await shownNotifications(page)).find((n) => n.tag === 'med-e2e-hi'));
      expect(shown.actions).toEqual([
        { action: 'taken', title: 'दवा ले ली' },
        { action: 'later', title: 'बाद में याद दिलाएँ' },
      ]);
      await closeNotifications(page);
    });

    test('shows a medicine reminder with both actions and lists it as waiting on the dashboard', async () => {
      test.setTimeout(60_000);
      await deliverUntilShown(medicinePush('med-e2e-1'), 'med-e2e-1');
      const shown = await until('the reminder notification', async () => (await shownNotifications(page)).find((n) => n.tag === 'med-e2e-1'));
      expect(shown).toEqual({
        title: 'Time for your medicine',
        body: 'Metformin 500 mg tablet — 1 (breakfast, 08:00)',
        tag: 'med-e2e-1',
        actions: [
          { action: 'taken', title: 'Mark as Taken' },
          { action: 'later', title: 'Remind Later' },
        ],
      });
      await waiting(page).getByText('Metformin 500 mg tablet').waitFor({ timeout: 15_000 });
      // The meal time as the device's locale writes it (en-US here).
      await waiting(page)
        .getByText(/^Due 8:00\sAM · prescription RX-100001-01$/)
        .waitFor();
      await page.getByText('Metformin 500 mg tablet, 1-0-1 (08:00)').first().waitFor();
      // The notices cover the card in a phone-sized screenshot.
      await closeToasts(page);
      await screenshot(page, 'dashboard-pending-reminder-360');
      await snap(page.getByTestId('medicines'), 'pending-reminder-card-360');
      await page.setViewportSize({ width: 1280, height: 900 });
      await screenshot(page, 'dashboard-pending-reminder-1280');
      await page.setViewportSize({ width: 360, height: 780 });
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('"Mark as Taken" with the app open records the dose through the page and clears the reminder', async () => {
      test.setTimeout(90_000);
      const clickedAt = Date.now();
      await click(await liveWorker(), 'med-e2e-1', 'taken');
      await page.getByText('Medicine recorded successfully').first().waitFor({ timeout: 15_000 });
      await waiting(page).waitFor({ state: 'detached', timeout: 15_000 });
      // `since` filters by the server's change time, which the demo's own doses (seeded when the
      // server started) also pass: the dose is the one taken after the click.
      const dose = await until(
        'the dose on the server',
        async () => (await serverDoses(token, startedAt)).find((d) => d.prescrNo === PRESCR && Date.parse(d.takenAt) >= clickedAt - 1_000),
        45_000,
      );
      expect(Date.now() - Date.parse(dose.takenAt)).toBeLessThan(120_000);
      expect(await shownNotifications(page)).toEqual([]);
    });

    test('"Remind Later" asks the server to send the reminder again in 15 minutes and says so', async () => {
      test.setTimeout(60_000);
      await deliverUntilShown(medicinePush('med-e2e-2'), 'med-e2e-2');
      const before = Date.now();
      await click(await liveWorker(), 'med-e2e-2', 'later');
      const request = await until('the remindLater request', async () => requests.find((r) => r.url().endsWith('/api/users/medicines/remindLater')));
      const body = request.postDataJSON() as Record<string, string>;
      expect(body).toMatchObject({ prescrNo: PRESCR, medicineName: 'Metformin 500 mg tablet', dose: '1-0-1', time: '08:00' });
      expect(body['_id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
      expect(Date.parse(body['remindAt'] ?? '') - before).toBeGreaterThan(14 * 60_000);
      expect(Date.parse(body['remindAt'] ?? '') - before).toBeLessThan(16 * 60_000);
      // The server took it: it answers with the instant it will send the reminder again.
      const answer = await until('the remindLater answer', async () => remindLaterAnswers[0]);
      expect(answer).toEqual({ status: 200, body: { message: 'Reminder scheduled', remindAt: new Date(body['remindAt'] ?? '').toISOString() } });
      expect(remindLaterAnswers).toHaveLength(1);
      await page
        .getByText(/^We will remind you about Metformin 500 mg tablet again at /)
        .first()
        .waitFor({ timeout: 15_000 });
      // Still due: the reminder stays waiting until taken or expired.
      await waiting(page).getByText('Metformin 500 mg tablet').waitFor();
    });

    test('"Mark as Taken" with the app closed queues the dose in the worker, which sends it', async () => {
      // Room for a push still being handled after 15 s on a loaded machine (deliverUntilShown).
      test.setTimeout(180_000);
      const since = new Date().toISOString();
      await page.close();
      // The dinner reminder: breakfast's dose was marked taken above, and a medicine's dose is
      // recorded once per meal (a second "Mark as Taken" for breakfast would be the same dose).
      await deliverUntilShown(medicinePush('med-e2e-3', { time: '20:00', meal: 'dinner' }), 'med-e2e-3');
      await click(await liveWorker(), 'med-e2e-3', 'taken');
      // No page answers: after 3 s the worker sends the dose itself.
      const dose = await until('the dose on the server', async () => (await serverDoses(token, since)).find((d) => d.prescrNo === PRESCR), 45_000);
      expect(Date.now() - Date.parse(dose.takenAt)).toBeLessThan(120_000);

      // The app opened again shows the dose, and neither reminder is waiting any more.
      page = await context.newPage();
      await page.goto(`${server.url}/app`);
      const row = page.getByTestId('medicines').getByRole('listitem').filter({ hasText: 'Metformin 500 mg tablet' }).last();
      await row.getByText(/^Taken today at /).waitFor({ timeout: 30_000 });
      // The "Remind Later" one was answered too: a dose of its medicine was taken after it arrived.
      // It was waiting when the page closed, so it must go: the page has taken the inbox, and the
      // list is waited on until it is empty.
      await expect.poll(() => inboxCount(page)).toBe(0);
      await expect(waiting(page)).toHaveCount(0);
      expect((await serverDoses(token, since)).filter((d) => d._id === dose._id)).toHaveLength(1);
    });

    test('after logout a push shows nothing and leaves nothing behind', async () => {
      test.setTimeout(60_000);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByLabel('Hospital number').waitFor();
      const worker = await liveWorker();
      await trackWorkerHandling(worker);
      const received = await pushesReceived(worker);
      await channel.deliver(medicinePush('med-after-logout'));
      // The worker has received the push and finished with it (a notification it shows is shown
      // before that, and the page told).
      await expect.poll(() => pushesReceived(worker)).toBe(received + 1);
      await handled(worker);
      expect(await shownNotifications(page)).toEqual([]);
      expect(await inboxCount(page)).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('e2e-push-subscription'))).toBeNull();
    });
  });

  test('a pending reminder expires 2 hours after it arrived (clock control)', async () => {
    test.setTimeout(120_000);
    const context = await newContext({ granted: true });
    const page = await context.newPage();
    await page.clock.install();
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
    const channel = await pushChannel(page, server);
    await channel.deliver(medicinePush('med-expiry'));
    await waiting(page).getByText('Metformin 500 mg tablet').waitFor({ timeout: 15_000 });
    await page.clock.fastForward('01:58:00');
    // The minute ticks fired by the jump have been handled: the list's query for the new minute has
    // answered (an IndexedDB round trip after it) and React has had its tasks to render it.
    await page.evaluate(async () => {
      const macrotask = () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        });
      await macrotask();
      for (const info of await indexedDB.databases()) {
        if (!info.name?.includes('rxdb')) continue;
        await new Promise<void>((resolve) => {
          const open = indexedDB.open(info.name as string);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
          open.onerror = () => resolve();
        });
      }
      await macrotask();
      await macrotask();
    });
    expect(await waiting(page).count()).toBe(1);
    await page.clock.fastForward('00:03:00');
    await waiting(page).waitFor({ state: 'detached', timeout: 15_000 });
  });

  test.describe('the whole chain: scheduler → push service → service worker → server', () => {
    let chain: EddyServer;
    let peer: PushPeer;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      // A scheduler pass every 5 s, and a push service on loopback http allowed (https otherwise).
      chain = await startServer({ env: { PUSH_ALLOW_INSECURE_ENDPOINTS: '1', REMINDER_INTERVAL_SECONDS: '5' } });
      peer = await startPushPeer();
    });

    test.afterAll(async () => {
      await peer?.close();
      await chain?.cleanup();
    });

    test('a reminder the scheduler sends at the meal time reaches the worker, is shown, and "Mark as Taken" records the dose', async () => {
      test.setTimeout(240_000);
      const since = new Date().toISOString();
      // The phone's time zone, a half-hour offset unlike the server's: the device gives it with its
      // token and the scheduler must time the meal by it.
      const timeZone = 'Australia/Adelaide';
      const local = (at: Date) => {
        const parts = Object.fromEntries(
          new Intl.DateTimeFormat('en-GB', {
            timeZone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          })
            .formatToParts(at)
            .map((p) => [p.type, p.value]),
        );
        return { date: `${parts['year']}-${parts['month']}-${parts['day']}`, time: `${parts['hour']}:${parts['minute']}` };
      };
      // Dinner (Metformin 1-0-1 and Atorvastatin 0-0-1) at the next whole minute; the other meals
      // hours away, outside the scheduler's 30-minute catch-up window. Set before the device
      // subscribes: a pass right after it would otherwise send whatever the seeded times made due
      // (e.g. dinner at 20:00, which would then count as today's dinner reminder already sent).
      const due = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
      const dinner = local(due);
      const timings = {
        breakfast: local(new Date(due.getTime() + 6 * 3_600_000)).time,
        lunch: local(new Date(due.getTime() + 12 * 3_600_000)).time,
        dinner: dinner.time,
      };
      const token = await apiLogin(chain.url, '100001', 'Demo-patient-1');
      const saved = await fetch(`${chain.url}/api/users/notificationTimings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(timings),
      });
      expect(saved.status).toBe(200);

      // The browser's side of the push service: a P-256 key pair and a 16-byte auth secret made
      // here; the page gets the public parts, the peer keeps the private key to decrypt.
      const subscription = peer.subscribe('phone');
      const context = await newContext({ granted: false, at: chain, subscription, timezoneId: timeZone });
      const page = await context.newPage();
      // The patient's "Allow" in the browser's question.
      await page.exposeFunction('e2eAllow', () => context.grantPermissions(['notifications'], { origin: chain.url }));
      await page.addInitScript(() => {
        Notification.requestPermission = async () => {
          await (window as unknown as { e2eAllow(): Promise<void> }).e2eAllow();
          return Notification.permission;
        };
      });
      await uiLogin(page, chain.url, '100001', 'Demo-patient-1');
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/users/notificationToken') && r.method() === 'POST', { timeout: 60_000 });
      const prompt = page.getByTestId('reminders-prompt');
      await prompt.getByRole('button', { name: 'Turn on reminders' }).click({ timeout: 30_000 });
      const body = (await posted).postDataJSON() as { token: SubscriptionJSON; timeZone?: string };
      expect(body.token).toMatchObject(subscription);
      expect(body.timeZone).toBe(timeZone);
      expect((await (await posted).response())?.status()).toBe(200);
      await page.getByText('Reminders are on', { exact: true }).first().waitFor();
      const profile = (await (await fetch(`${chain.url}/api/users`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        user: { timeZone: string; notificationTimings: typeof timings };
      };
      expect(profile.user).toMatchObject({ timeZone, notificationTimings: timings });
      // The device's copy of the profile takes that zone at its next pull (a reload here). Until then
      // the page words meal times on the profile's old zone, named (UTC): on a busy machine the
      // reminder came first, and "Due 5:18 PM UTC" was not the text awaited below.
      await page.reload();
      await expect(page.getByText(/^Times are on this device’s clock/)).toHaveCount(0, { timeout: 60_000 });

      // The scheduler's pass after dinner time sends to the peer, which decrypts with the private key.
      const request = await until(
        'the scheduler’s push at the push service',
        async () => peer.of('phone').find((r: PushRequest) => (r.json['data'] as { prescrNo?: string } | undefined)?.prescrNo === PRESCR),
        150_000,
        500,
      );
      expect(Date.now()).toBeGreaterThanOrEqual(due.getTime());
      const config = (await (await fetch(`${chain.url}/api/push/config`)).json()) as { publicKey: string };
      verifyVapid(request.headers, { publicKey: config.publicKey, audience: peer.origin });
      expect(request.headers['content-encoding']).toBe('aes128gcm');
      const tag = `med-${PRESCR}-${dinner.date}-dinner`;
      // The medicine and the meal on the patient's clock, its zone named ("GMT+10:30"); nothing else about the patient.
      expect(request.json).toEqual({
        notification: {
          title: 'Time for your medicine',
          body: `Metformin 500 mg tablet — 1 (dinner, ${dinner.time} ${zoneShortName('en', timeZone, due)})`,
          tag,
          actions: [
            { action: 'taken', title: 'Mark as Taken' },
            { action: 'later', title: 'Remind Later' },
          ],
        },
        data: {
          type: 'medicine',
          prescrNo: PRESCR,
          medicineName: 'Metformin 500 mg tablet',
          dose: '1-0-1',
          time: dinner.time,
          meal: 'dinner',
          notificationTime: due.toISOString(),
        },
      });
      for (const personal of ['Maria', 'Lopez', 'Elm Street', '"100001"']) expect(request.text).not.toContain(personal);
      // Dinner only: the other meals are hours away.
      for (const r of peer.of('phone')) expect((r.json['data'] as { meal?: string }).meal).toBe('dinner');

      // Exactly the decrypted text, delivered to the worker as the browser's push service would.
      const channel = await pushChannel(page, chain);
      // The worker sat idle while the scheduler waited for the meal time, and the browser may have
      // stopped it: a message wakes it, and the running one is the one tracked.
      const worker = await until('the running service worker', async () => {
        await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.postMessage({ type: 'e2e-wake' }));
        const running = context.serviceWorkers().at(-1);
        return running && (await running.evaluate(() => true).catch(() => false)) ? running : undefined;
      });
      // What the worker says (its errors name why a push was dropped), for the failure message.
      const said: string[] = [];
      worker.on('console', (m) => said.push(`${m.type()}: ${m.text()}`));
      await trackWorkerHandling(worker);
      const received = await pushesReceived(worker);
      await channel.deliver(request.text);
      await expect.poll(() => pushesReceived(worker), { message: 'the worker received the push', timeout: 30_000 }).toBe(received + 1);
      await handled(worker);
      const shown = (await shownNotifications(page)).find((n) => n.tag === tag);
      expect(shown, `the notification after the worker handled the push; the worker said: ${JSON.stringify(said)}`).toBeDefined();
      expect(shown).toEqual({
        title: 'Time for your medicine',
        body: `Metformin 500 mg tablet — 1 (dinner, ${dinner.time} ${zoneShortName('en', timeZone, due)})`,
        tag,
        actions: [
          { action: 'taken', title: 'Mark as Taken' },
          { action: 'later', title: 'Remind Later' },
        ],
      });
      // The meal time as the page words it in English ("8:17 PM"; ICU may put a narrow space before PM).
      const dueText = formatClockTime(dinner.time, 'en').replace(/\s/g, '\\s');
      await waiting(page)
        .getByText(new RegExp(`^Due ${dueText} · prescription ${PRESCR}$`))
        .waitFor({ timeout: 15_000 });

      await click(worker, tag, 'taken');
      await page.getByText('Medicine recorded successfully').first().waitFor({ timeout: 15_000 });
      await waiting(page).waitFor({ state: 'detached', timeout: 15_000 });
      const dose = await until('the dose on the server', async () => (await serverDoses(token, since, chain)).find((d) => d.prescrNo === PRESCR), 45_000);
      expect(Date.now() - Date.parse(dose.takenAt)).toBeLessThan(120_000);
      expect(await shownNotifications(page)).toEqual([]);
    });
  });
});
