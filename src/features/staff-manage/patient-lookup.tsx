// Finding a patient by hospital number to manage them.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { PatientManagement } from './patient-management.tsx';
import { HOSP_NO_PATTERN } from './staff-api.ts';

export function PatientLookup({ chosen, onChoose }: { chosen: string | undefined; onChoose: (hospNo: string) => void }) {
  const { t } = useLingui();
  const id = useId();
  const [value, setValue] = useState(chosen ?? '');
  const [error, setError] = useState<string | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const no = value.trim();
    if (!no) setError(t`Enter the hospital number.`);
    else if (!HOSP_NO_PATTERN.test(no)) setError(t`A hospital number has letters, digits and - / . _ only (up to 32).`);
    else {
      setError(undefined);
      onChoose(no);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="sm-stack">
      <div className="card">
        <h2 id={`${id}-title`}>
          <Trans>Manage a patient</Trans>
        </h2>
        <form noValidate className="sm-inline-form" role="search" onSubmit={submit}>
          <div className={error ? 'field field--error' : 'field'}>
            <label htmlFor={`${id}-no`}>
              <Trans>Hospital number</Trans>
            </label>
            <input
              id={`${id}-no`}
              autoComplete="off"
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
            {error && (
              <p id={`${id}-error`} className="error-text">
                {error}
              </p>
            )}
          </div>
          <button type="submit" className="button">
            <Trans>Find patient</Trans>
          </button>
        </form>
      </div>
      {chosen && <PatientManagement key={chosen} hospNo={chosen} />}
    </section>
  );
}
