// Makes the report PDF on the device, in a Web Worker: pdfmake and its fonts are large and laying
// out a 90-day logbook takes a moment, so neither the page's bundle nor its main thread carries
// them. The worker is a separate chunk that the service worker precaches; the engine and fonts it loads
// are fetched into the device's cache after login (sw/later.ts), so this works offline from then on.
import type { PdfReply, PdfRequest } from './pdf-job.ts';

export interface PdfTask {
  /** Resolves with the PDF's bytes; rejects on failure or after cancel(). */
  result: Promise<ArrayBuffer>;
  cancel(): void;
}

/** Progress (0–100): starting the worker, its code and fonts loaded, then the pages written, done. */
export const PDF_PROGRESS = { starting: 5, loaded: 30, done: 100 } as const;

/** The loader's percentage for a fraction (0–1) of the pages written. */
export const writingProgress = (fraction: number): number =>
  Math.round(PDF_PROGRESS.loaded + Math.min(1, Math.max(0, fraction)) * (PDF_PROGRESS.done - 5 - PDF_PROGRESS.loaded));

export class PdfCancelled extends Error {
  constructor() {
    super('PDF generation cancelled');
    this.name = 'PdfCancelled';
  }
}

/**
 * The PDF engine or a font the report needs is not on this device: it is fetched in the background
 * after login (sw/later.ts), so this happens offline on a device that was not online since.
 */
export class PdfNotOnDevice extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfNotOnDevice';
  }
}

export function generatePdf(request: PdfRequest, onProgress: (percent: number) => void): PdfTask {
  // Vite recognises this exact form and builds pdf.worker.ts (and what it imports) as its own chunk.
  const worker = new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module', name: 'eddy-report-pdf' });
  let settle: { resolve: (pdf: ArrayBuffer) => void; reject: (err: Error) => void } | undefined;
  const result = new Promise<ArrayBuffer>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const finish = (outcome: ArrayBuffer | Error) => {
    worker.terminate();
    const s = settle;
    settle = undefined;
    if (!s) return;
    if (outcome instanceof Error) s.reject(outcome);
    else s.resolve(outcome);
  };
  onProgress(PDF_PROGRESS.starting);
  worker.onmessage = (event: MessageEvent<PdfReply>) => {
    const reply = event.data;
    if (reply.type === 'ready') {
      onProgress(PDF_PROGRESS.loaded);
      // Sent only now: a module worker's first messages could otherwise race its imports.
      worker.postMessage(request);
    } else if (reply.type === 'progress') {
      onProgress(writingProgress(reply.fraction));
    } else if (reply.type === 'done') {
      onProgress(PDF_PROGRESS.done);
      finish(reply.pdf);
    } else {
      finish(reply.notOnDevice ? new PdfNotOnDevice(reply.message) : new Error(reply.message));
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    finish(new Error(event.message || 'the PDF worker could not start'));
  };
  worker.onmessageerror = () => finish(new Error('the PDF worker sent a message that could not be read'));
  return { result, cancel: () => finish(new PdfCancelled()) };
}
