// The body of POST /api/users/report, /api/admin/report and /api/admin/report/fhir (docs/requirements.md §7:
// `{from, to}` as ISO date strings), with the language and unit the PDF is written in.
import type { FromSchema } from 'json-schema-to-ts';
import { isoDate } from './common.ts';

/** The longest range one report covers (a leap year). */
export const MAX_REPORT_DAYS = 366;

export const reportRequestSchema = {
  type: 'object',
  properties: {
    from: isoDate,
    to: isoDate,
    locale: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', maxLength: 35, description: 'a language tag such as en or es-MX' },
    unit: { type: 'string', enum: ['mg/dL', 'mmol/L'] },
  },
  required: ['from', 'to'],
} as const;
export type ReportRequest = FromSchema<typeof reportRequestSchema>;
