import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { pushMessageSchema } from '../../schemas/push.ts';
import { pushMessage } from './messages.ts';

const medicine = {
  tag: 'med-RX-1-2026-12-01-dinner',
  portion: '½',
  data: { type: 'medicine' as const, prescrNo: 'RX-1', medicineName: 'Glimepiride 2 mg', dose: '1-0-½', time: '20:30', meal: 'dinner' as const, notificationTime: '2026-12-01T19:30:00.000Z' },
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
      expect(pushMessage(medicine, locale).notification).toMatchObject({ title: 'Hora de su medicamento', body: 'Glimepiride 2 mg — ½ (cena, 20:30)', tag: medicine.tag });
      expect(pushMessage(medicine, locale).notification.actions?.map((a) => a.title)).toEqual(['Marcar como tomado', 'Recordar más tarde']);
      expect(pushMessage(gluco, locale).notification.title).toBe('Día de control con glucómetro');
    }
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
      'fr-FR': { title: 'C’est l’heure de votre médicament', body: 'Glimepiride 2 mg — ½ (dîner, 20:30)', taken: 'Marquer comme pris', later: 'Me le rappeler plus tard', gluco: 'Jour de contrôle de la glycémie' },
      hi: { title: 'आपकी दवा का समय', body: 'Glimepiride 2 mg — ½ (रात का खाना, 20:30)', taken: 'दवा ले ली', later: 'बाद में याद दिलाएँ', gluco: 'शुगर जाँच का दिन' },
      'ar-EG': { title: 'حان موعد دوائك', body: 'Glimepiride 2 mg — ½ (العشاء، 20:30)', taken: 'تم تناول الدواء', later: 'ذكّرني لاحقًا', gluco: 'يوم قياس السكر' },
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
