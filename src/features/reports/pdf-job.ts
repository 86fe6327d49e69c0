// The messages between the report page and its PDF worker (pdf.worker.ts). Everything here is
// structured-cloneable: the model is plain data, and the translations go over as the active
// catalog's compiled messages, because a translate function cannot cross into a worker.
import type { Messages } from '@lingui/core';
import type { ReportModel } from '../../../report/types.ts';

export interface PdfRequest {
  model: ReportModel;
  locale: string;
  /** The active locale's compiled catalog (i18n.messages). */
  messages: Messages;
}

export type PdfReply =
  /** The worker's code (pdfmake, the fonts) is loaded and it listens. */
  | { type: 'ready' }
  /** 0–1 while pdfmake writes the pages. */
  | { type: 'progress'; fraction: number }
  /** The PDF file's bytes, transferred (not copied) out of the worker. */
  | { type: 'done'; pdf: ArrayBuffer }
  /**
   * `notOnDevice`: the PDF engine or a font it needs could not be loaded (offline, and not fetched
   * into the device's cache after login yet: sw/later.ts), as opposed to a failure making the file.
   */
  | { type: 'error'; message: string; notOnDevice?: boolean };
