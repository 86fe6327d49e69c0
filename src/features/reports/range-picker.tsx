import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import './reports.css';
import { checkRange, daysInRange, presetRange, RANGE_PRESETS, type DateRange, type RangeError } from './range.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

export interface RangePickerProps {
  /** The patient's today (YYYY-MM-DD in their time zone): presets end here, nothing may be later. */
  today: string;
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** The report's period: the last 7, 14, 30 or 90 days, or any from/to dates up to today. */
export function RangePicker({ today, value, onChange }: RangePickerProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  // Calendar dates, not instants: formatted in UTC so that no zone moves them a day.
  const day = (iso: string) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const preset = RANGE_PRESETS.find((d) => {
    const p = presetRange(d, today);
    return p.from === value.from && p.to === value.to;
  });
  const [custom, setCustom] = useState(preset === undefined);
  const [from, setFrom] = useState(value.from);
  const [to, setTo] = useState(value.to);
  const [errors, setErrors] = useState<RangeError[]>([]);

  const messages: Record<RangeError, string> = {
    'from-missing': t`Enter the first day of the report.`,
    'to-missing': t`Enter the last day of the report.`,
    'from-invalid': t`The first day is not a valid date (use YYYY-MM-DD).`,
    'to-invalid': t`The last day is not a valid date (use YYYY-MM-DD).`,
    'from-future': t`The first day cannot be in the future.`,
    'to-future': t`The last day cannot be in the future (today is ${today}).`,
    'from-after-to': t`The first day must be on or before the last day.`,
  };
  const fromErrors = errors.filter((e) => e.startsWith('from-') && e !== 'from-after-to');
  const toErrors = errors.filter((e) => e.startsWith('to-') || e === 'from-after-to');

  function choosePreset(days: number) {
    setCustom(false);
    setErrors([]);
    const range = presetRange(days, today);
    setFrom(range.from);
    setTo(range.to);
    onChange(range);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = checkRange(from, to, today);
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors([]);
    onChange(check.range);
  }

  const days = daysInRange(value);
  return (
    <section className="card report-range" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>Period</Trans>
      </h2>
      <fieldset className="segmented report-presets">
        <legend className="visually-hidden">
          <Trans>Period</Trans>
        </legend>
        {RANGE_PRESETS.map((d) => (
          <label key={d}>
            <input type="radio" name={`${id}-preset`} checked={!custom && preset === d} onChange={() => choosePreset(d)} />
            <span>
              <Trans>{d} days</Trans>
            </span>
          </label>
        ))}
        <label>
          <input type="radio" name={`${id}-preset`} checked={custom} onChange={() => setCustom(true)} />
          <span>
            <Trans>Custom</Trans>
          </span>
        </label>
      </fieldset>
      {custom && (
        <form className="report-custom" onSubmit={submit} noValidate>
          <div className={fromErrors.length ? 'field field--error' : 'field'}>
            <DateTimeField
              kind="date"
              label={<Trans>From</Trans>}
              value={from}
              onChange={setFrom}
              invalid={fromErrors.length > 0}
              describedBy={fromErrors.length ? `${id}-from-error` : undefined}
            />
            {fromErrors.length > 0 && (
              <p id={`${id}-from-error`} className="error-text">
                {fromErrors.map((e) => messages[e]).join(' ')}
              </p>
            )}
          </div>
          <div className={toErrors.length ? 'field field--error' : 'field'}>
            <DateTimeField
              kind="date"
              label={<Trans>To</Trans>}
              value={to}
              onChange={setTo}
              invalid={toErrors.length > 0}
              describedBy={toErrors.length ? `${id}-to-error` : undefined}
            />
            {toErrors.length > 0 && (
              <p id={`${id}-to-error`} className="error-text">
                {toErrors.map((e) => messages[e]).join(' ')}
              </p>
            )}
          </div>
          <button type="submit" className="button report-apply">
            <Trans>Show report</Trans>
          </button>
        </form>
      )}
      <p className="muted report-range-now" role="status">
        <Trans>
          Showing {{ from: day(value.from) }} to {{ to: day(value.to) }} ({days} days).
        </Trans>
      </p>
    </section>
  );
}
