// `npm run bench`: the performance budgets of DESIGN.md §4 that can be measured here.
// - JS the login route ships, gzipped (budget 170 KB), measured in Chromium from what it loads.
// - The dashboard of a patient with 10,000 readings: time until it is interactive when the data is
//   on the device (budget 1 s), and, for information, the first login that pulls them all.
// Run after `npm run build`. Benchmarks are scripts, not timed tests.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../server/db/client.ts';
import { glucoseReadings, patients } from '../server/db/schema.ts';
import { e2eUnavailable, launchChromium, startServer, uiLogin } from '../tests/support/e2e.ts';

const BUDGET_KB = 170;

async function loginRouteJs(): Promise<{ files: number; gzipKb: number }> {
  const server = await startServer();
  const browser = await launchChromium();
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

async function dashboardWith10k(): Promise<{ firstSyncMs: number; warmMs: number }> {
  const server = await startServer();
  await server.stop();
  await addReadings(server.dataDir, READINGS);
  await server.restart();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const ready = async () => {
      await page.getByTestId('glucose-list-Fasting').getByRole('listitem').first().waitFor({ timeout: 120_000 });
      await page.locator('.trend-canvas canvas').first().waitFor({ timeout: 120_000 });
    };
    let start = Date.now();
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    // Every reading is on the device once the 90-day trend counts them.
    await page.getByText(/readings in the last 14 days/).waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="sync-badge"]'), undefined, { timeout: 120_000 });
    const firstSyncMs = Date.now() - start;
    start = Date.now();
    await page.reload();
    await ready();
    // Interactive: the entry form answers.
    await page.getByLabel('Glucose (mg/dL)').fill('100');
    return { firstSyncMs, warmMs: Date.now() - start };
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
process.stdout.write(
  `dashboard with ${READINGS} more readings: interactive ${dash.warmMs} ms after a reload (budget ${DASHBOARD_BUDGET_MS} ms) ${dash.warmMs <= DASHBOARD_BUDGET_MS ? 'OK' : 'OVER BUDGET'}; first login and sync ${dash.firstSyncMs} ms\n`,
);
