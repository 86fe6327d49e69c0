// Adding or changing a lab result: a test from the hospital's list (its unit filled in, chosen among
// the units that test is measured in, schemas/lab-units.ts) or another test by name (any unit), the
// result as typed (comma or point), and the day of the test.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { acceptedLabUnit, checkLabResult, labUnitRule } from '../../../schemas/lab-units.ts';
import { shownLabUnit } from '../../../schemas/lab-unit-text.ts';
import { inBackground } from '../../../sync/background.ts';
import { fromDateInput, LAB_NAME_MAX_LENGTH, LAB_UNIT_MAX_LENGTH, parseLabValue, recordedAtFor, testKey, toDateInput } from './lab-rules.ts';
import './labs.css';
import { plainText } from '../../../schemas/common.ts';

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
  const ids = {
    title: `${id}-title`,
    test: `${id}-test`,
    name: `${id}-name`,
    value: `${id}-value`,
    unit: `${id}-unit`,
    unitHint: `${id}-unit-hint`,
    date: `${id}-date`,
    error: `${id}-error`,
  };
  const invalid = (field: Field) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {});
  const typedName = (choice === OTHER ? otherName : choice).trim().replace(/\s+/g, ' ');
  // A test with units of its own (listed, or known by name) offers only those; an empty unit is the
  // list's, as on the server, so the unit shown selected is the one saved.
  const rule = typedName === '' ? undefined : labUnitRule(typedName, references);
  const chosenUnit = rule ? ((unit.trim() === '' ? rule.listUnit : acceptedLabUnit(rule, unit)?.unit) ?? undefined) : undefined;
  const unitWords = (units: readonly string[]) => new Intl.ListFormat(i18n.locale, { type: 'disjunction' }).format(units.map(shownLabUnit));

  function check(): { field: Field; text: string } | LabTestInput {
    if (choice === '') return { field: 'test', text: t`Choose the test, or "Another test" to type its name.` };
    const name = typedName;
    if (name === '') return { field: 'name', text: t`Type the name of the test.` };
    if (name.length > LAB_NAME_MAX_LENGTH) return { field: 'name', text: t`The name of the test can be at most ${LAB_NAME_MAX_LENGTH} characters long.` };
    const parsed = parseLabValue(value);
    if ('error' in parsed) return { field: 'value', text: parsed.error === 'empty' ? t`Enter the result.` : t`Enter the result as a number, for example 7.1.` };
    if (unit.trim().length > LAB_UNIT_MAX_LENGTH) return { field: 'unit', text: t`The unit can be at most ${LAB_UNIT_MAX_LENGTH} characters long.` };
    // The server's own check: a unit the test is not measured in, or a result no assay gives in it.
    const checked = checkLabResult(name, parsed.value, unit, references);
    if ('refused' in checked) {
      const r = checked.refused;
      if (r.kind === 'unit') {
        const units = unitWords(r.accepted);
        return { field: 'unit', text: t`Choose the unit of ${{ testName: r.test }}: ${units}.` };
      }
      const min = i18n.number(r.min, { maximumFractionDigits: 3 });
      const max = i18n.number(r.max, { maximumFractionDigits: 3 });
      const unit = shownLabUnit(r.unit);
      return { field: 'value', text: t`${{ testName: r.test }} results lie between ${min} and ${max} ${unit}. Please check the result.` };
    }
    const date = fromDateInput(day);
    if (!date) return { field: 'date', text: t`Enter the date of the test.` };
    const now = new Date();
    if (toDateInput(date) > toDateInput(now)) return { field: 'date', text: t`The date of the test cannot be in the future.` };
    const recordedAt = recordedAtFor(date, now, initial ? new Date(initial.recordedAt) : undefined);
    return { name, value: parsed.value, unit: checked.unit ?? undefined, recordedAt: recordedAt.toISOString() };
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
    <form
      className="lab-form"
      onSubmit={(e) => inBackground(submit(e), 'Saving the lab result failed')}
      noValidate
      aria-labelledby={title ? ids.title : undefined}
    >
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
          <input
            id={ids.name}
            name="name"
            type="text"
            autoComplete="off"
            autoCapitalize="sentences"
            value={otherName}
            {...invalid('name')}
            onChange={(e) => setOtherName(plainText(e.target.value))}
          />
        </div>
      )}
      <div className="lab-form-row">
        <div className={error?.field === 'value' ? 'field field--error' : 'field'}>
          <label htmlFor={ids.value}>
            <Trans>Result</Trans>
          </label>
          <input
            id={ids.value}
            name="value"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            {...invalid('value')}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        <div className={error?.field === 'unit' ? 'field field--error' : 'field'}>
          <label htmlFor={ids.unit}>
            <Trans>Unit</Trans>
          </label>
          {rule ? (
            <select
              id={ids.unit}
              name="unit"
              value={chosenUnit ?? ''}
              aria-describedby={error?.field === 'unit' ? `${ids.error} ${ids.unitHint}` : ids.unitHint}
              {...(error?.field === 'unit' ? { 'aria-invalid': true } : {})}
              onChange={(e) => setUnit(e.target.value)}
            >
              {chosenUnit === undefined && (
                <option value="" disabled>
                  {t`Choose the unit`}
                </option>
              )}
              {rule.units.map((u) => (
                <option key={u.unit} value={u.unit}>
                  {shownLabUnit(u.unit)}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={ids.unit}
              name="unit"
              type="text"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              value={unit}
              {...invalid('unit')}
              onChange={(e) => setUnit(plainText(e.target.value))}
            />
          )}
        </div>
      </div>
      {rule && (
        <p id={ids.unitHint} className="field-hint lab-unit-hint">
          <UnitHint test={rule.test} units={rule.units.map((u) => u.unit)} typed={chosenUnit === undefined ? unit.trim() : ''} words={unitWords} />
        </p>
      )}
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

/** Why the unit is a choice: the units the test is measured in, or why the unit typed or stored is not one. */
function UnitHint({ test, units, typed, words }: { test: string; units: readonly string[]; typed: string; words: (units: readonly string[]) => string }) {
  const { t } = useLingui();
  const accepted = words(units);
  if (typed !== '') return t`“${typed}” is not a unit of ${{ testName: test }}: choose ${accepted}.`;
  if (units.length === 1) return t`${{ testName: test }} is recorded in ${accepted}. If your lab report uses another unit, ask your care team.`;
  return t`${{ testName: test }} is recorded in ${accepted}: choose the one on your lab report. If it uses another unit, ask your care team.`;
}
