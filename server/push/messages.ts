// The words of a reminder, in the language of the device it goes to. A small table of its own:
// the server has no Lingui catalogs, and these few sentences are all it ever says to a phone.
// Locales without a row fall back to English.
import { PUSH_ACTION_LATER, PUSH_ACTION_TAKEN, type PushAction, type SevereLowAlertJson } from '../../schemas/push.ts';
import { asTaken, formatGlucose } from '../../schemas/glucose-units.ts';
import { shownAgreeing } from '../../schemas/judgement.ts';
import type { Meal } from '../reminders/dose-pattern.ts';
import type { ReminderPayload } from '../reminders/plan.ts';
import { LATE_AFTER_MS, type SevereLowPayload } from '../reminders/severe-low.ts';

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
  /** A severe-low alert to staff (issue 18): the value, then who and when it was measured. */
  lowTitle: (value: string) => string;
  lowBody: (name: string, hospNo: string, measured: string) => string;
  /** Added when the reading reached the server long after it was measured (recorded offline). */
  lowLate: (delay: string) => string;
}

const TEXTS = {
  en: {
    medicineTitle: 'Time for your medicine',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'breakfast', lunch: 'lunch', dinner: 'dinner' },
    glucoTitle: 'Glucometer day',
    glucoBody: 'Today is a glucose check day: please check your blood glucose.',
    taken: 'Mark as Taken',
    later: 'Remind Later',
    lowTitle: (value) => `Severe low: ${value}`,
    lowBody: (name, hospNo, measured) => `${name} (${hospNo}), measured ${measured}`,
    lowLate: (delay) => `received ${delay} later`,
  },
  es: {
    medicineTitle: 'Hora de su medicamento',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'desayuno', lunch: 'almuerzo', dinner: 'cena' },
    glucoTitle: 'Día de control con glucómetro',
    glucoBody: 'Hoy toca control de glucosa: mida su glucosa en sangre.',
    taken: 'Marcar como tomado',
    later: 'Recordar más tarde',
    lowTitle: (value) => `Hipoglucemia grave: ${value}`,
    lowBody: (name, hospNo, measured) => `${name} (${hospNo}), medida ${measured}`,
    lowLate: (delay) => `recibida ${delay} después`,
  },
  fr: {
    medicineTitle: 'C’est l’heure de votre médicament',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'petit-déjeuner', lunch: 'déjeuner', dinner: 'dîner' },
    glucoTitle: 'Jour de contrôle de la glycémie',
    glucoBody: 'Aujourd’hui, contrôlez votre glycémie avec votre lecteur.',
    taken: 'Marquer comme pris',
    later: 'Me le rappeler plus tard',
    lowTitle: (value) => `Hypoglycémie sévère : ${value}`,
    lowBody: (name, hospNo, measured) => `${name} (${hospNo}), mesurée ${measured}`,
    lowLate: (delay) => `reçue ${delay} plus tard`,
  },
  hi: {
    medicineTitle: 'आपकी दवा का समय',
    medicineBody: (name, portion, when) => `${name} — ${portion} (${when})`,
    meals: { breakfast: 'नाश्ता', lunch: 'दोपहर का खाना', dinner: 'रात का खाना' },
    glucoTitle: 'शुगर जाँच का दिन',
    glucoBody: 'आज शुगर जाँच का दिन है: कृपया ग्लूकोमीटर से अपना ब्लड शुगर जाँचें।',
    taken: 'दवा ले ली',
    later: 'बाद में याद दिलाएँ',
    lowTitle: (value) => `गंभीर लो शुगर: ${value}`,
    lowBody: (name, hospNo, measured) => `${name} (${hospNo}), माप ${measured}`,
    lowLate: (delay) => `${delay} बाद मिली`,
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
    lowTitle: (value) => `انخفاض شديد في السكر: ${value}`,
    lowBody: (name, hospNo, measured) => `${name} (${hospNo})، قيس في ${measured}`,
    lowLate: (delay) => `وصل بعد ${delay}`,
  },
} satisfies Record<string, Texts>;

/** The tables by language; English for any other. */
const BY_LANGUAGE: Readonly<Record<string, Texts>> = TEXTS;

