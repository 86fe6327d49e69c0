// The API while reports build (issue 45, item 6): three 366-day PDF reports at once, and meanwhile
// GET /api/health every 20 ms; the p99 of those answers. `node scripts/bench/report-load.ts`.
import { startServer } from '../../tests/fixtures/server.ts';

export async function apiP99DuringReports(): Promise<{ p99Ms: number; maxMs: number; samples: number; reportsMs: number }> {
  const server = await startServer({ env: { AUTH_RATE_LIMIT: '1000' } });
  try {
    const login = await fetch(`${server.url}/api/auth/loginWithPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hospNo: '100001', password: 'Demo-patient-1' }),
    });
    const { token } = (await login.json()) as { token: string };
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const pdf = () =>
      fetch(`${server.url}/api/users/report`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from, to }),
      }).then(async (r) => {
        if (r.status !== 200) throw new Error(`report answered ${r.status}`);
        await r.arrayBuffer();
      });
    // One report first: the worker threads start and load pdfmake and the fonts.
    await pdf();
    const times: number[] = [];
    let done = false;
    const started = Date.now();
    const reports = Promise.all([pdf(), pdf(), pdf()])
      .then(() => Date.now() - started)
      .finally(() => (done = true));
    while (!done) {
      const t0 = performance.now();
      await fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer());
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    const reportsMs = await reports;
    times.sort((a, b) => a - b);
    const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0;
    return { p99Ms: Math.round(p99), maxMs: Math.round(times.at(-1) ?? 0), samples: times.length, reportsMs };
  } finally {
    await server.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await apiP99DuringReports())}\n`);
}
