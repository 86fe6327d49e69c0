import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { pushMessageSchema } from '../../schemas/push.ts';
import { pushMessage, severeLowMessage } from './messages.ts';

const medicine = {
  tag: 'med-RX-1-2026-12-01-dinner',
  portion: '½',
  data: {
    type: 'medicine' as const,
    prescrNo: 'RX-1',
    medicineName: 'Glimepiride 2 mg',
    dose: '1-0-½',
    time: '20:30',
    meal: 'dinner' as const,
    notificationTime: '2026-12-01T19:30:00.000Z',
  },
};
const gluco = { tag: 'gluco-2026-12-01', data: { type: 'glucometerAlert' as const, time: '08:00', notificationTime: '2026-12-01T07:00:00.000Z' } };

describe('the words of a reminder', () => {
  it('are English by default and for unknown languages, Spanish for any "es" locale', () => {
    for (const locale of [null, 'en', 'en-GB', 'de', 'zz']) {
      expect(pushMessage(medicine, locale).notification).toEqual({
        title: 'Time for your medicine',
        body: 'Glimepiride 2 mg — ½ (dinner, 20:30)',
        tag: medicine.tag,
        actions: [
          { action: 'taken', title: 'Mark as Taken' },
          { action: 'later', title: 'Remind Later' },
        ],
      });
    }
    for (const locale of ['es', 'es-MX', 'ES']) {
      expect(pushMessage(medicine, locale).notification).toMatchObject({
        title: 'Hora de su medicamento',
        body: 'Glimepiride 2 mg — ½ (cena, 20:30)',
        tag: medicine.tag,
      });
      expect(pushMessage(medicine, locale).notification.actions?.map((a) => a.title)).toEqual(['Marcar como tomado', 'Recordar más tarde']);
      expect(pushMessage(gluco, locale).notification.title).toBe('Día de control con glucómetro');
    }
  });

  it("name the zone of the medicine's time, the profile's clock, in the device's language", () => {
    // The meal time is the profile's; the phone reading it may be in another zone.
    expect(pushMessage(medicine, 'en', 'Asia/Kolkata').notification.body).toBe('Glimepiride 2 mg — ½ (dinner, 20:30 GMT+5:30)');
    expect(pushMessage(medicine, 'hi', 'Asia/Kolkata').notification.body).toBe('Glimepiride 2 mg — ½ (रात का खाना, 20:30 IST)');
    expect(pushMessage(medicine, 'fr', 'Europe/Paris').notification.body).toBe('Glimepiride 2 mg — ½ (dîner, 20:30 UTC+1)');
    expect(pushMessage(medicine, 'es', 'Europe/Madrid').notification.body).toBe('Glimepiride 2 mg — ½ (cena, 20:30 CET)');
    // Daylight saving: the name at the reminder's own instant (London in July is BST, GMT+1).
    const summer = { ...medicine, data: { ...medicine.data, notificationTime: '2026-07-01T19:30:00.000Z' } };
    expect(pushMessage(summer, 'en', 'Europe/London').notification.body).toBe('Glimepiride 2 mg — ½ (dinner, 20:30 GMT+1)');
    expect(pushMessage(medicine, 'en', 'Europe/London').notification.body).toBe('Glimepiride 2 mg — ½ (dinner, 20:30 GMT)');
    // A zone this server's Intl does not know leaves the time as it was rather than failing the push.
    expect(pushMessage(medicine, 'en', 'Mars/Olympus_Mons').notification.body).toBe('Glimepiride 2 mg — ½ (dinner, 20:30)');
    // A glucometer day shows no time.
    expect(pushMessage(gluco, 'en', 'Asia/Kolkata').notification.body).toBe('Today is a glucose check day: please check your blood glucose.');
  });

  it('leave the data part exactly as planned', () => {
    expect(pushMessage(medicine, 'es').data).toBe(medicine.data);
    expect(pushMessage(gluco, 'en')).toEqual({
      notification: { title: 'Glucometer day', body: 'Today is a glucose check day: please check your blood glucose.', tag: 'gluco-2026-12-01' },
      data: gluco.data,
    });
  });

  it('are in French, Hindi and Arabic for those devices, buttons included, and match the push schema', () => {
    const isPushMessage = new Ajv({ strict: false }).compile(pushMessageSchema);
    const expected = {
      'fr-FR': {
        title: 'C’est l’heure de votre médicament',
        body: 'Glimepiride 2 mg — ½ (dîner, 20:30)',
        taken: 'Marquer comme pris',
        later: 'Me le rappeler plus tard',
        gluco: 'Jour de contrôle de la glycémie',
      },
      hi: { title: 'आपकी दवा का समय', body: 'Glimepiride 2 mg — ½ (रात का खाना, 20:30)', taken: 'दवा ले ली', later: 'बाद में याद दिलाएँ', gluco: 'शुगर जाँच का दिन' },
      'ar-EG': {
        title: 'حان موعد دوائك',
        body: 'Glimepiride 2 mg — ½ (العشاء، 20:30)',
        taken: 'تم تناول الدواء',
        later: 'ذكّرني لاحقًا',
        gluco: 'يوم قياس السكر',
      },
    };
    for (const [locale, w] of Object.entries(expected)) {
      const message = pushMessage(medicine, locale);
      expect(message.notification).toEqual({
        title: w.title,
        body: w.body,
        tag: medicine.tag,
        actions: [
          { action: 'taken', title: w.taken },
          { action: 'later', title: w.later },
        ],
      });
      expect(isPushMessage(message), JSON.stringify(isPushMessage.errors)).toBe(true);
      const notice = pushMessage(gluco, locale);
      expect(notice.notification.title).toBe(w.gluco);
      // A glucometer day has no buttons.
      expect(notice.notification.actions).toBeUndefined();
      expect(isPushMessage(notice)).toBe(true);
    }
  });
});