/** The language of the table a locale gets: "es-MX" → "es"; unknown or missing → "en". */
function textsLocale(locale: string | null | undefined): string {
  const primary = (locale ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return primary in TEXTS ? primary : 'en';
}

/** "es-MX" → the Spanish table; unknown or missing → English. */
export function textsFor(locale: string | null | undefined): Texts {
  return BY_LANGUAGE[textsLocale(locale)] ?? TEXTS.en;
}

/**
 * The JSON a device receives: the contract's `notification` and `data` parts, nothing else. A
 * medicine reminder's notification also names its two buttons in the device's language (`actions`;
 * a worker that does not know them keeps its English titles).
 */
export interface PushMessage {
  notification: { title: string; body: string; tag: string; actions?: { action: PushAction; title: string }[] };
  data: ReminderPayload['data'] | SevereLowAlertJson;
}

/** A zone's short name at `at` in the device's language ("GMT+5:30", "UTC+1"); undefined for a zone Intl does not know. */
function zoneName(intl: string, timeZone: string, at: Date): string | undefined {
  try {
    return new Intl.DateTimeFormat(intl, { timeZone, hour: 'numeric', timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  } catch {
    return undefined;
  }
}

/**
 * A reminder in the device's language. A medicine's time is the patient's meal time on the
 * profile's clock (`timeZone`), which names its zone ("dinner, 20:30 GMT+5:30"): the server does not
 * know which zone the phone is in when it is read.
 */
export function pushMessage(payload: ReminderPayload, locale: string | null | undefined, timeZone?: string): PushMessage {
  const t = textsFor(locale);
  const { data, tag } = payload;
  if (data.type === 'glucometerAlert') return { notification: { title: t.glucoTitle, body: t.glucoBody, tag }, data };
  const zone = timeZone ? zoneName(Intl.getCanonicalLocales(textsLocale(locale))[0] ?? 'en', timeZone, new Date(data.notificationTime)) : undefined;
  const clock = zone ? `${data.time} ${zone}` : data.time;
  const when = data.meal ? `${t.meals[data.meal]}${t.comma ?? ', '}${clock}` : clock;
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

/** What a severe-low alert needs besides the job's payload: whose reading, and the hospital's clock. */
export interface SevereLowAlert {
  payload: SevereLowPayload;
  name: string;
  hospNo: string;
  /** The hospital's time zone: the ward reads the measurement time on its own clock. */
  timeZone: string;
  /** The hospital's severe-low level (mg/dL) the reading was judged below. */
  severeLowMgDl: number;
  /** When the alert goes out: a reading that arrives late says how late. */
  sentAt: Date;
}

/** The part of Intl.DurationFormat used here. */
type DurationFormatConstructor = new (locale: string, options: { style: 'short' }) => { format(duration: { hours?: number; minutes: number }): string };

/** "2 hr, 5 min" in the device's language (whole minutes; at least one). */
function delayText(ms: number, locale: string): string {
  const total = Math.max(1, Math.round(ms / 60_000));
  const parts = { hours: Math.floor(total / 60), minutes: total % 60 };
  // Intl.DurationFormat is in Node 24 (docs/requirements.md §10), and in TypeScript's lib only from
  // ES2025 (this program's is ES2023): Intl as it is, with it added. Not declared globally, where the
  // app's code (whose browsers may lack it) would see it too.
  const { DurationFormat } = Intl as typeof Intl & { DurationFormat: DurationFormatConstructor };
  return new DurationFormat(locale, { style: 'short' }).format(parts.hours > 0 ? parts : { minutes: parts.minutes });
}

/**
 * A severe-low alert to a staff device, worded in its language: the value as the patient took it
 * (and in the other unit), the patient's name and hospital number, when it was measured on the
 * hospital's clock, and how late it arrived when it was recorded offline. The tag makes a newer
 * alert about the same patient replace the older one on a device.
 */
export function severeLowMessage(alert: SevereLowAlert, locale: string | null | undefined): PushMessage {
  const t = textsFor(locale);
  const intl = Intl.getCanonicalLocales(textsLocale(locale))[0] ?? 'en';
  const { payload } = alert;
  const reading = { value: payload.valueMgDl, unit: payload.enteredUnit ?? null, enteredValue: payload.enteredValue ?? null };
  const taken = asTaken(reading).unit;
  const other = taken === 'mg/dL' ? 'mmol/L' : 'mg/dL';
  // The other unit's figure with the digits that keep it below the alert's level (judgement.ts):
  // a typed 53.9 mg/dL reads "(2.99 mmol/L)", never "(3.0 mmol/L)" in an alert of a value below 3.0.
  const converted = shownAgreeing(reading, other, alert.severeLowMgDl, true);
  const otherText = new Intl.NumberFormat(intl, { minimumFractionDigits: converted.decimals, maximumFractionDigits: converted.decimals }).format(
    converted.value,
  );
  const value = `${formatGlucose(reading, taken, intl)} ${taken} (${otherText} ${other})`;
  const measuredAt = new Date(payload.measuredAt);
  // The zone is named: the ward's clock may not be the reader's.
  const measured = new Intl.DateTimeFormat(intl, {
    timeZone: alert.timeZone,
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(measuredAt);
  const lateBy = alert.sentAt.getTime() - measuredAt.getTime();
  const body = t.lowBody(alert.name, alert.hospNo, measured) + (lateBy > LATE_AFTER_MS ? `${t.comma ?? ', '}${t.lowLate(delayText(lateBy, intl))}` : '');
  return {
    notification: { title: t.lowTitle(value), body, tag: `severe-low:${alert.hospNo}` },
    data: {
      type: 'severeLow',
      hospNo: alert.hospNo,
      valueMgDl: payload.valueMgDl,
      measuredAt: payload.measuredAt,
      notificationTime: alert.sentAt.toISOString(),
    },
  };
}
