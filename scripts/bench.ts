// `npm run bench`: the performance budgets of DESIGN.md §4 that can be measured here.
// - JS the login route ships, gzipped (budget 170 KB), measured in Chromium from what it loads.
// Run after `npm run build`. Benchmarks are scripts, not timed tests.
import { gzipSync } from 'node:zlib';
import { e2eUnavailable, launchChromium, startServer } from '../tests/support/e2e.ts';

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

const why = e2eUnavailable();
if (why) {
  process.stderr.write(`bench: ${why}\n`);
  process.exit(1);
}
const js = await loginRouteJs();
process.stdout.write(`login route: ${js.files} JS files, ${js.gzipKb} KB gzipped (budget ${BUDGET_KB} KB) ${js.gzipKb <= BUDGET_KB ? 'OK' : 'OVER BUDGET'}\n`);
