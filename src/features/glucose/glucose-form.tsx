import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { deviceUtcOffset, toLocalInput } from '../../lib/dates.ts';
import { isInTheFuture } from '../../../schemas/common.ts';
import { formatGlucose, type GlucoseUnit, mgDlOf, plausibleRange } from '../../../schemas/glucose-units.ts';
import { inBackground } from '../../../sync/background.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { GLUCOSE_TYPE_LABELS } from '../../lib/glucose-types.ts';
import { checkGlucose, GLUCOSE_TYPES, type GlucoseCheck, type GlucoseType } from './units.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

/** A reading's value as stored: mg/dL, with the unit and number as typed (null for an older reading kept as it was). */
export interface EnteredGlucose {
  value: number;
  unit: GlucoseUnit | null;
  enteredValue: number | null;
}

export interface GlucoseValues {
  type: GlucoseType;
  reading: EnteredGlucose;
  recordedAt: Date;
  /**
   * This device's UTC offset at `recordedAt` when the time is new (a new reading, or a time typed on
   * this device's clock); the reading's own when its time was left alone; undefined when that
   * reading kept none.
   */
  utcOffsetMinutes: number | undefined;
}

export interface GlucoseFormProps {
  initial: {
    type: GlucoseType;
    reading?: { value: number; unit?: GlucoseUnit | null | undefined; enteredValue?: number | null | undefined };
    recordedAt?: Date;
    /** The device offset the reading was taken at, kept while its time is left alone. */
    utcOffsetMinutes?: number | null | undefined;
  };
  submitLabel: string;
  /** Resolves when saved; the form then clears itself (new entry) or is closed by its owner. */
  onSubmit: (values: GlucoseValues) => Promise<void>;
  onCancel?: () => void;
  /** A new reading is taken "now" until the person edits the time. */
  timeFollowsNow?: boolean;
}

