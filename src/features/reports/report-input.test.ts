import { describe, expect, it } from 'vitest';
import type { ProfileDoc } from '../../../sync/storage/collections.ts';
import { queryWindow, reportInputFromLocal, type LocalReportData } from './report-input.ts';

const profile: ProfileDoc = {
  _id: 'profile',
  name: 'Maria Lopez',
  hospNum: '100001',
  hospital: 'City General Hospital',
  gender: 'female',
  age: 54,
  address: 'Calle 1',
  timeZone: 'Europe/Madrid',
  notificationTimings: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' },
  glucometerAlerts: ['Monday', '2026-11-20'],
  mustChangePassword: false,
  hospitalSettings: { identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1', urgentHighMgDl: 350, careContact: 'Ward 4, ext. 2210' },
};

const data: LocalReportData = {
  profile,
  readings: [
    { _id: '0190a0b0-0000-7000-8000-000000000001', type: 'Fasting', value: 112, recordedAt: '2026-11-20T07:10:00.000Z', updatedAt: '2026-11-20T07:10:01.000Z' },
    {
      _id: '0190a0b0-0000-7000-8000-000000000002',
      type: 'Postprandial',
      value: 188.5,
      unit: 'mg/dL',
      enteredValue: 188.5,
      recordedAt: '2026-11-20T14:10:00.000Z',
    },
  ],
  medicines: [
    {
      _id: '0190a0b0-0000-7000-8000-000000000003',
      prescrNo: 'RX-1',
      name: 'Metformin',
      dose: '500 mg',
      startDate: '2026-01-01',
      endDate: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
    { _id: '0190a0b0-0000-7000-8000-000000000004', prescrNo: 'RX-2', name: 'Gliclazide', dose: '30 mg' },
  ],
  intakes: [{ _id: '0190a0b0-0000-7000-8000-000000000005', prescrNo: 'RX-1', medicineName: 'Metformin', dose: '500 mg', takenAt: '2026-11-20T08:00:00.000Z' }],
  symptoms: [{ _id: '0190a0b0-0000-7000-8000-000000000006', symptom: 'Headache', recordedAt: '2026-11-19T10:00:00.000Z' }],
  labTests: [
    { _id: '0190a0b0-0000-7000-8000-000000000007', name: 'HbA1c', value: 7.2, unit: '%', recordedAt: '2026-11-01T09:00:00.000Z' },
    { _id: '0190a0b0-0000-7000-8000-000000000008', name: 'eGFR', value: 92, recordedAt: '2026-11-02T09:00:00.000Z' },
  ],
  appointments: [{ _id: '0190a0b0-0000-7000-8000-000000000009', doctor: 'Dr Ruiz', date: '2026-11-25T10:00:00.000Z', notes: '' }],
};

describe('RxDB documents → ReportInput', () => {
  it('copies the fields the report uses, and nothing else of the record', () => {
    const input = reportInputFromLocal(data, { from: '2026-11-01', to: '2026-11-30' }, '2026-11-30T18:00:00.000Z');
    expect(input).toEqual({
      patient: {
        name: 'Maria Lopez',
        hospNo: '100001',
        hospital: 'City General Hospital',
        identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1',
        gender: 'female',
        age: 54,
        timeZone: 'Europe/Madrid',
        notificationTimings: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' },
        glucometerAlerts: ['Monday', '2026-11-20'],
      },
      range: { from: '2026-11-01', to: '2026-11-30' },
      readings: [
        {
          _id: '0190a0b0-0000-7000-8000-000000000001',
          type: 'Fasting',
          value: 112,
          unit: null,
          enteredValue: null,
          utcOffsetMinutes: null,
          recordedAt: '2026-11-20T07:10:00.000Z',
        },
        {
          _id: '0190a0b0-0000-7000-8000-000000000002',
          type: 'Postprandial',
          value: 188.5,
          unit: 'mg/dL',
          enteredValue: 188.5,
          utcOffsetMinutes: null,
          recordedAt: '2026-11-20T14:10:00.000Z',
        },
      ],
      medicines: [
        { prescrNo: 'RX-1', name: 'Metformin', dose: '500 mg', startDate: '2026-01-01', endDate: null },
        { prescrNo: 'RX-2', name: 'Gliclazide', dose: '30 mg', startDate: null, endDate: null },
      ],
      intakes: [{ prescrNo: 'RX-1', medicineName: 'Metformin', dose: '500 mg', takenAt: '2026-11-20T08:00:00.000Z' }],
      symptoms: [{ symptom: 'Headache', recordedAt: '2026-11-19T10:00:00.000Z' }],
      labTests: [
        { _id: '0190a0b0-0000-7000-8000-000000000007', name: 'HbA1c', value: 7.2, unit: '%', recordedAt: '2026-11-01T09:00:00.000Z' },
        { _id: '0190a0b0-0000-7000-8000-000000000008', name: 'eGFR', value: 92, unit: null, recordedAt: '2026-11-02T09:00:00.000Z' },
      ],
      appointments: [{ doctor: 'Dr Ruiz', date: '2026-11-25T10:00:00.000Z', notes: '' }],
      generatedAt: '2026-11-30T18:00:00.000Z',
    });
    // Address and the password flag are not part of any report.
    expect(JSON.stringify(input)).not.toContain('Calle 1');
  });

  it('falls back to the device time zone and optional fields to null for a sparse profile (one stored before it carried the hospital settings)', () => {
    const sparse: ProfileDoc = {
      _id: 'profile',
      name: 'A',
      hospNum: '100009',
      notificationTimings: { breakfast: '07:00', lunch: '12:00', dinner: '19:00' },
      glucometerAlerts: [],
    };
    const input = reportInputFromLocal({ ...data, profile: sparse }, { from: '2026-11-01', to: '2026-11-07' }, '2026-11-07T00:00:00.000Z');
    expect(input.patient).toEqual({
      name: 'A',
      hospNo: '100009',
      hospital: null,
      identifierSystem: null,
      gender: null,
      age: null,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      notificationTimings: { breakfast: '07:00', lunch: '12:00', dinner: '19:00' },
      glucometerAlerts: [],
    });
  });

  it('queries the range and the previous period of the same length, with a day of margin for any zone', () => {
    // 30 days 1–30 Nov; previous period 2–31 Oct; margin: from 1 Oct, until the end of 1 Dec.
    expect(queryWindow({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ since: '2026-10-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' });
    expect(queryWindow({ from: '2026-11-30', to: '2026-11-30' })).toEqual({ since: '2026-11-28T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' });
  });
});
