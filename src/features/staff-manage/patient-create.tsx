// Creating a patient (POST /admin/patients) in one of the admin's hospitals.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import { useStaffWrites } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { PatientFields, patientBody, usePatientChecks, type PatientErrors, type PatientValues } from './patient-fields.tsx';
import { failureText, HOSP_NO_PATTERN } from './staff-api.ts';

const empty = (hospitalId: string): PatientValues => ({ name: '', gender: '', age: '', address: '', hospitalId });

export function PatientCreate({ hospitals, onCreated }: { hospitals: readonly StaffHospital[]; onCreated: (hospNo: string) => void }) {
  const { t } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const check = usePatientChecks();
  const [hospNo, setHospNo] = useState('');
  const [values, setValues] = useState<PatientValues>(() => empty(hospitals.length === 1 ? (hospitals[0]?._id ?? '') : ''));
  const [errors, setErrors] = useState<PatientErrors & { hospNo?: string }>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: PatientErrors & { hospNo?: string } = check(values);
    const no = hospNo.trim();
    if (!no) found.hospNo = t`Enter the hospital number.`;
    else if (!HOSP_NO_PATTERN.test(no)) found.hospNo = t`A hospital number has letters, digits and - / . _ only (up to 32).`;
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await staffWrites.createPatient({ hospNo: no, ...patientBody(values) });
      toast({ type: 'success', text: t`Patient ${no} created` });
      setHospNo('');
      setValues(empty(values.hospitalId));
      onCreated(no);
    } catch (err) {
      setFailure(failureText(err, t`The patient could not be created. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Trans>New patient</Trans>
      </h2>
      <form noValidate onSubmit={(e) => inBackground(submit(e), 'Creating the patient failed')}>
        <div className={errors.hospNo ? 'field field--error' : 'field'}>
          <label htmlFor={`${id}-hospNo`}>
            <Trans>Hospital number of the new patient</Trans>
          </label>
          <input
            id={`${id}-hospNo`}
            name="hospNo"
            autoComplete="off"
            value={hospNo}
            aria-invalid={errors.hospNo ? true : undefined}
            aria-describedby={errors.hospNo ? `${id}-hospNo-error` : undefined}
            onChange={(e) => setHospNo(e.target.value)}
          />
          {errors.hospNo && (
            <p id={`${id}-hospNo-error`} className="error-text">
              {errors.hospNo}
            </p>
          )}
        </div>
        <PatientFields values={values} errors={errors} hospitals={hospitals} onChange={(patch) => setValues((v) => ({ ...v, ...patch }))} />
        {failure && (
          <p className="error-text" role="alert">
            {failure}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            <Trans>Create patient</Trans>
          </button>
        </div>
      </form>
    </section>
  );
}