/** Type, value in the patient's unit, and time; used for a new reading and for editing one. */
export function GlucoseForm({ initial, submitLabel, onSubmit, onCancel, timeFollowsNow = false }: GlucoseFormProps) {
  const { t, i18n } = useLingui();
  const unit = useGlucoseUnit();
  const [type, setType] = useState<GlucoseType>(initial.type);
  // The reading's value as shown in the patient's unit: as typed when typed in this unit.
  const [initialText] = useState(() => (initial.reading === undefined ? '' : formatGlucose(initial.reading, unit, 'en')));
  const [value, setValue] = useState(initialText);
  const [time, setTime] = useState(() => toLocalInput(initial.recordedAt ?? new Date()));
  const [timeEdited, setTimeEdited] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [question, setQuestion] = useState<Extract<GlucoseCheck, { kind: 'confirm-unit' }> | undefined>();
  const [busy, setBusy] = useState(false);
  const ids = { type: useId(), value: useId(), error: useId(), hint: useId() };
  const range = plausibleRange(unit);
  const num = (v: number, u: GlucoseUnit) => `${new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 }).format(v)} ${u}`;

  /** The value typed in `typedUnit`, or the reading as it was when its value was left alone. */
  async function save(typed: number | undefined, typedUnit: GlucoseUnit) {
    const reading: EnteredGlucose =
      typed === undefined && initial.reading
        ? { value: initial.reading.value, unit: initial.reading.unit ?? null, enteredValue: initial.reading.enteredValue ?? null }
        : { value: mgDlOf(typed ?? Number.NaN, typedUnit), unit: typedUnit, enteredValue: typed ?? null };
    // An untouched time keeps its full precision: "now" for a new reading, the stored time when editing.
    const recordedAt = timeEdited && time ? new Date(time) : (initial.recordedAt ?? new Date());
    const timeKept = !(timeEdited && time) && initial.recordedAt !== undefined;
    const utcOffsetMinutes = timeKept ? (initial.utcOffsetMinutes ?? undefined) : deviceUtcOffset(recordedAt);
    if (Number.isNaN(recordedAt.getTime()) || isInTheFuture(recordedAt)) {
      setError(t`The time of the reading cannot be in the future.`);
      return;
    }
    setBusy(true);
    try {
      await onSubmit({ type, reading, recordedAt, utcOffsetMinutes });
      setQuestion(undefined);
      setError(undefined);
      if (timeFollowsNow) {
        setValue('');
        setTime(toLocalInput(new Date()));
        setTimeEdited(false);
      }
    } catch {
      // Nothing typed is lost: the form keeps its values.
      setError(t`The reading could not be saved on this device. Please try again.`);
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    // An edit that leaves the value as shown keeps the reading's value as it was taken (a look in
    // the other unit must not turn 10.0 mmol/L into 180 mg/dL).
    if (initial.reading && value === initialText) {
      setQuestion(undefined);
      setError(undefined);
      inBackground(save(undefined, unit), 'Saving the reading failed');
      return;
    }
    const checked = checkGlucose(value, unit);
    setQuestion(undefined);
    if (checked.kind === 'confirm-unit') {
      setError(undefined);
      setQuestion(checked);
      return;
    }
    if (checked.kind === 'error') {
      const min = new Intl.NumberFormat(i18n.locale).format(range.min);
      const max = new Intl.NumberFormat(i18n.locale).format(range.max);
      setError(
        checked.error === 'empty'
          ? t`Enter the glucose value.`
          : checked.error === 'not-a-number'
            ? t`Enter the glucose value as a number, for example ${{ example: unit === 'mg/dL' ? '126' : '7.0' }}.`
            : t`The value must be between ${min} and ${max} ${unit}. Please check the meter.`,
      );
      return;
    }
    setError(undefined);
    inBackground(save(checked.value, unit), 'Saving the reading failed');
  }

  return (
    <form className="glucose-form" onSubmit={submit} noValidate>
      <fieldset className="type-picker">
        <legend>
          <Trans>Type</Trans>
        </legend>
        {GLUCOSE_TYPES.map((g) => (
          <label key={g} className="type-option">
            <input type="radio" name={`type-${ids.type}`} value={g} checked={type === g} onChange={() => setType(g)} />
            <span>{i18n._(GLUCOSE_TYPE_LABELS[g])}</span>
          </label>
        ))}
      </fieldset>
      <div className="glucose-form-row">
        <div className={error ? 'field field--error' : 'field'}>
          <label htmlFor={ids.value}>
            <Trans>Glucose ({unit})</Trans>
          </label>
          <input
            id={ids.value}
            name="value"
            inputMode="decimal"
            autoComplete="off"
            enterKeyHint="done"
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${ids.error} ${ids.hint}` : ids.hint}
            onChange={(e) => {
              setValue(e.target.value);
              setQuestion(undefined);
            }}
          />
          <p id={ids.hint} className="field-hint">
            <Trans>
              Between {{ min: new Intl.NumberFormat(i18n.locale).format(range.min) }} and {{ max: new Intl.NumberFormat(i18n.locale).format(range.max) }} {unit}
            </Trans>
          </p>
        </div>
        <div className="field">
          <DateTimeField
            kind="datetime"
            label={<Trans>Time of the reading</Trans>}
            value={time}
            onChange={(v) => {
              setTime(v);
              setTimeEdited(true);
            }}
          />
        </div>
      </div>
      {error && (
        <p id={ids.error} className="error-text" role="alert">
          {error}
        </p>
      )}
      {question && (
        <div className="unit-question" role="alert">
          <p>
            <Trans>
              {{ value: num(question.value, unit) }} is unusual. Did you mean {{ suggested: num(question.value, question.other) }}?
            </Trans>
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => inBackground(save(question.value, question.other), 'Saving the reading failed')}
            >
              <Trans>Save as {{ suggested: num(question.value, question.other) }}</Trans>
            </button>
            {question.asTyped !== undefined && (
              <button
                type="button"
                className="button button--secondary"
                disabled={busy}
                onClick={() => inBackground(save(question.value, unit), 'Saving the reading failed')}
              >
                <Trans>Yes, {{ value: num(question.value, unit) }}</Trans>
              </button>
            )}
          </div>
        </div>
      )}
      <div className="form-actions">
        <button className="button" type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button className="button button--secondary" type="button" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
    </form>
  );
}
