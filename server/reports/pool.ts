// The pool of worker threads that build reports (render-worker.ts), from piscina: the event loop
// only reads the database and answers; the statistics, the PDF, the FHIR bundle and the CSV are
// built beside it. At most REPORT_THREADS build at once and REPORT_QUEUE more wait; past that, a
// report is refused with 503 and Retry-After, and every other request goes on being answered.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { FhirBundle } from '../../report/fhir.ts';
import type { GlucoseUnit } from '../../schemas/glucose-units.ts';
import type { ReportInput, ReportModel } from '../../report/types.ts';
import { serviceUnavailable } from '../http/errors.ts';

export type RenderJob =
  | { kind: 'model' | 'fhir'; input: ReportInput; unit: GlucoseUnit }
  | { kind: 'csv'; input: ReportInput; unit: GlucoseUnit; catalog: string }
  | { kind: 'pdf'; input: ReportInput; unit: GlucoseUnit; catalog: string; intl: string };

export type RenderResult =
  | { kind: 'model'; model: ReportModel }
  | { kind: 'fhir'; fileName: string; body: FhirBundle }
  | { kind: 'csv'; fileName: string; body: string }
  | { kind: 'pdf'; fileName: string; body: Uint8Array };

/** Reports built at once: one core stays free for the API (at least one thread). */
export const REPORT_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
/** Reports that may wait for a thread; past that the server says it is busy. */
export const REPORT_QUEUE = 32;
export const MSG_REPORTS_BUSY = 'Many reports are being made right now. Please try again in a minute.';

let pool: Piscina<RenderJob, RenderResult> | undefined;
const thePool = () =>
  (pool ??= new Piscina<RenderJob, RenderResult>({
    filename: new URL('./render-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: REPORT_THREADS,
    maxQueue: REPORT_QUEUE,
    // A thread not used for a while ends; the next report starts one again (about 0.3 s).
    idleTimeout: 60_000,
  }));

/** Builds what `job` asks for in a worker thread. */
export async function render<K extends RenderJob['kind']>(job: RenderJob & { kind: K }): Promise<Extract<RenderResult, { kind: K }>> {
  const p = thePool();
  if (p.queueSize >= REPORT_QUEUE) throw serviceUnavailable(MSG_REPORTS_BUSY);
  const result = await p.run(job);
  if (result.kind !== job.kind) throw new Error(`report worker answered ${result.kind} to ${job.kind}`);
  return result as Extract<RenderResult, { kind: K }>;
}

/** Servers of this process that may use the pool (tests run several): the last to close ends it. */
let users = 0;
export function useReportPool(): () => Promise<void> {
  users++;
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    if (--users > 0) return;
    const p = pool;
    pool = undefined;
    await p?.destroy();
  };
}
