import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { uuidv7 } from '../../../sync/ids.ts';
import type { GlucoseCollection } from './use-glucose.ts';
import { defaultGlucoseType, GLUCOSE_MAX_MG_DL, GLUCOSE_MIN_MG_DL, GLUCOSE_TYPES, parseGlucose, type GlucoseType } from './units.ts';

/** datetime-local value of a Date in the device's zone ("2026-11-22T08:30"). */
const toLocalInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export function GlucoseEntry({ collection, onSaved }: { collection: GlucoseCollection; onSaved: (text: string) => void }) {
  const { t } = useLingui();
  const [type, setType] = useState<GlucoseType>(() => defaultGlucoseType(new Date()));
  const [value, setValue] = useState('');
  const [time, setTime] = useState(() => toLocalInput(new Date()));
  // Until the person changes the time, a reading is taken "now" (when it is saved), not when the
  // form was opened; the field has minute precision only.
  const [timeEdited, setTimeEdited] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const ids = { type: useId(), value: useId(), time: useId(), error: useId() };
  const typeLabel: Record<GlucoseType, string> = { Fasting: t`Fasting`, Postprandial: t`Postprandial`, Random: t`Random` };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseGlucose(value);
    if ('error' in parsed) {
      setError(
        parsed.error === 'empty'
          ? t`Enter the glucose value.`
          : parsed.error === 'not-a-number'
            ? t`Enter the glucose value as a number, for example 126.`
            : t`The value must be between ${GLUCOSE_MIN_MG_DL} and ${GLUCOSE_MAX_MG_DL} mg/dL. Please check the meter.`,
      );
      return;
    }
    const recordedAt = timeEdited && time ? new Date(time) : new Date();
    if (Number.isNaN(recordedAt.getTime()) || recordedAt.getTime() > Date.now() + 5 * 60_000) {
      setError(t`The time of the reading cannot be in the future.`);
      return;
    }
    setError(undefined);
    // The reading is saved locally at once; replication sends it when the server can be reached.
    await collection.insert({ _id: uuidv7(), type, value: parsed.value, recordedAt: recordedAt.toISOString() });
    setValue('');
    setTime(toLocalInput(new Date()));
    setTimeEdited(false);
    onSaved(t`Glucose reported successfully`);
  }

  return (
    <form className="card glucose-entry" onSubmit={(e) => void submit(e)} noValidate aria-describedby={error ? ids.error : undefined}>
      <h2>
        <Trans>Record a glucose reading</Trans>
      </h2>
      <div className="field">
        <label htmlFor={ids.type}>
          <Trans>Type</Trans>
        </label>
        <select id={ids.type} name="type" value={type} onChange={(e) => setType(e.target.value as GlucoseType)}>
          {GLUCOSE_TYPES.map((g) => (
            <option key={g} value={g}>
              {typeLabel[g]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.value}>
          <Trans>Glucose (mg/dL)</Trans>
        </label>
        <input id={ids.value} name="value" inputMode="decimal" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.time}>
          <Trans>Time of the reading</Trans>
        </label>
        <input
          id={ids.time}
          name="recordedAt"
          type="datetime-local"
          value={time}
          max={toLocalInput(new Date())}
          onChange={(e) => {
            setTime(e.target.value);
            setTimeEdited(true);
          }}
        />
      </div>
      {error && (
        <p id={ids.error} className="error-text" role="alert">
          {error}
        </p>
      )}
      <button className="button" type="submit">
        <Trans>Save reading</Trans>
      </button>
    </form>
  );
}
