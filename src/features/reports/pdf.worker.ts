/// <reference lib="webworker" />
// The report PDF, made in a Web Worker (generate-pdf.ts starts it): pdfmake, its fonts and the page
// layout stay out of the page's bundle and off its main thread. The same renderer makes the PDF on
// the server (POST /api/users/report), so both say the same. Translations arrive as the active
// catalog's compiled messages and are looked up with a worker-local Lingui instance.
import { setupI18n } from '@lingui/core';
import { loadPdfMake } from '../../../report/pdf-engine.ts';
import { renderReportPdf } from '../../../report/pdf.ts';
import { FontNotOnDevice, loadFontAsset } from './pdf-fonts.ts';
import type { PdfReply, PdfRequest } from './pdf-job.ts';
import { reportTranslate } from '../../lib/report-translate.ts';

declare const self: DedicatedWorkerGlobalScope;

const reply = (message: PdfReply, transfer: Transferable[] = []) => self.postMessage(message, transfer);
const failed = (err: unknown, notOnDevice = err instanceof FontNotOnDevice) =>
  reply({ type: 'error', message: err instanceof Error ? err.message : String(err), notOnDevice });

/** pdfmake and its fonts (the large part), loaded first; then the page sends the job. */
const engine = loadPdfMake();

self.onmessage = async (event: MessageEvent<PdfRequest>) => {
  const { model, locale, messages } = event.data;
  try {
    // Loaded already (the page sends the job after 'ready').
    await engine;
    const i18n = setupI18n({ locale, messages: { [locale]: messages } });
    const onProgress = (fraction: number) => reply({ type: 'progress', fraction });
    const pdf = await renderReportPdf(model, { locale, translate: reportTranslate(i18n), onProgress, loadFont: loadFontAsset });
    // The bytes may be a view on a larger buffer: hand over a buffer that holds exactly the file.
    const bytes = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer ? pdf.buffer : pdf.slice().buffer;
    reply({ type: 'done', pdf: bytes }, [bytes]);
  } catch (err) {
    failed(err);
  }
};

// An engine that does not load is one the device does not have: its chunks are fetched after login
// (sw/later.ts), so offline before that the import fails.
engine.then(
  () => reply({ type: 'ready' }),
  (err: unknown) => failed(err, true),
);
