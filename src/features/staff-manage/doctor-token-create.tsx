// Creating a doctor token: the doctor's name, the hospitals they may see, the last day (≤ 90 days).
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import { inBackground } from '../../../sync/background.ts';
import { localDateKey } from '../../lib/dates.ts';
import { useStaffWrites } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { OneTimeSecret } from './one-time-secret.tsx';
import { failureText } from './staff-api.ts';
import { plainText } from '../../../schemas/common.ts';
import { DateTimeField } from '../../components/date-time-field.tsx';

/** The server refuses tokens valid for longer (admin-service DOCTOR_TOKEN_MAX_DAYS). */
const MAX_DAYS = 90;
const inDays = (n: number) => localDateKey(new Date(Date.now() + n * 24 * 3600_000));

interface Errors {
  doctorName?: string;
  hospitalIds?: string;
  expiresOn?: string;
}

export function DoctorTokenCreate({ hospitals, onCreated }: { hospitals: readonly StaffHospital[]; onCreated: () => void }) {
  const { t } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const [doctorName, setDoctorName] = useState('');
  const [hospitalIds, setHospitalIds] = useState<string[]>(() => hospitals.map((h) => h._id));
  const [expiresOn, setExpiresOn] = useState(() => inDays(7));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [created, setCreated] = useState<{ token: string; expiresAt: string } | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Errors = {};
    if (!doctorName.trim()) found.doctorName = t`Enter the doctor's name.`;
    if (hospitalIds.length === 0) found.hospitalIds = t`Choose at least one hospital.`;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn)) found.expiresOn = t`Enter the last day the token works.`;
    else if (expiresOn <= localDateKey(new Date())) found.expiresOn = t`The last day must be after today.`;
    else if (expiresOn > inDays(MAX_DAYS - 1)) found.expiresOn = t`A doctor token can be valid for at most ${MAX_DAYS} days.`;
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    // The token works until the end of the chosen day on this device's clock.
    const [y, m, d] = expiresOn.split('-').map(Number);
    const expiresAt = new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, 23, 59, 0).toISOString();
    setBusy(true);
    try {
      const res = await staffWrites.createDoctorToken({ doctorName: doctorName.trim(), hospitalIds, expiresAt });
      setCreated({ token: res.token, expiresAt: res.data.expiresAt });
      toast({ type: 'success', text: t`Doctor token created` });
      setDoctorName('');
      onCreated();
    } catch (err) {
      setFailure(failureText(err, t`The doctor token could not be created. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate className="sm-subform" aria-labelledby={`${id}-title`} onSubmit={(e) => inBackground(submit(e), 'Creating the doctor token failed')}>
      <h3 id={`${id}-title`}>
        <Trans>New doctor token</Trans>
      </h3>
      <div className="sm-grid">
        <div className={errors.doctorName ? 'field field--error' : 'field'}>
          <label htmlFor={`${id}-name`}>
            <Trans>Doctor's name</Trans>
          </label>
          <input
            id={`${id}-name`}
            autoComplete="off"
            value={doctorName}
            aria-invalid={errors.doctorName ? true : undefined}
            aria-describedby={errors.doctorName ? `${id}-name-error` : undefined}
            onChange={(e) => setDoctorName(plainText(e.target.value))}
          />
          {errors.doctorName && (
            <p id={`${id}-name-error`} className="error-text">
              {errors.doctorName}
            </p>
          )}
        </div>
        <div className={errors.expiresOn ? 'field field--error' : 'field'}>
          <DateTimeField
            kind="date"
            label={<Trans>Valid until</Trans>}
            value={expiresOn}
            invalid={Boolean(errors.expiresOn)}
            describedBy={errors.expiresOn ? `${id}-expires-error ${id}-expires-hint` : `${id}-expires-hint`}
            onChange={setExpiresOn}
          />
          <p id={`${id}-expires-hint`} className="field-hint">
            <Trans>At most {MAX_DAYS} days ahead.</Trans>
          </p>
          {errors.expiresOn && (
            <p id={`${id}-expires-error`} className="error-text">
              {errors.expiresOn}
            </p>
          )}
        </div>
      </div>
      <fieldset className="sm-checks" aria-describedby={errors.hospitalIds ? `${id}-hosp-error` : undefined}>
        <legend>
          <Trans>Hospitals the doctor may see</Trans>
        </legend>
        {hospitals.map((h) => (
          <label key={h._id} className="sm-check">
            <input
              type="checkbox"
              checked={hospitalIds.includes(h._id)}
              onChange={(e) => setHospitalIds((ids) => (e.target.checked ? [...ids, h._id] : ids.filter((x) => x !== h._id)))}
            />
            <span>{h.name}</span>
          </label>
        ))}
        {errors.hospitalIds && (
          <p id={`${id}-hosp-error`} className="error-text">
            {errors.hospitalIds}
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
          <Trans>Create doctor token</Trans>
        </button>
      </div>
      {created && (
        <OneTimeSecret
          label={t`Doctor token`}
          value={created.token}
          expiresAt={created.expiresAt}
          link={`${location.origin}/admin?doctorToken=${encodeURIComponent(created.token)}`}
        />
      )}
    </form>
  );
}
