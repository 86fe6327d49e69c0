// `npm run bench`: the performance budgets of DESIGN.md §4 that can be measured here.
// - JS the login route ships, gzipped (budget 130 KB), measured in Chromium from what it loads.
// - The dashboard of a patient with 10,000 more readings: after a reload (data on the device), the
//   time until the entry form can be used and until lists and trend show (budget 1 s); for
//   information, the first login that pulls them all.
// Run after `npm run build`. Benchmarks are scripts, not timed tests.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../server/db/client.ts';
import { glucoseReadings, patients } from '../server/db/schema.ts';
import { e2eUnavailable, launchChromium, startServer, uiLogin } from '../tests/fixtures/index.ts';

const BUDGET_KB = 130;

async function loginRouteJs(): Promise<{ files: number; gzipKb: number }> {
  const server = await startServer();
  // A first visit: no cookie choice saved yet, so the cookie banner's code counts too.
  const browser = await launchChromium({ savedCookieChoice: false });
  try {
    const page = await browser.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) bodies.push(res.body());
    });
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(bodies);
    const gz = all.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
    return { files: all.length, gzipKb: Math.round(gz / 102.4) / 10 };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

const DASHBOARD_BUDGET_MS = 1000;
const READINGS = 10_000;

/** Adds readings to the demo patient 100001 directly in the stopped server's embedded database. */
async function addReadings(dataDir: string, count: number): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const [patient] = await database.db.select({ id: patients.id }).from(patients).where(eq(patients.hospNo, '100001'));
    if (!patient) throw new Error('demo patient 100001 is missing');
    const types = ['Fasting', 'Postprandial', 'Random'] as const;
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      patientId: patient.id,
      type: types[i % 3] ?? 'Random',
      valueMgDl: 70 + ((i * 37) % 200),
      recordedAt: new Date(now - (i + 1) * 47 * 60_000),
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insert(glucoseReadings).values(rows.slice(i, i + 500));
  } finally {
    await database.close();
  }
}

async function dashboardWith10k(): Promise<{ firstSyncMs: number; formMs: number; listsMs: number }> {
  const server = await startServer();
  await server.stop();
  await addReadings(server.dataDir, READINGS);
  await server.restart();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const listed = async () => {
      await page.getByTestId('glucose-list-Fasting').getByRole('listitem').first().waitFor({ timeout: 120_000 });
      await page.locator('.trend-canvas canvas').first().waitFor({ timeout: 120_000 });
    };
    let start = Date.now();
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    // Every reading is on the device once the delta pull that follows the full one has answered
    // and the lists show them.
    await page.waitForResponse((r) => r.url().includes('/api/glucose?since='), { timeout: 120_000 });
    await listed();
    const firstSyncMs = Date.now() - start;
    // RxDB stores the pulled documents, then the checkpoint: a reload before that would pull again.
    await new Promise((r) => setTimeout(r, 15_000));
    start = Date.now();
    await page.reload();
    await page.getByLabel('Glucose (mg/dL)').fill('100');
    const formMs = Date.now() - start;
    await listed();
    return { firstSyncMs, formMs, listsMs: Date.now() - start };
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

const why = e2eUnavailable();
if (why) {
  process.stderr.write(`bench: ${why}\n`);
  process.exit(1);
}
const js = await loginRouteJs();
process.stdout.write(`login route: ${js.files} JS files, ${js.gzipKb} KB gzipped (budget ${BUDGET_KB} KB) ${js.gzipKb <= BUDGET_KB ? 'OK' : 'OVER BUDGET'}\n`);
const dash = await dashboardWith10k();
const verdict = dash.listsMs <= DASHBOARD_BUDGET_MS ? 'OK' : 'OVER BUDGET';
process.stdout.write(
  `dashboard with ${READINGS} more readings, after a reload: entry form usable in ${dash.formMs} ms, latest readings, lists and trend in ${dash.listsMs} ms (budget ${DASHBOARD_BUDGET_MS} ms) ${verdict}; first login and full sync ${dash.firstSyncMs} ms\n`,
);
