// Adding a prescription for a patient (POST /admin/patients/:hospNo/prescriptions).
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { useStaffWrites } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { failureText } from './staff-api.ts';
import { plainText } from '../../../schemas/common.ts';

interface Values {
  prescrNo: string;
  name: string;
  dose: string;
  startDate: string;
  endDate: string;
}
type Errors = Partial<Record<keyof Values, string>>;
const EMPTY: Values = { prescrNo: '', name: '', dose: '', startDate: '', endDate: '' };

export function PrescriptionAdd({ hospNo, onAdded }: { hospNo: string; onAdded: () => void }) {
  const { t } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function check(v: Values): Errors {
    const e: Errors = {};
    if (!v.prescrNo.trim()) e.prescrNo = t`Enter the prescription number.`;
    if (!v.name.trim()) e.name = t`Enter the medicine's name.`;
    if (!v.dose.trim()) e.dose = t`Enter the dose.`;
    if (v.startDate && v.endDate && v.endDate < v.startDate) e.endDate = t`The end date cannot be before the start date.`;
    return e;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check(values);
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await staffWrites.addPrescription(hospNo, {
        prescrNo: values.prescrNo.trim(),
        name: values.name.trim(),
        dose: values.dose.trim(),
        startDate: values.startDate || null,
        endDate: values.endDate || null,
      });
      toast({ type: 'success', text: t`Prescription added` });
      setValues(EMPTY);
      onAdded();
    } catch (err) {
      setFailure(failureText(err, t`The prescription could not be added. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  const field = (key: keyof Values, label: string, type: 'text' | 'date' = 'text') => (
    <div className={errors[key] ? 'field field--error' : 'field'}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        name={key}
        type={type}
        autoComplete="off"
        value={values[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
        onChange={(e) => setValues((v) => ({ ...v, [key]: plainText(e.target.value) }))}
      />
      {errors[key] && (
        <p id={`${id}-${key}-error`} className="error-text">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <form noValidate className="sm-subform" aria-labelledby={`${id}-title`} onSubmit={(e) => inBackground(submit(e), 'Adding the prescription failed')}>
      <h4 id={`${id}-title`}>
        <Trans>Add a prescription</Trans>
      </h4>
      <div className="sm-grid">
        {field('prescrNo', t`Prescription number`)}
        {field('name', t`Medicine name`)}
        {field('dose', t`Dose`)}
        {field('startDate', t`Start date (optional)`, 'date')}
        {field('endDate', t`End date (optional)`, 'date')}
      </div>
      {failure && (
        <p className="error-text" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          <Trans>Add prescription</Trans>
        </button>
      </div>
    </form>
  );
}
