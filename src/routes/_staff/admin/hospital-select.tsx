import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { inBackground } from '../../../../sync/background.ts';
import { usePageTitle } from '../../../components/page-title.tsx';
import { AlertsCard } from '../../../features/staff-alerts/alerts-card.tsx';
import { HospitalChoice } from '../../../features/staff-users/hospital-choice.tsx';
import { UsersList } from '../../../features/staff-users/users-list.tsx';
import { Worklist } from '../../../features/staff-worklist/worklist.tsx';
import { useStaffChoices, useStaffRuntime, useStaffSession } from '../../../lib/runtime-context.tsx';

export const Route = createFileRoute('/_staff/admin/hospital-select')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Choose a hospital`);
  const navigate = useNavigate();
  const staffRuntime = useStaffRuntime();
  const state = useStaffSession();
  const { hospitalId } = useStaffChoices();
  const hospitals = state.status === 'logged-in' ? state.staff.hospitals : [];
  // A choice left from a hospital this session no longer has does not count.
  const chosen = hospitals.some((h) => h._id === hospitalId) ? hospitalId : undefined;
  const only = hospitals.length === 1 ? hospitals[0]?._id : undefined;

  useEffect(() => {
    if (only && chosen !== only) staffRuntime.chooseHospital(only);
  }, [only, chosen, staffRuntime]);

  function open(hospNo: string) {
    staffRuntime.choosePatient(hospNo);
    inBackground(navigate({ to: '/admin/report' }), 'Opening the patient report failed');
  }

  return (
    <div className="hospital-select">
      <h1>
        <Trans>Choose a hospital</Trans>
      </h1>
      <section className="card">
        <HospitalChoice hospitals={hospitals} value={chosen} onChange={(id) => staffRuntime.chooseHospital(id)} />
      </section>
      <AlertsCard hospitals={hospitals} />
      {chosen && <Worklist key={chosen} hospitalId={chosen} onOpen={open} />}
      <UsersList hospitalId={chosen} onOpen={open} />
    </div>
  );
}
