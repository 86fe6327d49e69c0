// The advice after a dangerous reading, grade by grade, in both units, with the hospital's urgent
// level and care contact: every number it prints is the reading or a level as shown in the
// patient's unit, and the words are those of its grade.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GlucoseUnit, storedMgDl } from '../../../schemas/glucose-units.ts';
import { adviceSettingsOf, type AdviceSettings } from '../../../schemas/user-profile.ts';
import { toasts } from '../../lib/ui/toast-store.ts';
import { setGlucoseUnit } from '../../lib/glucose-unit.ts';
import { adviceFor, GlucoseAdvice, type AdviceGrade, type GlucoseAdviceState } from './advice.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  // jsdom has no modal dialogs: open and close are enough here (the browser's part: tests/e2e/advice.spec.ts).
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
beforeEach(() => toasts.clear());
afterEach(cleanup);

const DEFAULTS = adviceSettingsOf(undefined);
/** A reading as the dashboard saves it: typed in `unit`. */
const typed = (value: number, unit: GlucoseUnit) =>
  unit === 'mg/dL' ? { value, unit, enteredValue: value } : { value: storedMgDl(value), unit, enteredValue: value };

function show(value: number, unit: GlucoseUnit, settings: AdviceSettings = DEFAULTS, offline = false) {
  setGlucoseUnit(unit);
  const reading = typed(value, unit);
  const grade = adviceFor(reading, unit, settings);
  if (!grade) throw new Error(`no advice for ${value} ${unit}`);
  const advice: GlucoseAdviceState = { grade, reading, offline };
  render(
    <I18nProvider i18n={i18n}>
      <GlucoseAdvice advice={advice} settings={settings} onClose={() => undefined} />
    </I18nProvider>,
  );
  const dialog = screen.getByRole('alertdialog');
  return { grade, dialog, text: within(dialog).getByTestId('glucose-advice').textContent ?? '' };
}

