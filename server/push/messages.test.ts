import { describe, expect, it } from 'vitest';
import { pushMessage } from './messages.ts';

const medicine = {
  tag: 'med-RX-1-2026-12-01-dinner',
  portion: '½',
  data: { type: 'medicine' as const, prescrNo: 'RX-1', medicineName: 'Glimepiride 2 mg', dose: '1-0-½', time: '20:30', meal: 'dinner' as const, notificationTime: '2026-12-01T19:30:00.000Z' },
};
const gluco = { tag: 'gluco-2026-12-01', data: { type: 'glucometerAlert' as const, time: '08:00', notificationTime: '2026-12-01T07:00:00.000Z' } };

describe('the words of a reminder', () => {
  it('are English by default and for unknown languages, Spanish for any "es" locale', () => {
    for (const locale of [null, 'en', 'en-GB', 'fr', 'zz']) {
      expect(pushMessage(medicine, locale).notification).toEqual({ title: 'Time for your medicine', body: 'Glimepiride 2 mg — ½ (dinner, 20:30)', tag: medicine.tag });
    }
    for (const locale of ['es', 'es-MX', 'ES']) {
      expect(pushMessage(medicine, locale).notification).toEqual({ title: 'Hora de su medicamento', body: 'Glimepiride 2 mg — ½ (cena, 20:30)', tag: medicine.tag });
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
});
