import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { toLocalInput } from '../../lib/dates.ts';
import { plainText } from '../../../schemas/common.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

export interface AppointmentValues {
  doctor: string;
  date: Date;
  notes: string;
}

/** Doctor, date and time, notes: for a new appointment and for changing one. */
export function AppointmentForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: AppointmentValues;
  submitLabel: string;
  onSubmit: (v: AppointmentValues) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const [doctor, setDoctor] = useState(initial?.doctor ?? '');
  const [date, setDate] = useState(initial ? toLocalInput(initial.date) : '');
  const [notes, setNotes] = useState(initial?.notes ?? '');
  const [errors, setErrors] = useState<{ doctor?: string; date?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const ids = { doctor: useId(), notes: useId(), doctorError: useId(), dateError: useId() };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    if (!doctor.trim()) next.doctor = t`Enter the doctor's name.`;
    else if (doctor.trim().length > 120) next.doctor = t`The doctor's name can have at most 120 characters.`;
    const when = date ? new Date(date) : undefined;
    if (!when || Number.isNaN(when.getTime())) next.date = t`Choose the date and time of the appointment.`;
    setErrors(next);
    if (next.doctor || next.date || !when) return;
    setBusy(true);
    try {
      await onSubmit({ doctor: doctor.trim(), date: when, notes: notes.trim() });
    } catch {
      setErrors({ form: t`The appointment could not be saved on this device. Please try again.` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => inBackground(submit(e), 'Saving the appointment failed')} noValidate>
      <div className={errors.doctor ? 'field field--error' : 'field'}>
        <label htmlFor={ids.doctor}>
          <Trans>Doctor</Trans>
        </label>
        <input
          id={ids.doctor}
          value={doctor}
          maxLength={120}
          autoComplete="off"
          aria-invalid={errors.doctor ? true : undefined}
          aria-describedby={errors.doctor ? ids.doctorError : undefined}
          onChange={(e) => setDoctor(plainText(e.target.value))}
        />
        {errors.doctor && (
          <p id={ids.doctorError} className="error-text">
            {errors.doctor}
          </p>
        )}
      </div>
      <div className={errors.date ? 'field field--error' : 'field'}>
        <DateTimeField
          kind="datetime"
          label={<Trans>Date and time</Trans>}
          value={date}
          invalid={Boolean(errors.date)}
          describedBy={errors.date ? ids.dateError : undefined}
          onChange={setDate}
        />
        {errors.date && (
          <p id={ids.dateError} className="error-text">
            {errors.date}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.notes}>
          <Trans>Notes (optional)</Trans>
        </label>
        <textarea id={ids.notes} dir="auto" value={notes} maxLength={2000} onChange={(e) => setNotes(plainText(e.target.value))} />
      </div>
      {errors.form && (
        <p className="error-text" role="alert">
          {errors.form}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
        <button type="submit" className="button" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
