import { Trans } from '@lingui/react/macro';
import { Icon } from '../../components/icon.tsx';
import type { StaffHospital } from '../../../sync/staff-session.ts';
import './staff-users.css';

/** The hospitals of the session as large radio cards; the choice scopes the users list. */
export function HospitalChoice({ hospitals, value, onChange }: { hospitals: StaffHospital[]; value: string | undefined; onChange: (id: string) => void }) {
  return (
    <fieldset className="hospital-choice">
      <legend>
        <Trans>Hospital</Trans>
      </legend>
      {hospitals.length === 0 ? (
        <p className="muted">
          <Trans>Your account has no hospital yet. Ask an administrator to give you access to one.</Trans>
        </p>
      ) : (
        <div className="hospital-choice-cards">
          {hospitals.map((h) => (
            <label key={h._id} className="hospital-card">
              <input type="radio" name="hospital" value={h._id} checked={value === h._id} onChange={() => onChange(h._id)} />
              <Icon icon="mdi:home" className="hospital-card-icon" />
              <span className="hospital-card-text">
                <span className="hospital-card-name">{h.name}</span>
                <span className="hospital-card-zone">{h.timeZone}</span>
              </span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
