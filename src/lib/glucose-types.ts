// The reading types' names on screen, for every feature that shows a reading's type (the form,
// today's summary, the meter import): the report's own names (report/labels.ts), so the
// dashboard, the reports, the PDF and the CSV call a tag the same.
import type { MessageDescriptor } from '@lingui/core';
import type { GlucoseType } from '../../schemas/glucose.ts';
import { TYPE_LABELS } from '../../report/labels.ts';

/** Each reading type's name on screen (`i18n._(GLUCOSE_TYPE_LABELS[type])`). */
export const GLUCOSE_TYPE_LABELS: Record<GlucoseType, MessageDescriptor> = TYPE_LABELS;
