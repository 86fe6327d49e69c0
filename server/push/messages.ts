// The words of a reminder, in the language of the device it goes to. A small table of its own:
// the server has no Lingui catalogs, and these few sentences are all it ever says to a phone.
// Locales without a row fall back to English.
import { PUSH_ACTION_LATER, PUSH_ACTION_TAKEN, type PushAction } from '../../schemas/push.ts';
import type { Meal } from '../reminders/dose-pattern.ts';
import type { ReminderPayload } from '../reminders/plan.ts';

interface Texts {
  medicineTitle: string;
  medicineBody: (name: string, portion: string, when: string) => string;
  meals: Record<Meal, string>;
  /** Between the meal and its time ("dinner, 20:30"; Arabic has its own comma). */
  comma?: string;
  glucoTitle: string;
  glucoBody: string;
  /** The buttons of a medicine reminder (the service worker shows them with these titles). */
  taken: string;
  later: string;
}

const TEXTS: Record<string, Texts> = {
  en: {
    medicineTitle: 'Time for your medicine',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'breakfast', lunch: 'lunch', dinner: 'dinner' },
    glucoTitle: 'Glucometer day',
    glucoBody: 'Today is a glucose check day: please check your blood glucose.',
    taken: 'Mark as Taken',
    later: 'Remind Later',
  },
  es: {
    medicineTitle: 'Hora de su medicamento',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'desayuno', lunch: 'almuerzo', dinner: 'cena' },
    glucoTitle: 'Día de control con glucómetro',
    glucoBody: 'Hoy toca control de glucosa: mida su glucosa en sangre.',
    taken: 'Marcar como tomado',
    later: 'Recordar más tarde',
  },
  fr: {
    medicineTitle: 'C’est l’heure de votre médicament',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'petit-déjeuner', lunch: 'déjeuner', dinner: 'dîner' },
    glucoTitle: 'Jour de contrôle de la glycémie',
    glucoBody: 'Aujourd’hui, contrôlez votre glycémie avec votre lecteur.',
    taken: 'Marquer comme pris',
    later: 'Me le rappeler plus tard',
  },
  hi: {
    medicineTitle: 'आपकी दवा का समय',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'नाश्ता', lunch: 'दोपहर का खाना', dinner: 'रात का खाना' },
    glucoTitle: 'शुगर जाँच का दिन',
    glucoBody: 'आज शुगर जाँच का दिन है: कृपया ग्लूकोमीटर से अपना ब्लड शुगर जाँचें।',
    taken: 'दवा ले ली',
    later: 'बाद में याद दिलाएँ',
  },
  ar: {
    medicineTitle: 'حان موعد دوائك',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'الفطور', lunch: 'الغداء', dinner: 'العشاء' },
    comma: '، ',
    glucoTitle: 'يوم قياس السكر',
    glucoBody: 'اليوم موعد قياس السكر: يُرجى قياس نسبة السكر في الدم بجهاز القياس.',
    taken: 'تم تناول الدواء',
    later: 'ذكّرني لاحقًا',
  },
};

/** "es-MX" → the Spanish table; unknown or missing → English. */
export function textsFor(locale: string | null | undefined): Texts {
  const primary = (locale ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return TEXTS[primary] ?? (TEXTS['en'] as Texts);
}

/**
 * The JSON a device receives: the contract's `notification` and `data` parts, nothing else. A
 * medicine reminder's notification also names its two buttons in the device's language (`actions`;
 * a worker that does not know them keeps its English titles).
 */
export interface PushMessage {
  notification: { title: string; body: string; tag: string; actions?: { action: PushAction; title: string }[] };
  data: ReminderPayload['data'];
}

export function pushMessage(payload: ReminderPayload, locale: string | null | undefined): PushMessage {
  const t = textsFor(locale);
  const { data, tag } = payload;
  if (data.type === 'glucometerAlert') return { notification: { title: t.glucoTitle, body: t.glucoBody, tag }, data };
  const when = data.meal ? `${t.meals[data.meal]}${t.comma ?? ', '}${data.time}` : data.time;
  return {
    notification: {
      title: t.medicineTitle,
      body: t.medicineBody(data.medicineName, payload.portion ?? data.dose, when),
      tag,
      actions: [
        { action: PUSH_ACTION_TAKEN, title: t.taken },
        { action: PUSH_ACTION_LATER, title: t.later },
      ],
    },
    data,
  };
}
