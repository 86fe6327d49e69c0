import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { useClock } from '../../lib/clock.tsx';
import { checkMealTimings, MEALS, type Meal, type MealTimeProblem, type MealTimings } from './meal-timings.ts';
import type { ProfileDocument } from './use-profile.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

/**
 * Breakfast, lunch and dinner reminder times. Saved on the device at once; sync sends them as
 * POST /users/notificationTimings when the server can be reached.
 */
export function MealTimingsForm({ profile, onSaved }: { profile: ProfileDocument; onSaved: (text: string) => void }) {
  const { t } = useLingui();
  const clock = useClock();
  // Until the patient edits, the form shows what is stored, so a pull that changes it is seen.
  const [draft, setDraft] = useState<MealTimings | undefined>();
  const [problems, setProblems] = useState<Partial<Record<Meal, MealTimeProblem>>>({});
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const baseId = useId();
  const stored = profile.notificationTimings;
  const values: MealTimings = draft ?? { breakfast: stored.breakfast, lunch: stored.lunch, dinner: stored.dinner };

  const label: Record<Meal, string> = { breakfast: t`Breakfast`, lunch: t`Lunch`, dinner: t`Dinner` };
  // Whole sentences per meal, so each language can word them naturally.
  const missing: Record<Meal, string> = { breakfast: t`Enter the breakfast time.`, lunch: t`Enter the lunch time.`, dinner: t`Enter the dinner time.` };
  const message = (meal: Meal, problem: MealTimeProblem): string => {
    if (problem === 'missing') return missing[meal];
    if (problem === 'invalid') return t`Enter the time as hours and minutes, for example 08:00.`;
    return meal === 'lunch' ? t`Lunch must be later than breakfast.` : t`Dinner must be later than lunch.`;
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = checkMealTimings(values);
    setProblems(found);
    setFailed(false);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await profile.incrementalPatch({ notificationTimings: { ...values } });
      setDraft(undefined);
      onSaved(t`Notification timings saved successfully`);
    } catch (err) {
      log.error('could not save the meal times', err);
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card" onSubmit={(e) => inBackground(submit(e), 'could not save the meal times')} noValidate aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`}>
        <Trans>Meal-time reminders</Trans>
      </h2>
      <p className="field-hint">
        <Trans>Eddy sends your meal-time reminders at these times.</Trans>
      </p>
      {/* The server sends them on the profile's clock: said when this device's is another. */}
      {clock.differs && clock.profileZone && (
        <p className="field-hint" data-testid="meal-times-zone">
          <Trans>
            These times are on your profile’s clock ({{ profileZone: clock.profileZone }}), not this device’s ({{ deviceZone: clock.deviceZone }}).
          </Trans>
        </p>
      )}
      <div className="meal-times">
        {MEALS.map((meal) => {
          const problem = problems[meal];
          const id = `${baseId}-${meal}`;
          return (
            <div key={meal} className={problem ? 'field field--error' : 'field'}>
              <DateTimeField
                kind="time"
                label={label[meal]}
                required
                value={values[meal]}
                invalid={Boolean(problem)}
                describedBy={problem ? `${id}-error` : undefined}
                onChange={(v) => setDraft({ ...values, [meal]: v })}
              />
              {problem && (
                <p id={`${id}-error`} className="error-text field-hint">
                  {message(meal, problem)}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {/* One announcement for the whole form; the messages beside the fields say which one. */}
      <p className="visually-hidden" role="alert">
        {Object.keys(problems).length > 0 ? t`Please correct the meal times.` : ''}
      </p>
      {failed && (
        <p className="error-text" role="alert">
          <Trans>The meal times could not be saved on this device. Please try again.</Trans>
        </p>
      )}
      <div className="form-actions">
        <button className="button" type="submit" disabled={saving}>
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
}
