// Randomized fault runs (issue 14, part 4): `npm run chaos -- --runs N [--seed S] [--workers W] [--actions K] [--kinds a,b]`.
//
// Run i uses seed S+i (S is random unless given, and printed). Each run starts a fresh server (PGlite,
// or a fresh PostgreSQL database when DATABASE_URL is set), a fault proxy and a browser, logs the demo
// patient 100001 in, and draws from its seed a sequence of patient actions made through the real UI
// (add, edit and delete glucose readings, lab results and appointments; report and remove symptoms;
// mark doses taken; change the breakfast time) interleaved with faults: offline bursts, reloads and
// closed tabs while offline, lost responses, 5xx bursts, latency, the server SIGKILLed at a random
// moment and restarted, a second tab, a second device (its own browser context, same patient) editing
// the same record while both are offline, the device clock running hours behind, and a logout with
// writes queued (it must try to send them, then say how many would be lost and ask; the run cancels),
// the server restored from a backup taken earlier in the run, the server's database replaced by a
// new one (the patient logs in again), and, on PostgreSQL, an instance killed while a batch of writes
// reaches it behind HAProxy (issue 45). `--kinds restore,replace` draws only the kinds named (a
// focused run; the same seed with the same kinds replays it).
// At the end, online and settled, it checks the server's own data (version pulls) and what every
// device shows after a reload against the run's model of what the patient did.
//
// THE CONVERGENCE RULE (docs/sync-protocol.md, "Stated conflicts"): when two devices edit the same
// record while offline, the edit that reaches the server first is applied; the other is refused with
// 409 {message, current} and shown to its patient, who keeps theirs ("Keep mine": applied on the
// server's current version) or takes the server's ("Use the server's"). After that choice every
// device and the server hold the same value. Edits on one device are applied in the order made, each
// exactly once (mutation ids), whatever is lost, repeated or cut on the way.
//
// Invariants, counted over all runs:
//   writes      writes a device accepted (the UI confirmed them)
//   lost        an accepted write (or a patient's choice) that is not on the server
//   duplicated  a write the server holds more than once
//   stuck       entries left in an outbox (or refused and never shown) after 90 s online
//   diverged    a device shows something else than the server, the server holds another value than
//               the model's final one, a conflict applied without a refusal, a refusal other than a
//               stated conflict, or a run that crashed (counted here, with its reason printed)
// A failing run prints its seed and its action/fault log and keeps, in test-results/chaos/seed-<n>/,
// the Playwright trace (trace.zip; trace-device-B.zip for the second device), screenshots, the
// server's log and the proxy's counts. The last line of stdout is the summary; the exit code is 1
// when lost, duplicated, stuck or diverged is not 0. A run that saw something odd that broke no
// invariant (a navigation that never reached "load", tried again) logs a FINDING line; it stays ok,
// but prints its log and keeps its artifacts like a failing run, and the seeds are listed at the end.
import { appendFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { stdout, stderr } from 'node:process';
import { parseArgs } from 'node:util';
import { ARTIFACTS, chaosRun, FAULT_KINDS, type RunResult } from './one-run.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '1' },
    actions: { type: 'string', default: '14' },
    kinds: { type: 'string' },
    except: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

const print = (line: string) => stdout.write(`${line}\n`);

const runs = Math.max(1, Number(values.runs));
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 1_000_000_000);
const workers = Math.max(1, Math.min(runs, Number(values.workers)));
const actions = Math.max(1, Number(values.actions));
const listed = (text: string | undefined) =>
  text
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
// `--except a,b`: every kind but those (CI's short sample leaves out the slow database faults, which
// its browser suite covers in tests/e2e/restored-server.spec.ts; see TESTING.md).
const excepted = listed(values.except);
const kinds = excepted ? FAULT_KINDS.filter((k) => !excepted.includes(k)) : listed(values.kinds);
const unknown = [...(listed(values.kinds) ?? []), ...(excepted ?? [])].filter((k) => !FAULT_KINDS.includes(k));
if (![runs, seed, workers, actions].every(Number.isFinite) || unknown.length > 0 || (kinds !== undefined && kinds.length === 0)) {
  if (unknown.length > 0) stderr.write(`unknown fault kind(s): ${unknown.join(', ')}; the kinds are: ${FAULT_KINDS.join(', ')}\n`);
  stderr.write('usage: npm run chaos -- --runs N [--seed S] [--workers W] [--actions K] [--kinds a,b,… | --except a,b,…] [--verbose]\n');
  process.exit(2);
}

print(
  `chaos: ${runs} runs from seed ${seed} (${workers} worker(s), ${actions} actions each) on ${process.env['DATABASE_URL'] && process.env['E2E_DATABASE'] !== 'embedded' ? 'PostgreSQL' : 'PGlite'}${excepted ? `; faults of every kind but ${excepted.join(', ')}` : kinds ? `; faults drawn only of the kinds ${kinds.join(', ')}` : ''}`,
);
print(
  `chaos: reproduce one run with: npm run chaos -- --runs 1 --seed <seed>${excepted ? ` --except ${excepted.join(',')}` : kinds ? ` --kinds ${kinds.join(',')}` : ''}`,
);
// The last batch's artifacts move aside instead of going: replaying a failed seed must not wipe the
// trace of the failure it replays (a seed that fails once in a batch may pass when replayed).
const PREVIOUS = `${ARTIFACTS}-previous`;
await rm(PREVIOUS, { recursive: true, force: true }).catch(() => undefined);
await rename(ARTIFACTS, PREVIOUS).catch(() => undefined);

