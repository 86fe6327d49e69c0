// One patient's management for admins: details, access key / temporary password, prescriptions.
// Doctors only read (spec: management is for admins), so for them this renders nothing.
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { PatientEdit } from './patient-edit.tsx';
import { PatientSecrets } from './patient-secrets.tsx';
import { Prescriptions } from './prescriptions.tsx';
import { failureText, patientPath, type AdminPatient } from './staff-api.ts';
import { useStaffMember } from './use-staff.ts';
import './staff-manage.css';

export function PatientManagement({ hospNo }: { hospNo: string }) {
  const { t } = useLingui();
  const { staff } = useStaffMember();
  const isAdmin = staff?.role === 'admin';
  const [patient, setPatient] = useState<AdminPatient | undefined>();
  const [error, setError] = useState<string | undefined>();

  const load = useCallback(async () => {
    setPatient(undefined);
    setError(undefined);
    try {
      const res = await staffRuntime.api.get<{ patient: AdminPatient }>(patientPath(hospNo));
      setPatient(res.patient);
    } catch (err) {
      setError(failureText(err, t`The patient could not be loaded. Please try again.`));
    }
  }, [hospNo, t]);

  useEffect(() => {
    if (isAdmin) void load();
  }, [isAdmin, load]);

  if (!staff || !isAdmin) return null;
  if (error) {
    return (
      <div className="card">
        <p className="error-text" role="alert">
          {error}
        </p>
        <button type="button" className="button button--secondary" onClick={() => void load()}>
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
          {patient.name} (hospital number {patient.hospNo})
        </Trans>
      </h2>
      <PatientEdit key={patient._id} patient={patient} hospitals={staff.hospitals} onSaved={setPatient} />
      <PatientSecrets hospNo={patient.hospNo} />
      <Prescriptions hospNo={patient.hospNo} />
    </div>
  );
}
