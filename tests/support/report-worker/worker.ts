// A module Web Worker that makes the report PDF from the known data set, as the app's worker does
// from local data: proof that schemas/report bundles with Vite and runs in a browser worker.
import { buildReport } from '../../../schemas/report/build-report.ts';
import { renderReportPdf } from '../../../schemas/report/pdf.ts';
import { fixtureInput } from '../../../schemas/report/testing/fixture.ts';

const post = (message: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = async (e: MessageEvent<{ unit: 'mg/dL' | 'mmol/L' }>) => {
  try {
    const progress: number[] = [];
    const bytes = await renderReportPdf(buildReport(fixtureInput()), { locale: 'en', unit: e.data.unit, onProgress: (p) => progress.push(p) });
    post({ ok: true, bytes, progress: progress.length }, [bytes.buffer]);
  } catch (err) {
    post({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
};
