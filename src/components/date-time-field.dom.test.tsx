// <DateTimeField>: the page's language draws the field (order, digits, clock, direction), and the
// form keeps the strings a native input gives ("2026-03-16T09:15") whatever the language (issue 50).
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DateTimeField, formatFieldValue, parseFieldValue, type DateTimeKind } from './date-time-field.tsx';

afterEach(cleanup);

function Form({ kind, start }: { kind: DateTimeKind; start: string }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <DateTimeField kind={kind} label="When" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function show(kind: DateTimeKind, start: string, locale: string) {
  i18n.loadAndActivate({ locale, messages: {} });
  render(
    <I18nProvider i18n={i18n}>
      <Form kind={kind} start={start} />
    </I18nProvider>,
  );
  const field = screen.getByRole('group', { name: 'When' });
  const parts = [...field.querySelectorAll<HTMLElement>('[data-type]')];
  return {
    field,
    /** The parts in the order drawn, with their text: "month 3", "literal /", … */
    drawn: parts.map((p) => `${p.dataset['type']} ${p.textContent?.trim() ?? ''}`).filter((p) => !p.startsWith('literal')),
    part: (type: string) => {
      const found = parts.find((p) => p.dataset['type'] === type);
      if (!found) throw new Error(`no ${type} part`);
      return found;
    },
    value: () => screen.getByTestId('value').textContent,
  };
}

function type(part: HTMLElement, keys: string): void {
  act(() => part.focus());
  for (const key of keys) fireEvent(part, new InputEvent('beforeinput', { inputType: 'insertText', data: key, bubbles: true, cancelable: true }));
}

describe('the form value', () => {
  it('reads and writes the strings of a native input, and nothing that is not a whole value', () => {
    for (const [kind, text] of [
      ['date', '2026-03-16'],
      ['time', '09:05'],
      ['datetime', '2026-03-16T21:45'],
    ] as const) {
      expect(formatFieldValue(kind, parseFieldValue(kind, text))).toBe(text);
    }
    for (const [kind, text] of [
      ['date', ''],
      ['date', '2026-02-30'],
      ['time', '25:00'],
      ['time', '9:05'],
      ['datetime', '2026-03-16'],
      ['datetime', '2026-03-16T09:05:00Z'],
    ] as const) {
      expect(parseFieldValue(kind, text)).toBeNull();
    }
    expect(formatFieldValue('time', null)).toBe('');
  });
});

describe('DateTimeField', () => {
  it('draws a date and time in the order, clock and digits of the page’s language', () => {
    expect(show('datetime', '2026-03-16T21:45', 'en').drawn).toEqual(['month 03', 'day 16', 'year 2026', 'hour 09', 'minute 45', 'dayPeriod PM']);
    cleanup();
    expect(show('datetime', '2026-03-16T21:45', 'fr').drawn).toEqual(['day 16', 'month 03', 'year 2026', 'hour 21', 'minute 45']);
    cleanup();
    const arabic = show('datetime', '2026-03-16T21:45', 'ar');
    // The day first and the digits the page writes its other numbers with, not the browser's own
    // "03/16/2026, 09:45 PM" of an English browser.
    expect(arabic.drawn.map((p) => p.split(' ')[0])).toEqual(['day', 'month', 'year', 'hour', 'minute', 'dayPeriod']);
    expect(arabic.part('year').textContent).toBe(new Intl.NumberFormat('ar', { useGrouping: false }).format(2026));
    expect(arabic.part('dayPeriod').textContent).toBe(
      new Intl.DateTimeFormat('ar', { hour: 'numeric', hour12: true }).formatToParts(new Date(2026, 2, 16, 21)).find((p) => p.type === 'dayPeriod')?.value,
    );
  });

  it('gives the form the native string when a part is typed, in any language', () => {
    const fr = show('datetime', '2026-03-16T21:45', 'fr');
    type(fr.part('hour'), '07');
    expect(fr.value()).toBe('2026-03-16T07:45');
    type(fr.part('day'), '09');
    expect(fr.value()).toBe('2026-03-09T07:45');
    cleanup();
    const ar = show('time', '06:30', 'ar');
    type(ar.part('minute'), '05');
    expect(ar.value()).toBe('06:05');
  });

  it('keeps the form empty until every part of an empty field is given', () => {
    const en = show('date', '', 'en');
    expect(en.part('year').getAttribute('data-placeholder')).toBe('true');
    type(en.part('year'), '2026');
    type(en.part('month'), '03');
    expect(en.value()).toBe('');
    type(en.part('day'), '16');
    expect(en.value()).toBe('2026-03-16');
  });
});
