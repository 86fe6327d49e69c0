// Editing a patient's details and reminder times (PATCH /admin/patients/:hospNo).
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import type { PatientPatch } from '../../../schemas/admin.ts';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import { useStaffWrites } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { PatientFields, patientBody, usePatientChecks, type PatientErrors, type PatientValues } from './patient-fields.tsx';
import { failureText, type AdminPatient, type MealTimes } from './staff-api.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

const MEALS = ['breakfast', 'lunch', 'dinner'] as const;
type Meal = (typeof MEALS)[number];
/** A change of at least one meal time: what the server takes as `notificationTimings`. */
const someMeal = (c: Partial<Record<Meal, string>>): c is NonNullable<PatientPatch['notificationTimings']> & Partial<Record<Meal, string>> =>
  Object.keys(c).length > 0;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export function PatientEdit({
  patient,
  hospitals,
  onSaved,
}: {
  patient: AdminPatient;
  hospitals: readonly StaffHospital[];
  onSaved: (p: AdminPatient) => void;
}) {
  const { t } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const check = usePatientChecks();
  const [values, setValues] = useState<PatientValues>({
    name: patient.name,
    gender: patient.gender ?? '',
    age: patient.age === null ? '' : String(patient.age),
    address: patient.address ?? '',
    hospitalId: patient.hospitalId,
  });
  const [times, setTimes] = useState<MealTimes>(patient.notificationTimings);
  const [errors, setErrors] = useState<PatientErrors>({});
  const [timeError, setTimeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const mealLabel: Record<(typeof MEALS)[number], string> = { breakfast: t`Breakfast reminder`, lunch: t`Lunch reminder`, dinner: t`Dinner reminder` };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check(values);
    const badTime = MEALS.some((m) => !TIME.test(times[m]));
    setErrors(found);
    setTimeError(badTime ? t`Enter each reminder time as hours and minutes, e.g. 08:00.` : undefined);
    setFailure(undefined);
    if (Object.keys(found).length > 0 || badTime) return;
    setBusy(true);
    try {
      // Only the meal times changed here, on the version this form was opened with: a patient's
      // own change of a meal time meanwhile is refused (409) instead of being put back silently.
      const changed: Partial<Record<Meal, string>> = {};
      for (const m of MEALS) if (times[m] !== patient.notificationTimings[m]) changed[m] = times[m];
      const res = await staffWrites.updatePatient(patient.hospNo, {
        ...patientBody(values),
        ...(someMeal(changed) ? { notificationTimings: changed } : {}),
        ...(patient.version !== undefined ? { baseVersion: patient.version } : {}),
      });
      toast({ type: 'success', text: t`Patient details saved` });
      onSaved(res.data);
    } catch (err) {
      setFailure(failureText(err, t`The patient's details could not be saved. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        <Trans>Patient details</Trans>
      </h3>
      <form noValidate onSubmit={(e) => inBackground(submit(e), 'Saving the patient failed')}>
        <PatientFields values={values} errors={errors} hospitals={hospitals} onChange={(patch) => setValues((v) => ({ ...v, ...patch }))} />
        <fieldset className="sm-times">
          <legend>
            <Trans>Reminder times</Trans>
          </legend>
          {MEALS.map((m) => (
            <div key={m} className="field">
              <DateTimeField
                kind="time"
                label={mealLabel[m]}
                value={times[m]}
                invalid={Boolean(timeError)}
                describedBy={timeError ? `${id}-time-error` : undefined}
                onChange={(t) => setTimes((v) => ({ ...v, [m]: t }))}
              />
            </div>
          ))}
          {timeError && (
            <p id={`${id}-time-error`} className="error-text">
              {timeError}
            </p>
          )}
        </fieldset>
        {failure && (
          <p className="error-text" role="alert">
            {failure}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            <Trans>Save patient details</Trans>
          </button>
        </div>
      </form>
    </section>
  );
}
