// The report's heavy work, in a worker thread (issue 45: three 366-day PDFs built on the event loop
// held /api/health for 1.8 s). Everything after the database read happens here: the statistics
// (buildReport), then the PDF (pdfmake), the FHIR bundle or the CSV. Input and output cross the
// thread boundary by structured clone: plain data in, bytes or text or a plain object out.
import { buildReport } from '../../report/build-report.ts';
import { reportCsv, reportFileName } from '../../report/csv.ts';
import { fhirBundle } from '../../report/fhir.ts';
import { loadFontFromPackages } from '../../report/fonts-node.ts';
import { renderReportPdf } from '../../report/pdf.ts';
import type { RenderJob, RenderResult } from './pool.ts';
import { reportTranslator } from '../services/report-i18n.ts';

export default async function render(job: RenderJob): Promise<RenderResult> {
  const model = buildReport(job.input, job.unit);
  switch (job.kind) {
    case 'model':
      return { kind: 'model', model };
    case 'fhir':
      return { kind: 'fhir', fileName: reportFileName(model, 'json').replace('eddy-report-', 'eddy-fhir-'), body: fhirBundle(model) };
    case 'csv':
      return { kind: 'csv', fileName: reportFileName(model, 'csv'), body: reportCsv(model, { translate: await reportTranslator(job.catalog) }) };
    case 'pdf': {
      const bytes = await renderReportPdf(model, { locale: job.intl, translate: await reportTranslator(job.catalog), loadFont: loadFontFromPackages });
      return { kind: 'pdf', fileName: reportFileName(model, 'pdf'), body: bytes };
    }
  }
}
