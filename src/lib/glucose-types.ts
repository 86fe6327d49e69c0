// The reading types' names on screen, for every feature that shows a reading's type (the form,
// today's summary, the meter import).
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { GlucoseType } from '../../schemas/glucose.ts';

/** Each reading type's name on screen (`i18n._(GLUCOSE_TYPE_LABELS[type])`). */
export const GLUCOSE_TYPE_LABELS: Record<GlucoseType, MessageDescriptor> = { Fasting: msg`Fasting`, Postprandial: msg`Postprandial`, Random: msg`Random` };
