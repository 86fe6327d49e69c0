// GET /api/admin/worklist's answer (schemas/api.ts worklistPage; issue 18).
import type { WORKLIST_REASON_CODES } from '../../../schemas/admin.ts';

export type ReasonCode = (typeof WORKLIST_REASON_CODES)[number];

export interface WorklistReason {
  code: ReasonCode;
  /** The server's English wording; the page words each reason itself from code and value. */
  text: string;
  value: number | null;
}

export interface WorklistPatient {
  hospNo: string;
  name: string;
  reasons: WorklistReason[];
  lastReadingAt: string | null;
  lastSyncAt: string | null;
}

export interface WorklistPage {
  patients: WorklistPatient[];
  days: number;
  computedAt: string;
  total: number;
  page: number;
  limit: number;
  pages: number;
}
