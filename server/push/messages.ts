// The words of a reminder, in the language of the device it goes to. A small table of its own:
// the server has no Lingui catalogs, and these few sentences are all it ever says to a phone.
// Locales without a row fall back to English.
import type { Meal } from '../reminders/dose-pattern.ts';
import type { ReminderPayload } from '../reminders/plan.ts';

interface Texts {
  medicineTitle: string;
  medicineBody: (name: string, portion: string, when: string) => string;
  meals: Record<Meal, string>;
  glucoTitle: string;
  glucoBody: string;
}

const TEXTS: Record<string, Texts> = {
  en: {
    medicineTitle: 'Time for your medicine',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'breakfast', lunch: 'lunch', dinner: 'dinner' },
    glucoTitle: 'Glucometer day',
    glucoBody: 'Today is a glucose check day: please check your blood glucose.',
  },
  es: {
    medicineTitle: 'Hora de su medicamento',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'desayuno', lunch: 'almuerzo', dinner: 'cena' },
    glucoTitle: 'Día de control con glucómetro',
    glucoBody: 'Hoy toca control de glucosa: mida su glucosa en sangre.',
  },
};

/** "es-MX" → the Spanish table; unknown or missing → English. */
export function textsFor(locale: string | null | undefined): Texts {
  const primary = (locale ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return TEXTS[primary] ?? (TEXTS['en'] as Texts);
}

/** The JSON a device receives: the contract's `notification` and `data` parts, nothing else. */
export interface PushMessage {
  notification: { title: string; body: string; tag: string };
  data: ReminderPayload['data'];
}

export function pushMessage(payload: ReminderPayload, locale: string | null | undefined): PushMessage {
  const t = textsFor(locale);
  const { data, tag } = payload;
  if (data.type === 'glucometerAlert') return { notification: { title: t.glucoTitle, body: t.glucoBody, tag }, data };
  const when = data.meal ? `${t.meals[data.meal]}, ${data.time}` : data.time;
  return {
    notification: { title: t.medicineTitle, body: t.medicineBody(data.medicineName, payload.portion ?? data.dose, when), tag },
    data,
  };
}
