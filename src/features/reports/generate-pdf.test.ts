// The page's side of the PDF worker: the job is sent only once the worker is ready, pdfmake's page
// progress moves the percentage, the bytes come back, and a failure or a cancel ends the worker.
// The Worker itself is replaced by a peer that speaks the same messages (Node has no Web Workers;
// the real one runs in tests/reports.e2e.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReport } from '../../../report/build-report.ts';
import { fixtureInput } from '../../../report/testing/fixture.ts';
import { generatePdf, PDF_PROGRESS, PdfCancelled, PdfNotOnDevice, writingProgress } from './generate-pdf.ts';
import type { PdfReply, PdfRequest } from './pdf-job.ts';

class FakeWorker {
  static last: FakeWorker | undefined;
  readonly url: string;
  readonly options: WorkerOptions | undefined;
  received: PdfRequest[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<PdfReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  constructor(url: URL | string, options?: WorkerOptions) {
    this.url = String(url);
    this.options = options;
    FakeWorker.last = this;
  }
  postMessage(message: PdfRequest) {
    this.received.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  send(reply: PdfReply) {
    this.onmessage?.({ data: reply } as MessageEvent<PdfReply>);
  }
}

const realWorker = globalThis.Worker;
beforeEach(() => {
  globalThis.Worker = FakeWorker as unknown as typeof Worker;
});
afterEach(() => {
  globalThis.Worker = realWorker;
  FakeWorker.last = undefined;
});

const request = (): PdfRequest => ({ model: buildReport(fixtureInput(), 'mg/dL'), locale: 'en', messages: {} });

describe('generatePdf', () => {
  it('starts a module worker, sends the job once it is ready, reports progress and resolves with the bytes', async () => {
    const progress: number[] = [];
    const task = generatePdf(request(), (p) => progress.push(p));
    const worker = FakeWorker.last as FakeWorker;
    expect(worker.url).toMatch(/pdf\.worker\.ts$/);
    expect(worker.options?.type).toBe('module');
    expect(worker.received).toEqual([]);
    worker.send({ type: 'ready' });
    expect(worker.received).toHaveLength(1);
    expect(worker.received[0]?.model.input.patient.name).toBe('Asha Verma');
    worker.send({ type: 'progress', fraction: 0.5 });
    worker.send({ type: 'progress', fraction: 1 });
    const bytes = new TextEncoder().encode('%PDF-1.7').buffer;
    worker.send({ type: 'done', pdf: bytes });
    expect(await task.result).toBe(bytes);
    expect(progress).toEqual([PDF_PROGRESS.starting, PDF_PROGRESS.loaded, writingProgress(0.5), writingProgress(1), PDF_PROGRESS.done]);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(worker.terminated).toBe(true);
  });

  it('rejects with the worker message on failure and ends the worker', async () => {
    const task = generatePdf(request(), () => undefined);
    const worker = FakeWorker.last as FakeWorker;
    worker.send({ type: 'error', message: 'font missing' });
    await expect(task.result).rejects.toThrow('font missing');
    await expect(task.result).rejects.not.toBeInstanceOf(PdfNotOnDevice);
    expect(worker.terminated).toBe(true);
  });

  it('rejects with PdfNotOnDevice when the engine or a font is not on the device (offline, not fetched after login)', async () => {
    const task = generatePdf(request(), () => undefined);
    const worker = FakeWorker.last as FakeWorker;
    worker.send({ type: 'error', message: 'Failed to fetch dynamically imported module', notOnDevice: true });
    await expect(task.result).rejects.toBeInstanceOf(PdfNotOnDevice);
    await expect(task.result).rejects.toThrow('Failed to fetch');
    expect(worker.terminated).toBe(true);
  });

  it('cancel ends the worker and rejects with PdfCancelled; a late reply changes nothing', async () => {
    const task = generatePdf(request(), () => undefined);
    const worker = FakeWorker.last as FakeWorker;
    worker.send({ type: 'ready' });
    task.cancel();
    await expect(task.result).rejects.toBeInstanceOf(PdfCancelled);
    expect(worker.terminated).toBe(true);
    worker.send({ type: 'done', pdf: new ArrayBuffer(1) });
  });

  it('keeps writing progress between loaded and done', () => {
    expect(writingProgress(0)).toBe(PDF_PROGRESS.loaded);
    expect(writingProgress(-1)).toBe(PDF_PROGRESS.loaded);
    expect(writingProgress(2)).toBeLessThan(PDF_PROGRESS.done);
  });
});
