// Reporting a symptom: one of the hospital's names or the patient's own words, at a time that is
// now unless changed. One report per symptom per day (docs/requirements.md §4, §5) is checked on the device first,
// so it holds offline too; the server checks again across devices.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import type { RxCollection } from 'rxdb';
import { isInTheFuture } from '../../../schemas/common.ts';
import type { Symptom } from '../../../schemas/symptom.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { inBackground } from '../../../sync/background.ts';
import { SymptomPicker } from './symptom-picker.tsx';
import { findSameDayReport, localDayBounds, localDayKey, parseSymptomName, SYMPTOM_MAX_LENGTH, symptomKey, toLocalInput } from './symptom-rules.ts';
import './symptoms.css';
import { DateTimeField } from '../../components/date-time-field.tsx';

export function SymptomForm({ collection, names, onSaved }: { collection: RxCollection<Symptom>; names: readonly string[]; onSaved: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  const [time, setTime] = useState(() => toLocalInput(new Date()));
  // Until the time is changed, a report is made "now" (when it is saved), not when the page opened.
  const [timeEdited, setTimeEdited] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const ids = { label: useId(), symptom: useId(), hint: useId(), error: useId() };

  function problem(): string | { symptom: string; at: Date } {
    const parsed = parseSymptomName(text);
    if ('error' in parsed) {
      return parsed.error === 'empty' ? t`Type a symptom or pick one from the list.` : t`A symptom can be at most ${SYMPTOM_MAX_LENGTH} characters long.`;
    }
    const at = timeEdited && time ? new Date(time) : new Date();
    if (Number.isNaN(at.getTime())) return t`Enter the date and time of the symptom.`;
    if (isInTheFuture(at)) return t`The time of the symptom cannot be in the future.`;
    // A name from the list is stored as the list spells it.
    const listed = names.find((n) => symptomKey(n) === symptomKey(parsed.symptom));
    return { symptom: listed ?? parsed.symptom, at };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const checked = problem();
    if (typeof checked === 'string') return setError(checked);
    const { symptom, at } = checked;
    setSaving(true);
    try {
      const { start, end } = localDayBounds(at);
      const sameDay = await collection.find({ selector: { recordedAt: { $gte: start.toISOString(), $lt: end.toISOString() } } }).exec();
      if (
        findSameDayReport(
          sameDay.map((d) => d.toJSON()),
          symptom,
          at,
        )
      ) {
        const day = i18n.date(at, { dateStyle: 'medium' });
        setError(localDayKey(at) === localDayKey(new Date()) ? t`You've already reported ${symptom} today` : t`You've already reported ${symptom} on ${day}`);
        return;
      }
      // Saved on the device at once; the replication sends it when the server can be reached.
      await collection.insert({ _id: uuidv7(), symptom, recordedAt: at.toISOString() });
      setError(undefined);
      setText('');
      setTime(toLocalInput(new Date()));
      setTimeEdited(false);
      onSaved(t`Symptom reported successfully`);
    } catch {
      setError(t`The report could not be saved on this device. Please try again.`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="card symptom-form"
      onSubmit={(e) => inBackground(submit(e), 'Saving the symptom report failed')}
      noValidate
      aria-labelledby={`${ids.label}-title`}
    >
      <h2 id={`${ids.label}-title`}>
        <Trans>Report a symptom</Trans>
      </h2>
      <div className={error ? 'field field--error' : 'field'}>
        <label id={ids.label} htmlFor={ids.symptom}>
          <Trans>Symptom</Trans>
        </label>
        <SymptomPicker
          id={ids.symptom}
          labelId={ids.label}
          names={names}
          value={text}
          onChange={(v) => {
            setText(v);
            setError(undefined);
          }}
          describedBy={error ? `${ids.hint} ${ids.error}` : ids.hint}
          invalid={error !== undefined}
        />
        <p id={ids.hint} className="field-hint">
          <Trans>Type to search the list, or describe it in your own words.</Trans>
        </p>
      </div>
      <div className="field">
        <DateTimeField
          kind="datetime"
          label={<Trans>Date and time</Trans>}
          value={time}
          onChange={(v) => {
            setTime(v);
            setTimeEdited(true);
            setError(undefined);
          }}
        />
      </div>
      {error && (
        <p id={ids.error} className="error-text" role="alert">
          {error}
        </p>
      )}
      <button className="button" type="submit" disabled={saving}>
        <Trans>Report symptom</Trans>
      </button>
    </form>
  );
}