const CASES: { value: number; unit: GlucoseUnit; grade: AdviceGrade; title: string; says: RegExp[] }[] = [
  {
    value: 45,
    unit: 'mg/dL',
    grade: 'veryLow',
    title: 'Your glucose is very low',
    says: [
      /^45 mg\/dL is below 54 mg\/dL: a serious low\. Take 15 g of fast-acting sugar now/,
      /If it is still below 70 mg\/dL, take another 15 g, then eat a snack or your next meal/,
      /call for emergency help now/,
      /nothing should be given by mouth: the person with you should give glucagon if it was prescribed for you/,
    ],
  },
  {
    value: 60,
    unit: 'mg/dL',
    grade: 'low',
    title: 'Your glucose is low',
    says: [
      /^60 mg\/dL is below 70 mg\/dL\. Take 15 g of fast-acting sugar now/,
      /Check again after 15 minutes\. If it is still below 70 mg\/dL, take another 15 g/,
      /eat a snack or your next meal/,
      /still below 70 mg\/dL after two or three treatments, or if you feel worse/,
    ],
  },
  {
    value: 260,
    unit: 'mg/dL',
    grade: 'veryHigh',
    title: 'Your glucose is very high',
    says: [
      /^260 mg\/dL is above 250 mg\/dL\. Drink water/,
      /Check your ketones/,
      /again within 2 hours/,
      /If your ketones are positive \(moderate or large in urine, or 1\.5 mmol\/L or more in blood\), contact your care team now/,
      /still above 250 mg\/dL at your next checks/,
    ],
  },
  { value: 300, unit: 'mg/dL', grade: 'veryHigh', title: 'Your glucose is very high', says: [/^300 mg\/dL is above 250 mg\/dL\./] },
  {
    value: 420,
    unit: 'mg/dL',
    grade: 'urgentHigh',
    title: 'Your glucose is dangerously high',
    says: [
      /^420 mg\/dL is at or above 400 mg\/dL\. Check your ketones now if you can, and contact your care team now; in hospital, tell the ward staff now\./,
      /Get emergency help if you cannot reach them quickly, if your ketones are moderate or large in urine \(or 1\.5 mmol\/L or more in blood\)/,
      /vomiting, very drowsy, confused or breathing fast/,
    ],
  },
  {
    value: 600,
    unit: 'mg/dL',
    grade: 'meterTop',
    title: 'Your glucose is at the top of the meter’s range',
    says: [
      /^600 mg\/dL is the top of a glucose meter’s range \(600 mg\/dL; above it meters show HI\), so your glucose may be even higher\. Get urgent medical help now/,
      /hyperosmolar hyperglycaemic state/,
    ],
  },
  {
    value: 2.9,
    unit: 'mmol/L',
    grade: 'veryLow',
    title: 'Your glucose is very low',
    says: [/^2\.9 mmol\/L is below 3\.0 mmol\/L: a serious low/, /still below 3\.9 mmol\/L, take another 15 g/],
  },
  {
    value: 3.5,
    unit: 'mmol/L',
    grade: 'low',
    title: 'Your glucose is low',
    says: [/^3\.5 mmol\/L is below 3\.9 mmol\/L\./, /When it is back to 3\.9 mmol\/L or above, eat a snack or your next meal/],
  },
  {
    value: 14.0,
    unit: 'mmol/L',
    grade: 'veryHigh',
    title: 'Your glucose is very high',
    says: [/^14\.0 mmol\/L is above 13\.9 mmol\/L\./, /1\.5 mmol\/L or more in blood/],
  },
  { value: 22.5, unit: 'mmol/L', grade: 'urgentHigh', title: 'Your glucose is dangerously high', says: [/^22\.5 mmol\/L is at or above 22\.2 mmol\/L\./] },
  { value: 30.0, unit: 'mmol/L', grade: 'urgentHigh', title: 'Your glucose is dangerously high', says: [/^30\.0 mmol\/L is at or above 22\.2 mmol\/L\./] },
  {
    value: 33.3,
    unit: 'mmol/L',
    grade: 'meterTop',
    title: 'Your glucose is at the top of the meter’s range',
    says: [/^33\.3 mmol\/L is the top of a glucose meter’s range \(33\.3 mmol\/L;/],
  },
];

describe('the advice of each grade, with the hospital defaults (urgent from 400 mg/dL, no contact)', () => {
  for (const c of CASES) {
    it(`${c.value} ${c.unit}: ${c.grade}`, () => {
      const { grade, dialog, text } = show(c.value, c.unit);
      expect(grade).toBe(c.grade);
      expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
      expect(within(dialog).getByRole('heading').textContent).toBe(c.title);
      for (const s of c.says) expect(text).toMatch(s);
      // Only this grade's words: a very high reading never says "emergency" about ketones it has not checked.
      expect(text).not.toContain('Contact your care team:');
      expect(text).toContain('Your reading is saved.');
      // Every number printed is in the patient's unit.
      expect(text).not.toMatch(c.unit === 'mg/dL' ? /\d mmol\/L(?! or more in blood)/ : /mg\/dL/);
    });
  }
});

describe("the hospital's settings", () => {
  it('judges from its urgent level, and prints that level in the unit shown', () => {
    const level300: AdviceSettings = { urgentHighMgDl: 300, careContact: null };
    const mg = show(300, 'mg/dL', level300);
    expect(mg.grade).toBe('urgentHigh');
    expect(mg.text).toMatch(/^300 mg\/dL is at or above 300 mg\/dL\./);
    cleanup();
    // 300 mg/dL is shown 16.7 mmol/L: 16.7 is at that level, 16.6 is not.
    expect(show(16.7, 'mmol/L', level300).text).toMatch(/^16\.7 mmol\/L is at or above 16\.7 mmol\/L\./);
    cleanup();
    expect(show(16.6, 'mmol/L', level300).grade).toBe('veryHigh');
    cleanup();
    // A higher level: 420 mg/dL and 22.5 mmol/L are "very high" below 450 mg/dL (25.0 mmol/L).
    const level450: AdviceSettings = { urgentHighMgDl: 450, careContact: null };
    expect(show(420, 'mg/dL', level450).grade).toBe('veryHigh');
    cleanup();
    expect(show(22.5, 'mmol/L', level450).grade).toBe('veryHigh');
    cleanup();
    expect(show(25.0, 'mmol/L', level450).text).toMatch(/^25\.0 mmol\/L is at or above 25\.0 mmol\/L\./);
  });

  it('adds its care contact to every grade when it set one', () => {
    const settings: AdviceSettings = { urgentHighMgDl: 400, careContact: 'Diabetes nurse, 0123 456 789 (8 am to 8 pm)' };
    for (const [value, unit] of [
      [60, 'mg/dL'],
      [45, 'mg/dL'],
      [260, 'mg/dL'],
      [22.5, 'mmol/L'],
      [33.3, 'mmol/L'],
    ] as const) {
      const { dialog } = show(value, unit, settings);
      expect(within(dialog).getByText('Contact your care team: Diabetes nurse, 0123 456 789 (8 am to 8 pm)')).toBeTruthy();
      cleanup();
    }
  });

  it('falls back to the defaults for a profile stored before it carried them', () => {
    expect(adviceSettingsOf({})).toEqual({ urgentHighMgDl: 400, careContact: null });
    expect(adviceSettingsOf({ hospitalSettings: { identifierSystem: 'urn:uuid:x', urgentHighMgDl: 350, careContact: '  ' } })).toEqual({
      urgentHighMgDl: 350,
      careContact: null,
    });
    expect(adviceSettingsOf({ hospitalSettings: { identifierSystem: 'urn:uuid:x', urgentHighMgDl: 9999, careContact: ' Ward 4 ' } })).toEqual({
      urgentHighMgDl: 400,
      careContact: 'Ward 4',
    });
  });
});

describe('the dialog and the notices', () => {
  it('is an alert dialog described by what to do now, with focus on its button', () => {
    const { dialog } = show(45, 'mg/dL');
    const described = dialog.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(document.getElementById(String(described))?.textContent).toMatch(/^45 mg\/dL is below 54 mg\/dL/);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'I understand' }));
  });

  it('dismisses a success notice still shown, drops new ones while it is open, and shows no toast over it', () => {
    toasts.toast({ type: 'success', text: 'Glucose reported successfully' });
    toasts.toast({ type: 'error', text: 'Could not send' });
    show(420, 'mg/dL');
    // The error waits for the dialog to close; the success notice is gone.
    expect(toasts.getSnapshot()).toEqual([]);
    expect(toasts.waiting()).toBe(1);
    toasts.toast({ type: 'success', text: 'Data synchronized successfully' });
    expect(toasts.waiting()).toBe(1);
    cleanup();
    expect(toasts.getSnapshot().map((t) => t.text)).toEqual(['Could not send']);
    toasts.toast({ type: 'success', text: 'Data synchronized successfully' });
    expect(toasts.waiting()).toBe(1);
  });

  it('says offline that the reading is kept on the device and will be sent', () => {
    const { text } = show(60, 'mg/dL', DEFAULTS, true);
    expect(text).toContain('Your reading is saved on this device. It will be sent when you are back online.');
    expect(text).not.toContain('Your reading is saved.');
  });
});
