import { describe, expect, it } from 'vitest';
import { reportInputFromReview } from './report-input.ts';
import type { ReviewBundle } from './types.ts';

const bundle: ReviewBundle = {
  hospNo: '100001',
  profile: {
    name: 'Maria Lopez',
    hospNum: '100001',
    gender: 'female',
    age: 54,
    hospital: 'City General Hospital',
    timeZone: 'Europe/Madrid',
    notificationTimings: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' },
    glucometerAlerts: ['Monday'],
    lastSyncAt: '2026-11-30T10:00:00.000Z',
    hospitalSettings: { identifierSystem: 'https://fhir.example-hospital.org/hospital-numbers', urgentHighMgDl: 400, careContact: null },
  },
  glucose: {
    fasting: [
      {
        _id: '0190a0b0-0000-7000-8000-000000000001',
        type: 'Fasting',
        value: 101,
        recordedAt: '2026-11-20T07:00:00.000Z',
        updatedAt: '2026-11-20T07:00:00.000Z',
      },
    ],
    postprandial: [{ _id: '0190a0b0-0000-7000-8000-000000000002', type: 'Postprandial', value: 172, recordedAt: '2026-11-20T14:00:00.000Z' }],
    random: [{ _id: '0190a0b0-0000-7000-8000-000000000003', type: 'Random', value: 65, recordedAt: '2026-11-21T22:00:00.000Z' }],
  },
  symptoms: [{ _id: 's1', symptom: 'Thirst', recordedAt: '2026-11-21T09:00:00.000Z' }],
  tests: [
    { _id: 't1', name: 'HbA1c', value: 7.4, unit: '%', recordedAt: '2026-10-01T09:00:00.000Z' },
    { _id: 't2', name: 'Creatinine', value: 0.9, unit: '', recordedAt: '2026-10-01T09:00:00.000Z' },
  ],
  appointments: [
    { _id: 'a1', doctor: 'Dr Ruiz', date: '2026-12-05T10:00:00.000Z', notes: null },
    { _id: 'a2', doctor: 'Dr Kim', date: '2026-11-05T10:00:00.000Z' },
  ],
  prescriptions: [{ _id: 'p1', prescrNo: 'RX-1', name: 'Metformin', dose: '500 mg', startDate: '2026-01-01', endDate: null, active: true }],
  doses: [
    { _id: 'd1', prescrNo: 'RX-1', takenAt: '2026-11-20T08:00:00.000Z' },
    { _id: 'd2', prescrNo: 'RX-9', medicineName: 'Old pill', takenAt: '2026-11-20T08:05:00.000Z' },
    { _id: 'd3', prescrNo: 'RX-8', takenAt: '2026-11-20T08:06:00.000Z' },
  ],
  lastSyncAt: '2026-11-30T10:00:00.000Z',
};

describe('ReviewBundle → ReportInput', () => {
  it('flattens the three reading lists and copies what the report uses', () => {
    const input = reportInputFromReview(bundle, { from: '2026-11-01', to: '2026-11-30' }, '2026-11-30T18:00:00.000Z');
    expect(input.patient).toEqual({
      name: 'Maria Lopez',
      hospNo: '100001',
      hospital: 'City General Hospital',
      identifierSystem: 'https://fhir.example-hospital.org/hospital-numbers',
      gender: 'female',
      age: 54,
      timeZone: 'Europe/Madrid',
      notificationTimings: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' },
      glucometerAlerts: ['Monday'],
    });
    expect(input.range).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(input.generatedAt).toBe('2026-11-30T18:00:00.000Z');
    expect(input.readings).toEqual([
      {
        _id: '0190a0b0-0000-7000-8000-000000000001',
        type: 'Fasting',
        value: 101,
        unit: null,
        enteredValue: null,
        utcOffsetMinutes: null,
        recordedAt: '2026-11-20T07:00:00.000Z',
      },
      {
        _id: '0190a0b0-0000-7000-8000-000000000002',
        type: 'Postprandial',
        value: 172,
        unit: null,
        enteredValue: null,
        utcOffsetMinutes: null,
        recordedAt: '2026-11-20T14:00:00.000Z',
      },
      {
        _id: '0190a0b0-0000-7000-8000-000000000003',
        type: 'Random',
        value: 65,
        unit: null,
        enteredValue: null,
        utcOffsetMinutes: null,
        recordedAt: '2026-11-21T22:00:00.000Z',
      },
    ]);
    expect(input.medicines).toEqual([{ prescrNo: 'RX-1', name: 'Metformin', dose: '500 mg', startDate: '2026-01-01', endDate: null }]);
    expect(input.symptoms).toEqual([{ symptom: 'Thirst', recordedAt: '2026-11-21T09:00:00.000Z' }]);
    expect(input.labTests).toEqual([
      { _id: 't1', name: 'HbA1c', value: 7.4, unit: '%', recordedAt: '2026-10-01T09:00:00.000Z' },
      { _id: 't2', name: 'Creatinine', value: 0.9, unit: null, recordedAt: '2026-10-01T09:00:00.000Z' },
    ]);
    expect(input.appointments).toEqual([
      { doctor: 'Dr Ruiz', date: '2026-12-05T10:00:00.000Z', notes: null },
      { doctor: 'Dr Kim', date: '2026-11-05T10:00:00.000Z', notes: null },
    ]);
  });

  it('names each dose from its prescription when the intake did not carry the name', () => {
    const input = reportInputFromReview(bundle, { from: '2026-11-01', to: '2026-11-30' }, '2026-11-30T18:00:00.000Z');
    expect(input.intakes).toEqual([
      { prescrNo: 'RX-1', medicineName: 'Metformin', dose: '500 mg', takenAt: '2026-11-20T08:00:00.000Z' },
      { prescrNo: 'RX-9', medicineName: 'Old pill', takenAt: '2026-11-20T08:05:00.000Z' },
      { prescrNo: 'RX-8', takenAt: '2026-11-20T08:06:00.000Z' },
    ]);
  });

  it('falls back to the bundle hospital number and the device zone for a sparse profile', () => {
    const sparse: ReviewBundle = { ...bundle, profile: { name: 'B', hospNum: '' } };
    const input = reportInputFromReview(sparse, { from: '2026-11-01', to: '2026-11-30' }, '2026-11-30T18:00:00.000Z');
    expect(input.patient).toEqual({
      name: 'B',
      hospNo: '100001',
      hospital: null,
      identifierSystem: null,
      gender: null,
      age: null,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      notificationTimings: null,
      glucometerAlerts: null,
    });
  });
});
