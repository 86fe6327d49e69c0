import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { hospNo } from '../../../../schemas/common.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useMemo, useState } from 'react';
import { addDays, localMidnight } from '../../../../report/dates.ts';
import { inBackground } from '../../../../sync/background.ts';
import { usePageTitle } from '../../../components/page-title.tsx';
import { ProfileZoneProvider } from '../../../lib/clock.tsx';
import { TrendChart } from '../../../features/glucose/trend-chart.tsx';
import { presetRange, todayIn, type DateRange } from '../../../features/reports/range.ts';
import { DEFAULT_STAFF_REPORT_DAYS, StaffReport, useStaffReportModel } from '../../../features/reports/staff-report.tsx';
import { PatientManagement } from '../../../features/staff-manage/patient-management.tsx';
import { ReviewAppointments } from '../../../features/staff-review/review-appointments.tsx';
import { GlucoseStatsCard } from '../../../features/staff-review/glucose-stats.tsx';
import { PatientTimeZone } from '../../../features/staff-review/format.ts';
import { GlucoseTables } from '../../../features/staff-review/glucose-tables.tsx';
import { LabsCard } from '../../../features/staff-review/labs-card.tsx';
import { ReviewMedicines } from '../../../features/staff-review/review-medicines.tsx';
import { NewSinceOpen, NewSinceOpenStatus, useNewSinceOpen } from '../../../features/staff-review/new-since-open.tsx';
import { PatientBanner } from '../../../features/staff-review/patient-banner.tsx';
import { ProfileCard } from '../../../features/staff-review/profile-card.tsx';
import { reportInputFromReview, reviewTimeZone } from '../../../features/staff-review/report-input.ts';
import { ChoosePatient, ReviewStatus } from '../../../features/staff-review/review-status.tsx';
import { SymptomsCard } from '../../../features/staff-review/symptoms-card.tsx';
import type { ReviewBundle } from '../../../features/staff-review/types.ts';
import { useReview } from '../../../features/staff-review/use-review.ts';

interface ReportSearch {
  /** A hospital number to open (a severe-low alert's tap, issue 18): chosen, then dropped from the address. */
  patient?: string;
}

const HOSP_NO = new RegExp(hospNo.pattern);

export const Route = createFileRoute('/_staff/admin/report')({
  validateSearch: (search: Record<string, unknown>): ReportSearch => {
    const patient = search['patient'];
    // A number that reads as digits arrives as a number from the query string.
    const text = typeof patient === 'number' ? String(patient) : patient;
    return typeof text === 'string' && text.length <= hospNo.maxLength && HOSP_NO.test(text) ? { patient: text } : {};
  },
  beforeLoad: ({ search, context: { staffRuntime } }) => {
    if (!search.patient) return;
    staffRuntime.choosePatient(search.patient);
    throw redirect({ to: '/admin/report', search: {}, replace: true });
  },
  component: Page,
});

/**
 * Everything the review shows follows one period, the report's (issue 16: a 30-day summary stood
 * beside an unlabelled all-time table and a 14-day trend): statistics, trend and readings are of
 * that period and say so. Medicines, labs, symptoms and appointments keep their whole history.
 */
function ReviewCards({ bundle }: { bundle: ReviewBundle }) {
  const { i18n } = useLingui();
  const timeZone = reviewTimeZone(bundle);
  const [range, setRange] = useState<DateRange>(() => presetRange(DEFAULT_STAFF_REPORT_DAYS, todayIn(timeZone)));
  // The report made from the bundle on this device (offline too), read by every card of the period.
  const makeInput = useCallback((r: DateRange, generatedAt: string) => reportInputFromReview(bundle, r, generatedAt), [bundle]);
  const { model, f } = useStaffReportModel(makeInput, range);
  const glucose = useMemo(() => {
    const ids = new Set(model.readings.map((r) => r.id));
    const inReport = (list: ReviewBundle['glucose']['fasting']) => list.filter((r) => ids.has(r._id));
    return { fasting: inReport(bundle.glucose.fasting), postprandial: inReport(bundle.glucose.postprandial), random: inReport(bundle.glucose.random) };
  }, [bundle, model]);
  const period = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
    new Date(`${range.from}T00:00:00Z`),
    new Date(`${range.to}T00:00:00Z`),
  );
  // The trend's axis: from the first local midnight of the period to the last, on the patient's clock.
  const all = [...glucose.fasting, ...glucose.postprandial, ...glucose.random];
  const trend = { from: localMidnight(range.from, timeZone), to: localMidnight(addDays(range.to, 1), timeZone) - 1, label: period };
  const deviceZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
      {timeZone !== deviceZone && (
        <p className="muted" data-testid="review-time-zone">
          <Trans>Dates and times are shown on the patient’s clock ({timeZone}).</Trans>
        </p>
      )}
      <StaffReport timeZone={timeZone} model={model} f={f} range={range} onRangeChange={setRange} />
      <ProfileCard bundle={bundle} />
      <GlucoseStatsCard model={model} f={f} period={period} />
      {/* The trend's table lists times on this device's clock: they name its zone when the patient's differs. */}
      <ProfileZoneProvider timeZone={timeZone}>
        <TrendChart readings={all} period={trend} />
      </ProfileZoneProvider>
      <GlucoseTables glucose={glucose} period={period} />
    </>
  );
}

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Patient report`);
  const navigate = useNavigate();
  const { state, reload, refresh, reset } = useReview();
  const arrived = useNewSinceOpen(state.status === 'ready' ? state.hospNo : undefined, state.status === 'ready' ? state.bundle : undefined);

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
              <Trans>The patient's data could not be loaded: {{ reason: state.message }}</Trans>
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
            refreshing={state.refreshing}
            onReset={() =>
              inBackground(
                reset().then(() => navigate({ to: '/admin/hospital-select' })),
                'Choosing another patient failed',
              )
            }
          />
          <NewSinceOpen.Provider value={arrived}>
            <NewSinceOpenStatus />
            <PatientTimeZone.Provider value={reviewTimeZone(state.bundle)}>
              <ReviewCards bundle={state.bundle} />
              <div className="review-grid">
                <ReviewMedicines prescriptions={state.bundle.prescriptions} doses={state.bundle.doses} />
                <div>
                  <LabsCard tests={state.bundle.tests} />
                  <SymptomsCard symptoms={state.bundle.symptoms} />
                  <ReviewAppointments appointments={state.bundle.appointments} />
                </div>
              </div>
            </PatientTimeZone.Provider>
          </NewSinceOpen.Provider>
          {/* Admins manage the patient here too (it renders nothing for doctors); it needs the server, and
              reads nothing of its own: the review holds the patient and the prescriptions. */}
          {!state.offline && state.bundle.patient && (
            <PatientManagement hospNo={state.hospNo} kept={{ patient: state.bundle.patient, prescriptions: state.bundle.prescriptions, onChanged: refresh }} />
          )}
        </>
      )}
    </section>
  );
}