describe('the words of a severe-low alert to staff', () => {
  const isPushMessage = new Ajv({ strict: false }).compile(pushMessageSchema);
  const alert = {
    payload: { readingId: 'r1', valueMgDl: 45, measuredAt: '2026-11-28T20:44:00.000Z' },
    name: 'Maria Lopez',
    hospNo: '100001',
    timeZone: 'Asia/Kolkata',
    severeLowMgDl: 54,
    sentAt: new Date('2026-11-28T20:45:00.000Z'),
  };

  it('say the value in both units, who, and when it was measured on the hospital’s clock, in each language', () => {
    const titles = ['en', 'es', 'fr', 'hi', 'ar'].map((l) => severeLowMessage(alert, l).notification.title);
    expect(new Set(titles).size).toBe(5);
    expect(titles[0]).toBe('Severe low: 45 mg/dL (2.5 mmol/L)');
    expect(titles[2]).toBe('Hypoglycémie sévère : 45 mg/dL (2,5 mmol/L)');
    for (const l of ['en', 'es', 'fr', 'hi', 'ar']) {
      const m = severeLowMessage(alert, l);
      expect(m.notification.body).toContain('Maria Lopez (100001)');
      expect(m.notification.tag).toBe('severe-low:100001');
      expect(isPushMessage(m), l).toBe(true);
    }
    // The zone is named: the reader's own clock may be another.
    expect(severeLowMessage(alert, 'en').notification.body).toBe('Maria Lopez (100001), measured Nov 29, 02:14 GMT+5:30');
  });

  it('say how late a reading recorded offline arrived, past ten minutes only', () => {
    const at = (minutes: number) => ({ ...alert, sentAt: new Date(Date.parse(alert.payload.measuredAt) + minutes * 60_000) });
    expect(severeLowMessage(at(10), 'en').notification.body).not.toContain('received');
    expect(severeLowMessage(at(11), 'en').notification.body).toMatch(/, received 11 min later$/);
    expect(severeLowMessage(at(125), 'en').notification.body).toMatch(/, received 2 hr, 5 min later$/);
    expect(severeLowMessage(at(125), 'ar').notification.body).toContain('، ');
  });

  it('never round a value below the level up to it: a reading is shown as taken, the other unit with the digits that keep it below', () => {
    const typed = { ...alert, payload: { ...alert.payload, valueMgDl: 53.6 } };
    // 53.6 mg/dL is 2.975 mmol/L: "3.0 mmol/L" would contradict an alert of a value below 3.0.
    expect(severeLowMessage(typed, 'en').notification.title).toBe('Severe low: 53.6 mg/dL (2.97 mmol/L)');
    const mmol = { ...alert, payload: { ...alert.payload, valueMgDl: 2.9 * 18.016, enteredUnit: 'mmol/L' as const, enteredValue: 2.9 } };
    expect(severeLowMessage(mmol, 'en').notification.title).toBe('Severe low: 2.9 mmol/L (52 mg/dL)');
  });
});
