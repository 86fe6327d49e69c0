// docs/requirements.md §5 push validation, as the service worker and the page read a payload.
import { describe, expect, it } from 'vitest';
import { isIntakeFromPush, parsePushPayload, readPushPageMessage } from './push-payload.ts';

const medicine = {
  notification: { title: 'Time for your medicine', body: 'Metformin 500 mg tablet — 1 (breakfast, 08:00)', tag: 'med-RX-100001-01-2026-11-24-breakfast' },
  data: {
    type: 'medicine',
    prescrNo: 'RX-100001-01',
    medicineName: 'Metformin 500 mg tablet',
    dose: '1-0-1',
    time: '08:00',
    meal: 'breakfast',
    notificationTime: '2026-11-24T07:00:00.000Z',
  },
};
const gluco = {
  notification: { title: 'Glucometer day', body: 'Today is a glucose check day: please check your blood glucose.', tag: 'gluco-2026-11-24' },
  data: { type: 'glucometerAlert', time: '08:00', notificationTime: '2026-11-24T07:00:00.000Z' },
};

describe('parsePushPayload', () => {
  it('reads the contract’s medicine reminder and glucometer day', () => {
    expect(parsePushPayload(medicine)).toEqual(medicine);
    expect(parsePushPayload(gluco)).toEqual(gluco);
  });

  it('ignores a push without a notification part or without a data part', () => {
    expect(parsePushPayload({ data: medicine.data })).toBeUndefined();
    expect(parsePushPayload({ notification: medicine.notification })).toBeUndefined();
    expect(parsePushPayload({ notification: 'Time for your medicine', data: medicine.data })).toBeUndefined();
    expect(parsePushPayload({ notification: medicine.notification, data: [medicine.data] })).toBeUndefined();
    expect(parsePushPayload({ notification: medicine.notification, data: null })).toBeUndefined();
    for (const junk of [null, undefined, 'text', 42, []]) expect(parsePushPayload(junk)).toBeUndefined();
  });

  it.each(['prescrNo', 'medicineName', 'dose', 'time'])('ignores a medicine reminder without %s, or with it blank', (field) => {
    const rest: Record<string, string> = { ...medicine.data };
    delete rest[field];
    expect(parsePushPayload({ ...medicine, data: rest })).toBeUndefined();
    expect(parsePushPayload({ ...medicine, data: { ...medicine.data, [field]: '  ' } })).toBeUndefined();
    expect(parsePushPayload({ ...medicine, data: { ...medicine.data, [field]: { nested: true } } })).toBeUndefined();
  });

  it('reads FCM’s string values, keeps known fields only and gives a title when there is none', () => {
    const parsed = parsePushPayload({
      from: '1234',
      fcmMessageId: 'abc',
      notification: { body: 'Metformin' },
      data: { ...medicine.data, snoozed: 'true', hospNo: '100001', extra: 'x' },
    });
    expect(parsed?.notification).toEqual({ title: 'Eddy', body: 'Metformin' });
    expect(parsed?.data).toEqual({ ...medicine.data, snoozed: true });
  });

  it('reads the buttons’ titles in the device’s language, known actions only, and works without them', () => {
    const actions = [
      { action: 'taken', title: 'تم تناول الدواء' },
      { action: 'later', title: 'ذكّرني لاحقًا' },
      { action: 'delete-everything', title: 'x' },
      { action: 'later' },
    ];
    expect(parsePushPayload({ ...medicine, notification: { ...medicine.notification, actions } })?.notification).toEqual({
      ...medicine.notification,
      actions: { taken: 'تم تناول الدواء', later: 'ذكّرني لاحقًا' },
    });
    for (const junk of ['Mark', [], [null, 3], { taken: 'x' }]) {
      expect(parsePushPayload({ ...medicine, notification: { ...medicine.notification, actions: junk } })?.notification).toEqual(medicine.notification);
    }
  });

  it('reads a severe-low alert to staff, which needs the patient’s hospital number', () => {
    const alert = {
      notification: { title: 'Severe low: 45 mg/dL (2.5 mmol/L)', body: 'Maria Lopez (100001), measured Nov 29, 02:14', tag: 'severe-low:100001' },
      data: { type: 'severeLow', hospNo: '100001', valueMgDl: '45', measuredAt: '2026-11-28T20:44:00.000Z', extra: 'x' },
    };
    expect(parsePushPayload(alert)).toEqual({
      notification: alert.notification,
      data: { type: 'severeLow', hospNo: '100001', valueMgDl: 45, measuredAt: '2026-11-28T20:44:00.000Z' },
    });
    expect(parsePushPayload({ ...alert, data: { type: 'severeLow', valueMgDl: 45 } })).toBeUndefined();
  });

  it('passes other notices on with their type only (nothing to keep, nothing to check)', () => {
    expect(parsePushPayload({ notification: { title: 'News' }, data: { message: 'hello', secret: 1 } })).toEqual({
      notification: { title: 'News' },
      data: { type: '' },
    });
  });
});

describe('worker → page messages', () => {
  const intake = { _id: '0193a1c2-7b5e-7c3d-8e9f-0123456789ab', prescrNo: 'RX-1', medicineName: 'Metformin', dose: '1', takenAt: '2026-11-24T08:01:00.000Z' };

  it('accepts the three messages of the contract, checked field by field', () => {
    expect(readPushPageMessage({ type: 'push-received', data: medicine.data })).toEqual({ type: 'push-received', data: medicine.data });
    expect(readPushPageMessage({ type: 'mark medicine taken', intake })).toEqual({ type: 'mark medicine taken', intake });
    const later = { type: 'remind later', data: medicine.data, remindAt: '2026-11-24T08:15:00.000Z' };
    expect(readPushPageMessage(later)).toEqual(later);
  });

  it('refuses anything else', () => {
    expect(readPushPageMessage({ type: 'replay-done', sent: 1 })).toBeUndefined();
    expect(readPushPageMessage({ type: 'push-received', data: { type: 'medicine', prescrNo: 'RX-1' } })).toBeUndefined();
    expect(readPushPageMessage({ type: 'mark medicine taken', intake: { ...intake, _id: 'not-a-uuid' } })).toBeUndefined();
    expect(readPushPageMessage({ type: 'remind later', data: medicine.data, remindAt: 'soon' })).toBeUndefined();
    expect(readPushPageMessage({ type: 'remind later', data: gluco.data, remindAt: '2026-11-24T08:15:00.000Z' })).toBeUndefined();
    expect(isIntakeFromPush({ ...intake, takenAt: 'yesterday' })).toBe(false);
    expect(isIntakeFromPush({ ...intake, dose: '' })).toBe(false);
  });
});
