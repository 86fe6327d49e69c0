import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import type { ReportModel } from '../../../report/types.ts';
import { Icon } from '../../components/icon.tsx';
import { loader } from '../../lib/ui/loader-store.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { reportCsv, reportFileName } from '../../../report/csv.ts';
import { downloadFile } from './download.ts';
import { generatePdf, PdfCancelled, PdfNotOnDevice, type PdfTask } from './generate-pdf.ts';
import { reportTranslate } from '../../lib/report-translate.ts';

export type ReportDownload = 'pdf' | 'csv' | 'fhir';

/**
 * The report's files, all made on this device from the model on screen, so they work offline and
 * say exactly what the screen says: the PDF in a worker with progress on the global loader, the CSV
 * at once, and the FHIR bundle, whose code loads only when a clinician asks for it.
 */
export function ReportActions({ model, downloads }: { model: ReportModel; downloads: readonly ReportDownload[] }) {
  const { t, i18n } = useLingui();
  const [busy, setBusy] = useState<ReportDownload | undefined>();

  async function pdf() {
    let task: PdfTask | undefined;
    const id = loader.show({
      loadingText: t`Creating the PDF report…`,
      subText: t`The report is made on this device, so it works offline too.`,
      progress: 0,
      canCancel: true,
      onCancel: () => task?.cancel(),
    });
    try {
      task = generatePdf({ model, locale: i18n.locale, messages: i18n.messages }, (progress) => loader.update(id, { progress }));
      const bytes = await task.result;
      downloadFile(bytes, 'application/pdf', reportFileName(model, 'pdf'));
      toast({ type: 'success', text: t`The PDF report is ready.` });
    } catch (err) {
      if (err instanceof PdfCancelled) return;
      log.error('PDF report failed', err);
      if (err instanceof PdfNotOnDevice) {
        toast({ type: 'error', text: t`The PDF maker is not on this device yet. Connect once to the internet, then try again.` });
      } else {
        toast({ type: 'error', text: t`The PDF report could not be created. Please try again.` });
      }
    } finally {
      loader.hide(id);
    }
  }

  async function csv() {
    downloadFile(reportCsv(model, { translate: reportTranslate(i18n) }), 'text/csv;charset=utf-8', reportFileName(model, 'csv'));
  }

  async function fhir() {
    const { fhirBundle } = await import('../../../report/fhir.ts');
    downloadFile(JSON.stringify(fhirBundle(model), null, 2), 'application/fhir+json', reportFileName(model, 'json'));
  }

  async function download(kind: ReportDownload, work: () => Promise<void>) {
    setBusy(kind);
    try {
      await work();
    } catch (err) {
      log.error(`report ${kind} download failed`, err);
      toast({ type: 'error', text: t`The file could not be created. Please try again.` });
    } finally {
      setBusy(undefined);
    }
  }
  const run = (kind: ReportDownload, work: () => Promise<void>) => () => inBackground(download(kind, work), `report ${kind} download failed`);

  return (
    <div className="report-actions">
      {downloads.includes('pdf') && (
        <button type="button" className="button" onClick={run('pdf', pdf)} disabled={busy !== undefined}>
          <Icon icon="mdi:file-chart" />
          <Trans>Download PDF</Trans>
        </button>
      )}
      {downloads.includes('csv') && (
        <button type="button" className="button button--secondary" onClick={run('csv', csv)} disabled={busy !== undefined}>
          <Icon icon="mdi:table" />
          <Trans>Download CSV</Trans>
        </button>
      )}
      {downloads.includes('fhir') && (
        <button type="button" className="button button--secondary" onClick={run('fhir', fhir)} disabled={busy !== undefined}>
          <Icon icon="mdi:download" />
          <Trans>Download FHIR bundle</Trans>
        </button>
      )}
    </div>
  );
}
