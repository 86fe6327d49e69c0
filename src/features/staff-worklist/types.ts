// GET /api/admin/worklist's answer (schemas/api.ts worklistPage, through lib/staff-api.ts; issue 18).
import type { WorklistPage } from '../../lib/staff-api.ts';

export type { WorklistPage };
export type WorklistPatient = WorklistPage['patients'][number];
/** `text` is the server's English wording; the page words each reason itself from code and value. */
export type WorklistReason = WorklistPatient['reasons'][number];
export type ReasonCode = WorklistReason['code'];
/** Why the patient stands where they do (server/services/worklist-priority.ts); absent from a page kept offline before it was sent. */
export type WorklistPriority = NonNullable<WorklistPatient['priority']>;
