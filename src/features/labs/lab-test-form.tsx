// Adding or changing a lab result: a test from the hospital's list (its unit filled in, still
// editable) or another test by name, the result as typed (comma or point), and the day of the test.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { implausibleLabValue } from '../../../schemas/lab-plausibility.ts';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { shownLabUnit } from '../../../schemas/lab-unit-text.ts';
import { inBackground } from '../../../sync/log.ts';
import { fromDateInput, LAB_NAME_MAX_LENGTH, LAB_UNIT_MAX_LENGTH, parseLabValue, recordedAtFor, testKey, toDateInput } from './lab-rules.ts';
import './labs.css';

export interface LabReference {
  name: string;
  unit?: string | null | undefined;
}

export interface LabTestInput {
  name: string;
  value: number;
  unit: string | undefined;
  recordedAt: string;
}

/** The select's value for "a test that is not in the list". */
const OTHER = '\u0000other';

type Field = 'test' | 'name' | 'value' | 'unit' | 'date' | 'form';

export interface LabTestFormProps {
  references: readonly LabReference[];
  /** The result being changed; absent when adding one. */
  initial?: LabTest | undefined;
  /** A heading of its own; absent inside a dialog, whose title names the form. */
  title?: ReactNode;
  submitLabel: ReactNode;
  /** Saves on the device; a rejection keeps what was typed and says so. */
  onSubmit: (input: LabTestInput) => Promise<void>;
  onCancel?: () => void;
}

