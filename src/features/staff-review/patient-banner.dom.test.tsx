// Issue 16: the staff review names its patient with two identifiers above everything else.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PatientBanner } from './patient-banner.tsx';
import type { ReviewBundle } from './types.ts';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const bundle = (profile: Partial<ReviewBundle['profile']>): ReviewBundle => ({
  hospNo: '100001',
  profile: { name: 'Maria Lopez', hospNum: '100001', ...profile },
  glucose: { fasting: [], postprandial: [], random: [] },
  symptoms: [],
  tests: [],
  appointments: [],
  prescriptions: [],
  doses: [],
  lastSyncAt: null,
});

function banner(b: ReviewBundle): string {
  render(
    <I18nProvider i18n={i18n}>
      <PatientBanner bundle={b} />
    </I18nProvider>,
  );
  return screen.getByRole('region', { name: 'Patient' }).textContent ?? '';
}

describe('PatientBanner', () => {
  it('gives the name, the hospital number, the age and the gender', () => {
    expect(banner(bundle({ age: 58, gender: 'Female' }))).toBe('Maria LopezHospital number 100001Age 58Gender Female');
  });
  it('leaves out what is not known, and falls back on the number the staff member chose', () => {
    expect(banner(bundle({ hospNum: '', age: null, gender: '' }))).toBe('Maria LopezHospital number 100001');
  });
});
