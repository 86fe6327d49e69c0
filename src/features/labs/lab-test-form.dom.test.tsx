// The lab result form offers a listed test only the units it is measured in (schemas/lab-units.ts):
// a made-up unit never reaches onSubmit, so it never reaches the device's database or the outbox.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { LabTestForm, type LabTestInput } from './lab-test-form.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const REFERENCES = [
  { name: 'eGFR', unit: 'mL/min/1.73m2' },
  { name: 'HbA1c', unit: '%' },
  { name: 'Potassium', unit: 'mmol/L' },
];

function renderForm(initial?: LabTest) {
  const onSubmit = vi.fn<(input: LabTestInput) => Promise<void>>(() => Promise.resolve());
  render(
    <I18nProvider i18n={i18n}>
      <LabTestForm references={REFERENCES} initial={initial} submitLabel="Save" onSubmit={onSubmit} />
    </I18nProvider>,
  );
  return onSubmit;
}

const unitField = () => screen.getByLabelText('Unit');
const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => [o.value, o.textContent, o.disabled]);
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const hint = () => document.getElementById(unitField().getAttribute('aria-describedby')?.split(' ').at(-1) ?? '')?.textContent;

describe('the unit of a listed test', () => {
  it('is a choice of the test’s own units, the list’s selected, with the reason beside it', () => {
    renderForm();
    fill('Test', 'HbA1c');
    const unit = unitField();
    expect(unit.tagName).toBe('SELECT');
    expect(options(unit)).toEqual([
      ['%', '%', false],
      ['mmol/mol', 'mmol/mol', false],
    ]);
    expect((unit as HTMLSelectElement).value).toBe('%');
    expect(hint()).toBe('HbA1c is recorded in % or mmol/mol: choose the one on your lab report. If it uses another unit, ask your care team.');
    fill('Test', 'eGFR');
    expect(options(unitField())).toEqual([['mL/min/1.73m2', 'mL/min/1.73 m²', false]]);
    expect(hint()).toBe('eGFR is recorded in mL/min/1.73 m². If your lab report uses another unit, ask your care team.');
  });

  it('does not let a made-up unit through: HbA1c 75 is refused, 75 mmol/mol is saved', async () => {
    const onSubmit = renderForm();
    fill('Test', 'HbA1c');
    fill('Result', '75');
    // A value the select does not offer leaves no unit chosen, which is the list's: %.
    for (const made of ['pct', '%%', 'percent']) {
      fireEvent.change(unitField(), { target: { value: made } });
      expect((unitField() as HTMLSelectElement).value).toBe('%');
      save();
      expect((await screen.findByRole('alert')).textContent).toBe('HbA1c results lie between 3 and 20 %. Please check the result.');
    }
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(unitField(), { target: { value: 'mmol/mol' } });
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'HbA1c', value: 75, unit: 'mmol/mol' });
  });

  it('asks for a unit again when a result was stored in one its test does not take', async () => {
    const onSubmit = renderForm({
      _id: '0190a0b0-0000-7000-8000-000000000001',
      name: 'HbA1c',
      value: 7.2,
      unit: 'pct',
      recordedAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    const unit = unitField() as HTMLSelectElement;
    expect(unit.value).toBe('');
    expect(options(unit)[0]).toEqual(['', 'Choose the unit', true]);
    expect(hint()).toBe('“pct” is not a unit of HbA1c: choose % or mmol/mol.');
    save();
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the unit of HbA1c: % or mmol/mol.');
    expect(unit.getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(unit, { target: { value: '%' } });
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'HbA1c', value: 7.2, unit: '%' });
  });

  it('is a choice too for a test typed by a name the app knows, with none chosen when the list has none', async () => {
    const onSubmit = renderForm();
    fill('Test', '\u0000other');
    fill('Name of the test', 'A1c');
    fill('Result', '7.5');
    expect(unitField().tagName).toBe('SELECT');
    save();
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the unit of HbA1c: % or mmol/mol.');
    fill('Name of the test', 'potassium');
    expect((unitField() as HTMLSelectElement).value).toBe('mmol/L');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'potassium', value: 7.5, unit: 'mmol/L' });
  });
});

describe('the unit of another test', () => {
  it('is typed freely, as before', async () => {
    const onSubmit = renderForm();
    fill('Test', '\u0000other');
    fill('Name of the test', 'Vitamin D');
    expect(unitField().tagName).toBe('INPUT');
    fill('Unit', 'ng/mL');
    fill('Result', '31.5');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'Vitamin D', value: 31.5, unit: 'ng/mL' });
  });
});

describe('text typed or pasted into the form', () => {
  it('keeps what the patient sees and drops control characters and text-direction overrides, which the server refuses', async () => {
    const onSubmit = renderForm();
    fill('Test', '\u0000other');
    fill('Name of the test', 'Vitamin\u202e D\u001b');
    fill('Unit', 'ng/\u2066mL');
    fill('Result', '31.5');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'Vitamin D', value: 31.5, unit: 'ng/mL' });
  });
});
