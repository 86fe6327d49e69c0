import { parseDate, parseDateTime, parseTime, type CalendarDate, type CalendarDateTime, type Time } from '@internationalized/date';
import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { DateField, DateInput, DateSegment, I18nProvider, Label, TimeField } from 'react-aria-components';
import './date-time-field.css';

/** What the field holds: a calendar day, a wall-clock time, or both. */
export type DateTimeKind = 'date' | 'time' | 'datetime';

export interface DateTimeFieldProps {
  kind: DateTimeKind;
  label: ReactNode;
  /**
   * The value as the forms keep it, the strings a native input gives: "2026-03-16", "09:00",
   * "2026-03-16T09:00"; "" while the field is empty or not whole.
   */
  value: string;
  onChange: (value: string) => void;
  required?: boolean | undefined;
  /** The form found the value wrong: the field says so (aria-invalid), its message is in describedBy. */
  invalid?: boolean | undefined;
  /** The ids of the hint and error that belong to the field. */
  describedBy?: string | undefined;
}

type Parsed = CalendarDate | CalendarDateTime | Time;

const PATTERN: Record<DateTimeKind, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}$/,
  datetime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/,
};

/** The form's string as the field's value; null for "" or anything that is not a whole value. */
export function parseFieldValue(kind: DateTimeKind, value: string): Parsed | null {
  if (!PATTERN[kind].test(value)) return null;
  try {
    if (kind === 'date') return parseDate(value);
    if (kind === 'time') return parseTime(value);
    return parseDateTime(value);
  } catch {
    // "2026-02-30", "25:00": not a day or a time.
    return null;
  }
}

/** The field's value as the form's string: seconds are never shown, so never kept. */
export function formatFieldValue(kind: DateTimeKind, value: Parsed | null): string {
  if (!value) return '';
  const text = value.toString();
  if (kind === 'date') return text.slice(0, 10);
  if (kind === 'time') return text.slice(0, 5);
  return text.slice(0, 16);
}

/**
 * A date, time, or date-and-time field drawn in the page's language (issue 50): its parts in the
 * order, digits, clock (12 or 24 hours) and direction the language writes them, where a browser's own
 * date input follows the browser's language whatever the page says. React Aria's field: each part is
 * a spin button, typed or stepped with the arrow keys, read out with its name. It has no `name`:
 * the forms keep their values in state, and a named field would add React Aria's hidden native input
 * (for autofill) at the page's top corner, under the header.
 */
export function DateTimeField({ kind, label, value, onChange, required, invalid, describedBy }: DateTimeFieldProps) {
  const { i18n } = useLingui();
  const common = {
    className: 'date-time-field',
    isRequired: required ?? false,
    isInvalid: invalid ?? false,
    validationBehavior: 'aria' as const,
    // Two digits in every part ("03/16/2026, 09:00 AM", as the native inputs showed it): a part of
    // one digit in its finger-wide box read "3 /16/2026, 9 :00 AM".
    shouldForceLeadingZeros: true,
    ...(describedBy === undefined ? {} : { 'aria-describedby': describedBy }),
    children: (
      <>
        <Label>{label}</Label>
        <DateInput className="date-time-input">{(segment) => <DateSegment segment={segment} className="date-time-segment" />}</DateInput>
      </>
    ),
  };
  const parsed = parseFieldValue(kind, value);
  return (
    <I18nProvider locale={i18n.locale}>
      {kind === 'time' ? (
        <TimeField {...common} value={parsed as Time | null} onChange={(v) => onChange(formatFieldValue(kind, v))} />
      ) : (
        <DateField
          {...common}
          granularity={kind === 'date' ? 'day' : 'minute'}
          value={parsed as CalendarDate | CalendarDateTime | null}
          onChange={(v) => onChange(formatFieldValue(kind, v))}
        />
      )}
    </I18nProvider>
  );
}