// Every run, passing or not, leaves one line here: its counts, each fault drawn and what it met, the
// logout checks and the proxy's counts (TESTING.md, "What a batch keeps").
const RECORD = path.join(ARTIFACTS, 'runs.jsonl');
await mkdir(ARTIFACTS, { recursive: true });
const failedRun = (r: RunResult) => r.crashed || r.lost + r.duplicated + r.stuck + r.diverged > 0;

const started = Date.now();
const results: RunResult[] = [];
let next = 0;
async function worker(): Promise<void> {
  for (;;) {
    const i = next++;
    if (i >= runs) return;
    const s = seed + i;
    const r = await chaosRun(s, { actions, artifacts: ARTIFACTS, ...(kinds ? { kinds } : {}) });
    results.push(r);
    // The record is compact: the action log is kept only where a run failed or found something.
    await appendFile(RECORD, `${JSON.stringify({ ...r, log: undefined, ok: !failedRun(r) })}\n`);
    const bad = failedRun(r);
    const findings = r.findings > 0 ? ` (${r.findings} finding${r.findings === 1 ? '' : 's'}, kept in test-results/chaos/seed-${s}/)` : '';
    print(
      `run ${results.length}/${runs} seed ${s}: ${bad ? 'FAILED' : 'ok'} in ${(r.ms / 1000).toFixed(1)} s, ${r.writes} writes, ${r.lost} lost, ${r.duplicated} duplicated, ${r.stuck} stuck, ${r.diverged} diverged${r.crashed ? ', CRASHED' : ''}; faults ${r.faults.filter((f) => f.hit).length}/${r.faults.length} hit a write${findings}`,
    );
    if (bad || r.findings > 0 || values.verbose) {
      print(`--- seed ${s}: action/fault log`);
      for (const line of r.log) print(line);
    }
    if (bad) {
      print(`--- seed ${s}: what broke`);
      for (const p of r.problems) print(`  ✗ ${p}`);
      print(
        `--- seed ${s}: trace, screenshots and server log in test-results/chaos/seed-${s}/ (npx playwright show-trace test-results/chaos/seed-${s}/trace.zip)`,
      );
    }
  }
}
await Promise.all(Array.from({ length: workers }, () => worker()));

const sum = (k: 'writes' | 'lost' | 'duplicated' | 'stuck' | 'diverged' | 'navigationRetries' | 'lateAgreements' | 'emptyDraws') =>
  results.reduce((n, r) => n + r[k], 0);
const failedSeeds = results.filter(failedRun).map((r) => r.seed);
const crashed = results.filter((r) => r.crashed).length;

// Did the faults hit? Per kind: how often drawn, how often it met a write. A kind drawn that never
// met one proved nothing in this batch: a finding.
const faultLines: string[] = [];
for (const kind of FAULT_KINDS) {
  const drawn = results.flatMap((r) => r.faults.filter((f) => f.kind === kind));
  const hit = drawn.filter((f) => f.hit).length;
  faultLines.push(`${kind} ${hit}/${drawn.length}`);
  if (drawn.length > 0 && hit === 0) print(`chaos: FINDING fault kind "${kind}" was drawn ${drawn.length} time(s) and never met a write`);
}
print(`chaos: faults that hit a write / drawn: ${faultLines.join(', ')}`);
const logout = results.reduce(
  (a, r) => ({ tried: a.tried + r.logout.tried, skipped: a.skipped + r.logout.skipped, lagged: a.lagged + r.logout.outboxLagged }),
  { tried: 0, skipped: 0, lagged: 0 },
);
print(
  `chaos: logout checks ${logout.tried} tried, ${logout.skipped} with provably nothing waiting, ${logout.lagged} with the outbox behind the save when read`,
);
print(`chaos: every run's record: ${path.relative(process.cwd(), RECORD)}`);
const findingSeeds = results.filter((r) => r.findings > 0).map((r) => r.seed);
print(
  `chaos: ${((Date.now() - started) / 1000).toFixed(0)} s${failedSeeds.length ? `; failed seeds: ${failedSeeds.sort((a, b) => a - b).join(', ')}` : ''}${findingSeeds.length ? `; seeds with findings: ${findingSeeds.sort((a, b) => a - b).join(', ')}` : ''}`,
);
const line = `chaos: ${results.length} runs, ${sum('writes')} writes, ${sum('lost')} lost, ${sum('duplicated')} duplicated, ${sum('stuck')} stuck, ${sum('diverged')} diverged, ${crashed} crashed; ${sum('lateAgreements')} late agreements, ${sum('navigationRetries')} navigations retried, ${sum('emptyDraws')} draws that did nothing`;
print(line);
process.exitCode = sum('lost') + sum('duplicated') + sum('stuck') + sum('diverged') + crashed > 0 ? 1 : 0;
