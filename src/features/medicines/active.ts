import type { Medicine } from '../../../schemas/medicine.ts';

import { localDateKey } from '../../lib/dates.ts';

/** docs/requirements.md §3: active means no end date, or an end date today or later (to the end of that day). */
export const isActive = (m: Pick<Medicine, 'endDate'>, now = new Date()) => !m.endDate || m.endDate >= localDateKey(now);
