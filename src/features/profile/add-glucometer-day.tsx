import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { WEEKDAYS } from '../../../schemas/user-profile.ts';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { addGlucometerDay } from './glucometer-day-edits.ts';
import { checkNewDay, localIsoDate, weekdayName, type NewDayProblem } from './glucometer-days.ts';
import { useDayLabel } from './use-day-label.ts';
import type { ProfileDocument } from './use-profile.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

type Repeat = 'weekly' | 'once';

export function AddGlucometerDay({ profile, onSaved }: { profile: ProfileDocument; onSaved: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const dayLabel = useDayLabel();
  const [repeat, setRepeat] = useState<Repeat>('weekly');
  const [weekday, setWeekday] = useState('');
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<NewDayProblem | 'failed' | undefined>();
  const [saving, setSaving] = useState(false);
  const id = useId();
  const days = profile.glucometerAlerts;
  const free = WEEKDAYS.filter((d) => !days.includes(d));
  // The select always shows a real choice: the one picked, or the first still free.
  const chosenWeekday = weekday !== '' && free.includes(weekday as (typeof free)[number]) ? weekday : (free[0] ?? '');
  const today = localIsoDate(new Date());
  const day = repeat === 'weekly' ? chosenWeekday : date;

  const chosen = dayLabel(day);
  const messages: Record<NewDayProblem | 'failed', string> = {
    missing: repeat === 'weekly' ? t`Every day of the week is already a glucometer day.` : t`Choose a date.`,
    invalid: t`Enter the date as day, month and year.`,
    past: t`Choose today or a later date.`,
    duplicate: t`${chosen} is already one of your glucometer days.`,
    'covered-by-weekday': t`A weekly glucometer day already reminds you on this date.`,
    failed: t`The day could not be saved on this device. Please try again.`,
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = checkNewDay(days, day, today);
    setProblem(found);
    if (found) return;
    setSaving(true);
    try {
      await addGlucometerDay(profile, day);
      setDate('');
      setWeekday('');
      onSaved(t`Glucometer alert saved successfully`);
    } catch (err) {
      log.error('could not save a glucometer day', err);
      setProblem('failed');
    } finally {
      setSaving(false);
    }
  }

  const fieldId = `${id}-${repeat}`;
  const errorId = `${id}-error`;
  return (
    <form className="glucometer-add" onSubmit={(e) => inBackground(submit(e), 'could not save a glucometer day')} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        <Trans>Add a glucometer day</Trans>
      </h3>
      <fieldset className="profile-choices">
        <legend>
          <Trans>How often</Trans>
        </legend>
        {(['weekly', 'once'] as const).map((r) => (
          <label key={r} className="profile-choice">
            <input
              type="radio"
              name={`${id}-repeat`}
              value={r}
              checked={repeat === r}
              onChange={() => {
                setRepeat(r);
                setProblem(undefined);
              }}
            />
            {r === 'weekly' ? <Trans>Every week</Trans> : <Trans>On one date</Trans>}
          </label>
        ))}
      </fieldset>
      <div className={problem ? 'field field--error' : 'field'}>
        {repeat === 'weekly' ? (
          <>
            <label htmlFor={fieldId}>
              <Trans>Day of the week</Trans>
            </label>
            <select
              id={fieldId}
              value={chosenWeekday}
              disabled={free.length === 0}
              aria-describedby={problem ? errorId : undefined}
              onChange={(e) => setWeekday(e.target.value)}
            >
              {free.map((d) => (
                <option key={d} value={d}>
                  {weekdayName(d, i18n.locale)}
                </option>
              ))}
            </select>
          </>
        ) : (
          <DateTimeField
            kind="date"
            label={<Trans>Date</Trans>}
            value={date}
            invalid={Boolean(problem)}
            describedBy={problem ? errorId : undefined}
            onChange={setDate}
          />
        )}
        {repeat === 'weekly' && free.length === 0 && (
          <p className="field-hint">
            <Trans>Every day of the week is already a glucometer day.</Trans>
          </p>
        )}
        {problem && (
          <p id={errorId} className="error-text field-hint" role="alert">
            {messages[problem]}
          </p>
        )}
      </div>
      <button className="button" type="submit" disabled={saving || (repeat === 'weekly' && free.length === 0)}>
        <Trans>Add day</Trans>
      </button>
    </form>
  );
}
