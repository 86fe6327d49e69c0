// /admin/manage: everything an admin manages in one place. Doctors only review patients, so they
// get an explanation instead of forms.
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { usePageTitle } from '../../components/page-title.tsx';
import { AuditLog } from './audit-log.tsx';
import { DoctorTokens } from './doctor-tokens.tsx';
import { HospitalSettings } from './hospital-settings.tsx';
import { PatientCreate } from './patient-create.tsx';
import { PatientLookup } from './patient-lookup.tsx';
import { useStaffMember } from './use-staff.ts';
import './staff-manage.css';

export function ManagePage() {
  const { t } = useLingui();
  usePageTitle(t`Manage patients and doctors`);
  const { staff, settled } = useStaffMember();
  const [chosen, setChosen] = useState<string | undefined>();

  if (!settled) return null;
  if (!staff) {
    return (
      <section className="card">
        <h1>
          <Trans>Manage patients and doctors</Trans>
        </h1>
        <p>
          <Trans>Please log in to the staff area first.</Trans>
        </p>
        <Link to="/admin" className="button">
          <Trans>Go to the staff login</Trans>
        </Link>
      </section>
    );
  }
  if (staff.role !== 'admin') {
    return (
      <section className="card">
        <h1>
          <Trans>Manage patients and doctors</Trans>
        </h1>
        <p role="alert">
          <Trans>Only admins can manage patients and doctor tokens.</Trans>
        </p>
      </section>
    );
  }
  return (
    <div className="sm-page">
      <h1>
        <Trans>Manage patients and doctors</Trans>
      </h1>
      {/* Finding and managing a patient across the width; below it, from 1100 px, a new patient with
          the hospital settings under it, and the doctors' tokens, side by side (columns of about the
          same length). With the short lookup in a column of its own, half the page stood empty
          beside the new-patient form. */}
      <PatientLookup key={chosen ?? ''} chosen={chosen} onChoose={setChosen} />
      <div className="sm-columns">
        <div className="sm-stack">
          <PatientCreate hospitals={staff.hospitals} onCreated={setChosen} />
          <HospitalSettings />
        </div>
        <div className="sm-stack">
          <DoctorTokens hospitals={staff.hospitals} />
        </div>
      </div>
      <AuditLog />
    </div>
  );
}
