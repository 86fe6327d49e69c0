import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { Icon } from '../../components/icon.tsx';
import { Pager } from '../../components/pager.tsx';
import { useLiveChanges } from '../../lib/live-changes.ts';
import { staffReads } from '../../lib/staff-api.ts';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { useKeptAnswer, useStaffQuery } from '../../lib/use-staff-query.ts';
import { WORKLIST_DAYS } from '../../../schemas/admin.ts';
import { OpenReportButton } from '../../components/open-report-button.tsx';
import { PriorityLine } from './priority-line.tsx';
import { ReasonChip } from './reason-chip.tsx';
import { UpdatedSinceOpenStatus, UpdatedTag, useUpdatedSinceOpen } from './updated-since-open.tsx';
import { useWorklistFormat } from './use-worklist-format.ts';
import './staff-worklist.css';

const PERIODS = [7, 14, 30, 90] as const;
const PAGE_SIZE = 20;

/**
 * The hospital's patients who need staff first (GET /api/admin/worklist, issue 18): each with the
 * reasons as chips, most urgent first, a line saying why the patient stands where they do, and a way
 * into the patient's report.
 */
export function Worklist({ hospitalId, onOpen }: { hospitalId: string; onOpen: (hospNo: string) => void }) {
  const { t, i18n } = useLingui();
  const staffRuntime = useStaffRuntime();
  const { unit, glucose } = useWorklistFormat();
  const severe = glucose(54);
  const low = glucose(70);
  const [days, setDays] = useState<number>(WORKLIST_DAYS.default);
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const periodId = useId();
  const read = staffReads.worklist({ hospitalId, days, page, limit: PAGE_SIZE });
  // The list shows its own progress, over the page this device kept: no full-screen loader.
  const result = useStaffQuery(read, undefined, attempt, { quiet: true });
  // Local-first (issue 46): the page as this device last fetched it shows at once, saying when,
  // until the server answers; offline (or the server failing) it stays.
  const kept = useKeptAnswer(read.path, result);
  // Live (issue 46): a change of any patient of the hospital asks for the page again, in place.
  useLiveChanges(`?hospitalId=${encodeURIComponent(hospitalId)}`, staffRuntime.live, (change) => {
    if (change.kind !== 'ready' || change.gap) setAttempt((n) => n + 1);
  });
  const data = result.status === 'ready' ? result.data : result.status === 'loading' ? (result.last ?? kept) : kept;
  const pages = Math.max(1, data?.pages ?? 1);
  // Only the server's answers move rows; the kept page shown while it is asked is not compared.
  const updated = useUpdatedSinceOpen(`${hospitalId} ${days}`, result.status === 'ready' ? result.data : undefined);
  const when = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : t`never`);

  return (
    <section className="card worklist" aria-labelledby="worklist-title" aria-busy={result.status === 'loading'} data-testid="worklist">
      <div className="worklist-head">
        <h2 id="worklist-title">
          <Trans>Who needs you first</Trans>
        </h2>
        <div className="field worklist-period">
          <label htmlFor={periodId}>
            <Trans>Period</Trans>
          </label>
          <select
            id={periodId}
            value={days}
            onChange={(e) => {
              // Another period starts again at page 1 (another hospital mounts a new worklist).
              setDays(Number(e.target.value));
              setPage(1);
            }}
          >
            {PERIODS.map((n) => (
              <option key={n} value={n}>
                {t`Last ${n} days`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <details className="worklist-how">
        <summary>
          <Trans>How this list is ordered</Trans>
        </summary>
        <p>
          <Trans>
            Patients are ordered by how much their figures weigh clinically, not by how many reasons they have. A severe low (below {severe} {unit}) comes
            first: more of them and lower ones first, each reading weighed by its risk of hypoglycaemia. Then readings below {low} {unit}: by how many more
            there are than the 4 % target allows, so one low among four readings weighs less than six among forty-five. Then no reading for 3 days or more (the
            longest first; a patient who never sent one counts from registration), too little time in range and missed doses (by how far they fall short,
            counted in readings and doses), and a rising mean (the largest rise first). Too few days with readings comes last and never lifts a patient above
            one whose figures are worse. Among equals the next reason decides, then the lower reading, then the name. The line under each patient’s reasons says
            what placed them.
          </Trans>
        </p>
        <p>
          <Trans>
            The levels follow the international consensus on time in range: a severe low is below 54 mg/dL (3.0 mmol/L); time below 70 mg/dL (3.9 mmol/L) should
            stay under 4 %; the list names patients with under 50 % of readings in 70–180 mg/dL (3.9–10.0 mmol/L). Readings are finger-stick checks, so each
            share is a share of readings. Missed doses: under 80 % of the doses of medicines prescribed as a meal pattern (such as 1-0-1) marked taken. A rising
            mean: at least 10 % and 10 mg/dL above the period before.
          </Trans>
        </p>
      </details>
      {result.status === 'loading' && !data && (
        <p className="muted worklist-status" role="status">
          <Icon icon="mdi:refresh" /> <Trans>Loading the worklist…</Trans>
        </p>
      )}
      {result.status === 'loading' && !result.last && kept && (
        <p className="muted worklist-status" role="status">
          <Icon icon="mdi:refresh" /> <Trans>As of {{ when: at(kept.computedAt) }}, from this device; checking for newer data…</Trans>
        </p>
      )}
      {result.status === 'error' && !result.expired && (
        <div className="worklist-status" role="alert">
          <p className={kept ? 'worklist-offline' : 'error-text'}>
            {kept ? (
              <Trans>
                Offline: this is the worklist this device fetched {{ fetchedAt: at(kept.computedAt) }}. It is brought up to date when the server can be reached.
              </Trans>
            ) : (
              <Trans>The worklist could not be loaded. Check the connection, then try again.</Trans>
            )}
          </p>
          <button type="button" className="button button--secondary button--small" onClick={() => setAttempt((n) => n + 1)}>
            <Icon icon="mdi:refresh" /> <Trans>Try again</Trans>
          </button>
        </div>
      )}
      {data && data.patients.length === 0 && (
        <EmptyState icon="mdi:check-circle">
          <Trans>No patients in this hospital yet.</Trans>
        </EmptyState>
      )}
      {data && data.patients.length > 0 && (
        <>
          <p className="muted worklist-computed">
            <Trans>Worked out {{ computedAt: at(data.computedAt) }}.</Trans>
          </p>
          <UpdatedSinceOpenStatus count={updated.size} />
          <ol className="worklist-items" start={(data.page - 1) * data.limit + 1}>
            {data.patients.map((p) => (
              <li key={p.hospNo} className="worklist-item">
                <div className="worklist-who">
                  <span className="worklist-name">{p.name}</span>
                  <span className="worklist-hospno">{p.hospNo}</span>
                  {updated.has(p.hospNo) && <UpdatedTag />}
                </div>
                <div className="worklist-reasons">
                  {p.reasons.length > 0 ? (
                    <ul className="worklist-chips" aria-label={t`Reasons`}>
                      {p.reasons.map((r) => (
                        <ReasonChip key={r.code} reason={r} days={data.days} />
                      ))}
                    </ul>
                  ) : (
                    <p className="worklist-fine">
                      <Icon icon="mdi:check-circle" /> <Trans>Nothing to act on in this period</Trans>
                    </p>
                  )}
                  <PriorityLine patient={p} days={data.days} />
                </div>
                <p className="muted worklist-when">
                  <Trans>
                    Last reading {{ lastReading: at(p.lastReadingAt) }} · last sync {{ lastSync: at(p.lastSyncAt) }}
                  </Trans>
                </p>
                <OpenReportButton patient={p} className="worklist-open" onOpen={onOpen} />
              </li>
            ))}
          </ol>
          <Pager page={page} pages={pages} label={t`Worklist pages`} onPage={setPage} />
        </>
      )}
    </section>
  );
}
