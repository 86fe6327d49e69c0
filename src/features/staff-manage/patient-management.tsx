// One patient's management for admins: details, access key / temporary password, prescriptions.
// Doctors only read (spec: management is for admins), so for them this renders nothing.
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { staffReads } from '../../lib/staff-api.ts';
import { useStaffQuery } from '../../lib/use-staff-query.ts';
import { PatientEdit } from './patient-edit.tsx';
import { PatientSecrets } from './patient-secrets.tsx';
import { Prescriptions, type ListedPrescription } from './prescriptions.tsx';
import { failureText, type AdminPatient } from './staff-api.ts';
import { useStaffMember } from './use-staff.ts';
import './staff-manage.css';

/**
 * `kept`: the patient and prescriptions the patient's review already holds (issue 46: the review is
 * one read, audited once); a change asks the review to refresh. Without it (the Manage page) they are
 * read here.
 */
export function PatientManagement({
  hospNo,
  kept,
}: {
  hospNo: string;
  kept?: { patient: AdminPatient; prescriptions: readonly ListedPrescription[]; onChanged: () => void } | undefined;
}) {
  const { t } = useLingui();
  const { staff } = useStaffMember();
  const isAdmin = staff?.role === 'admin';
  const [attempt, setAttempt] = useState(0);
  // Only admins fetch; another patient, or another try, shows "Loading" rather than what was there.
  const result = useStaffQuery(isAdmin && !kept ? staffReads.patient(hospNo) : undefined, undefined, attempt);
  // What the edit form saved stands in for the fetched patient until the next fetch.
  const [saved, setSaved] = useState<{ over: AdminPatient; patient: AdminPatient } | undefined>();
  const fetched = kept ? kept.patient : result.status === 'ready' ? result.data.patient : undefined;
  const patient = fetched && saved?.over === fetched ? saved.patient : fetched;
  const error = result.status === 'error' ? failureText(result.error, t`The patient could not be loaded. Please try again.`) : undefined;

  if (!staff || !isAdmin) return null;
  if (error) {
    return (
      <div className="card">
        <p className="error-text" role="alert">
          {error}
        </p>
        <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
          <Trans>Try again</Trans>
        </button>
      </div>
    );
  }
  if (!patient) {
    return (
      <p className="muted" role="status">
        <Trans>Loading the patient…</Trans>
      </p>
    );
  }
  return (
    <div className="sm-stack">
      <h2 className="sm-patient-title">
        <Trans>
          {{ patientName: patient.name }} (hospital number {{ hospitalNumber: patient.hospNo }})
        </Trans>
      </h2>
      <PatientEdit
        key={patient._id}
        patient={patient}
        hospitals={staff.hospitals}
        onSaved={(p) => {
          if (fetched) setSaved({ over: fetched, patient: p });
          kept?.onChanged();
        }}
      />
      <PatientSecrets hospNo={patient.hospNo} />
      <Prescriptions hospNo={patient.hospNo} kept={kept && { prescriptions: kept.prescriptions, onChanged: kept.onChanged }} />
    </div>
  );
}
