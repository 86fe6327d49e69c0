// A module Web Worker that makes the report PDF from the known data set, as the app's worker does
// from local data: proof that report/ bundles with Vite and runs in a browser worker.
import { buildReport } from '../../../report/build-report.ts';
import type { Translate } from '../../../report/labels.ts';
import { renderReportPdf } from '../../../report/pdf.ts';
import { fixtureInput } from '../../../report/testing/fixture.ts';
import { loadFontAsset } from '../../../src/features/reports/pdf-fonts.ts';

// A few Arabic labels: enough to need the Arabic font and the right-to-left hook in the browser build.
const ARABIC: Record<string, string> = { 'report.pdf.title': 'تقرير السكري', 'report.pdf.patient': 'المريض', 'report.pdf.average': 'متوسط السكر' };
const arabic: Translate = (d, values) => (ARABIC[d.id] ?? d.message ?? d.id).replace(/\{(\w+)\}/g, (_, k: string) => String(values?.[k] ?? ''));

const post = (message: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = async (e: MessageEvent<{ unit: 'mg/dL' | 'mmol/L'; locale: 'en' | 'ar' }>) => {
  try {
    const progress: number[] = [];
    const { locale, unit } = e.data;
    const bytes = await renderReportPdf(buildReport(fixtureInput(), unit), {
      locale,
      onProgress: (p) => progress.push(p),
      loadFont: loadFontAsset,
      ...(locale === 'ar' ? { translate: arabic } : {}),
    });
    post({ ok: true, bytes, progress: progress.length }, [bytes.buffer]);
  } catch (err) {
    post({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
};