export function LabTestForm({ references, initial, title, submitLabel, onSubmit, onCancel }: LabTestFormProps) {
  const { t, i18n } = useLingui();
  const listed = initial ? references.find((r) => testKey(r.name) === testKey(initial.name)) : undefined;
  const [choice, setChoice] = useState(initial ? (listed?.name ?? OTHER) : '');
  const [otherName, setOtherName] = useState(initial && !listed ? initial.name : '');
  const [value, setValue] = useState(initial ? i18n.number(initial.value, { maximumFractionDigits: 6, useGrouping: false }) : '');
  const [unit, setUnit] = useState(initial?.unit ?? '');
  const [day, setDay] = useState(() => toDateInput(initial ? new Date(initial.recordedAt) : new Date()));
  const [error, setError] = useState<{ field: Field; text: string } | undefined>();
  const [saving, setSaving] = useState(false);
  const id = useId();
  const ids = { title: `${id}-title`, test: `${id}-test`, name: `${id}-name`, value: `${id}-value`, unit: `${id}-unit`, date: `${id}-date`, error: `${id}-error` };
  const invalid = (field: Field) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {});

  function check(): { field: Field; text: string } | LabTestInput {
    if (choice === '') return { field: 'test', text: t`Choose the test, or "Another test" to type its name.` };
    const name = (choice === OTHER ? otherName : choice).trim().replace(/\s+/g, ' ');
    if (name === '') return { field: 'name', text: t`Type the name of the test.` };
    if (name.length > LAB_NAME_MAX_LENGTH) return { field: 'name', text: t`The name of the test can be at most ${LAB_NAME_MAX_LENGTH} characters long.` };
    const parsed = parseLabValue(value);
    if ('error' in parsed) return { field: 'value', text: parsed.error === 'empty' ? t`Enter the result.` : t`Enter the result as a number, for example 7.1.` };
    // Without a unit, the list's unit for that test (the server does the same).
    const typedUnit = unit.trim() || references.find((r) => testKey(r.name) === testKey(name))?.unit || '';
    if (typedUnit.length > LAB_UNIT_MAX_LENGTH) return { field: 'unit', text: t`The unit can be at most ${LAB_UNIT_MAX_LENGTH} characters long.` };
    // A result no assay gives is a typing error (issue 16); the server refuses it too.
    const outside = implausibleLabValue(name, typedUnit, parsed.value);
    if (outside) {
      const min = i18n.number(outside.min, { maximumFractionDigits: 3 });
      const max = i18n.number(outside.max, { maximumFractionDigits: 3 });
      const unit = shownLabUnit(outside.unit);
      return { field: 'value', text: t`${{ testName: outside.name }} results lie between ${min} and ${max} ${unit}. Please check the result.` };
    }
    const date = fromDateInput(day);
    if (!date) return { field: 'date', text: t`Enter the date of the test.` };
    const now = new Date();
    if (toDateInput(date) > toDateInput(now)) return { field: 'date', text: t`The date of the test cannot be in the future.` };
    const recordedAt = recordedAtFor(date, now, initial ? new Date(initial.recordedAt) : undefined);
    return { name, value: parsed.value, unit: typedUnit || undefined, recordedAt: recordedAt.toISOString() };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const checked = check();
    if ('field' in checked) return setError(checked);
    setSaving(true);
    try {
      await onSubmit(checked);
      setError(undefined);
      if (!initial) {
        setChoice('');
        setOtherName('');
        setValue('');
        setUnit('');
        setDay(toDateInput(new Date()));
      }
    } catch {
      setError({ field: 'form', text: t`The result could not be saved on this device. Please try again.` });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="lab-form" onSubmit={(e) => inBackground(submit(e), 'Saving the lab result failed')} noValidate aria-labelledby={title ? ids.title : undefined}>
      {title && <h2 id={ids.title}>{title}</h2>}
      <div className={error?.field === 'test' ? 'field field--error' : 'field'}>
        <label htmlFor={ids.test}>
          <Trans>Test</Trans>
        </label>
        <select
          id={ids.test}
          name="test"
          value={choice}
          {...invalid('test')}
          onChange={(e) => {
            const next = e.target.value;
            setChoice(next);
            setError(undefined);
            const ref = references.find((r) => r.name === next);
            if (ref) setUnit(ref.unit ?? '');
            else if (next === OTHER && choice !== OTHER) setUnit('');
          }}
        >
          <option value="" disabled>
            {t`Choose a test`}
          </option>
          {references.map((r) => (
            <option key={r.name} value={r.name}>
              {r.name}
            </option>
          ))}
          <option value={OTHER}>{t`Another test…`}</option>
        </select>
      </div>
      {choice === OTHER && (
        <div className={error?.field === 'name' ? 'field field--error' : 'field'}>
          <label htmlFor={ids.name}>
            <Trans>Name of the test</Trans>
          </label>
          <input id={ids.name} name="name" type="text" autoComplete="off" autoCapitalize="sentences" value={otherName} {...invalid('name')} onChange={(e) => setOtherName(e.target.value)} />
        </div>
      )}
      <div className="lab-form-row">
        <div className={error?.field === 'value' ? 'field field--error' : 'field'}>
          <label htmlFor={ids.value}>
            <Trans>Result</Trans>
          </label>
          <input id={ids.value} name="value" type="text" inputMode="decimal" autoComplete="off" value={value} {...invalid('value')} onChange={(e) => setValue(e.target.value)} />
        </div>
        <div className={error?.field === 'unit' ? 'field field--error' : 'field'}>
          <label htmlFor={ids.unit}>
            <Trans>Unit</Trans>
          </label>
          <input id={ids.unit} name="unit" type="text" autoComplete="off" autoCapitalize="off" spellCheck={false} value={unit} {...invalid('unit')} onChange={(e) => setUnit(e.target.value)} />
        </div>
      </div>
      <div className={error?.field === 'date' ? 'field field--error' : 'field'}>
        <label htmlFor={ids.date}>
          <Trans>Date of the test</Trans>
        </label>
        <input id={ids.date} name="date" type="date" value={day} max={toDateInput(new Date())} {...invalid('date')} onChange={(e) => setDay(e.target.value)} />
      </div>
      {error && (
        <p id={ids.error} className="error-text" role="alert">
          {error.text}
        </p>
      )}
      <div className="form-actions">
        <button className="button" type="submit" disabled={saving}>
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
