import { describe, expect, it } from 'vitest';
import { pushMessage } from './messages.ts';
import { fcmData, fcmSender } from './fcm-sender.ts';

const payload = {
  tag: 'med-RX-1-2026-12-01-breakfast',
  portion: '1',
  data: {
    type: 'medicine' as const,
    prescrNo: 'RX-1',
    medicineName: 'Metformin',
    dose: '1-0-1',
    time: '08:00',
    meal: 'breakfast' as const,
    notificationTime: '2026-12-01T07:00:00.000Z',
    snoozed: true as const,
  },
};

describe('FCM', () => {
  it('carries the contract’s data part with every value as text', () => {
    expect(fcmData(pushMessage(payload, 'en'))).toEqual({
      type: 'medicine',
      prescrNo: 'RX-1',
      medicineName: 'Metformin',
      dose: '1-0-1',
      time: '08:00',
      meal: 'breakfast',
      notificationTime: '2026-12-01T07:00:00.000Z',
      snoozed: 'true',
    });
  });

  it('reports a broken service account as a failed send, without throwing or dropping the device', async () => {
    const sender = fcmSender({ type: 'service_account', project_id: 'p', client_email: 'x@p.iam.gserviceaccount.com', private_key: 'not a key' });
    expect(sender.provider).toBe('fcm');
    const outcome = await sender.send({ id: 'd', provider: 'fcm', token: 'registration-token', locale: null }, pushMessage(payload, 'es'));
    expect(outcome).toMatchObject({ ok: false, gone: false });
  });
});
