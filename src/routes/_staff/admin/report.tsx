import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import { usePageTitle } from '../../../components/page-title.tsx';
import { TrendChart } from '../../../features/glucose/trend-chart.tsx';
import type { DateRange } from '../../../features/reports/range.ts';
import { StaffReport } from '../../../features/reports/staff-report.tsx';
import { PatientManagement } from '../../../features/staff-manage/patient-management.tsx';
import { AppointmentsCard } from '../../../features/staff-review/appointments-card.tsx';
import { GlucoseStatsCard } from '../../../features/staff-review/glucose-stats.tsx';
import { GlucoseTables } from '../../../features/staff-review/glucose-tables.tsx';
import { LabsCard } from '../../../features/staff-review/labs-card.tsx';
import { MedicinesCard } from '../../../features/staff-review/medicines-card.tsx';
import { PatientBanner } from '../../../features/staff-review/patient-banner.tsx';
import { ProfileCard } from '../../../features/staff-review/profile-card.tsx';
import { reportInputFromReview, reviewTimeZone } from '../../../features/staff-review/report-input.ts';
import { ChoosePatient, ReviewStatus } from '../../../features/staff-review/review-status.tsx';
import { SymptomsCard } from '../../../features/staff-review/symptoms-card.tsx';
import type { ReviewBundle } from '../../../features/staff-review/types.ts';
import { useReview } from '../../../features/staff-review/use-review.ts';

export const Route = createFileRoute('/_staff/admin/report')({ component: Page });

/** The report over a chosen period, made from the bundle on this device (offline too). */
function ReviewReport({ bundle }: { bundle: ReviewBundle }) {
  const makeInput = useCallback((range: DateRange, generatedAt: string) => reportInputFromReview(bundle, range, generatedAt), [bundle]);
  return <StaffReport timeZone={reviewTimeZone(bundle)} makeInput={makeInput} />;
}

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Patient report`);
  const navigate = useNavigate();
  const { state, reload, reset } = useReview();

  return (
    <section className="review" aria-labelledby="review-title">
      <h1 id="review-title">
        <Trans>Patient report</Trans>
      </h1>
      {state.status === 'no-patient' && (
        <div className="card">
          <ChoosePatient />
        </div>
      )}
      {state.status === 'loading' && (
        <p className="card" role="status">
          <Trans>Loading the patient's data…</Trans>
        </p>
      )}
      {state.status === 'error' && (
        <div className="card" role="alert">
          <p className="error-text">
            {state.offline ? (
              <Trans>You are offline and this patient's data has not been fetched on this device yet.</Trans>
            ) : (
              <Trans>The patient's data could not be loaded: {state.message}</Trans>
            )}
          </p>
          <button type="button" className="button" onClick={reload}>
            <Trans>Try again</Trans>
          </button>
        </div>
      )}
      {state.status === 'ready' && (
        <>
          <PatientBanner bundle={state.bundle} />
          <ReviewStatus
            name={state.bundle.profile.name}
            fetchedAt={state.fetchedAt}
            offline={state.offline}
            onReset={() => void reset().then(() => navigate({ to: '/admin/hospital-select' }))}
          />
          <ReviewReport bundle={state.bundle} />
          <ProfileCard bundle={state.bundle} />
          <GlucoseStatsCard glucose={state.bundle.glucose} />
          <TrendChart readings={[...state.bundle.glucose.fasting, ...state.bundle.glucose.postprandial, ...state.bundle.glucose.random]} />
          <GlucoseTables glucose={state.bundle.glucose} />
          <div className="review-grid">
            <MedicinesCard prescriptions={state.bundle.prescriptions} doses={state.bundle.doses} />
            <div>
              <LabsCard tests={state.bundle.tests} />
              <SymptomsCard symptoms={state.bundle.symptoms} />
              <AppointmentsCard appointments={state.bundle.appointments} />
            </div>
          </div>
          {/* Admins manage the patient here too (it renders nothing for doctors); it needs the server. */}
          {!state.offline && <PatientManagement hospNo={state.hospNo} />}
        </>
      )}
    </section>
  );
}
