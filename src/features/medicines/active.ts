import type { Medicine } from '../../../schemas/medicine.ts';

/** Local calendar date as YYYY-MM-DD. */
export const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Spec §3: active means no end date, or an end date today or later (to the end of that day). */
export const isActive = (m: Pick<Medicine, 'endDate'>, now = new Date()) => !m.endDate || m.endDate >= localDate(now);
