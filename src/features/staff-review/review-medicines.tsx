import { Trans, useLingui } from '@lingui/react/macro';
import { DoseText } from '../../components/dose-text.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useFormat } from './format.ts';
import { NewTag } from './new-since-open.tsx';
import { doseHistories, type DoseHistory } from './summaries.ts';
import type { ReviewDose, ReviewPrescription } from './types.ts';
import { useNow } from '../../lib/use-now.ts';

function Prescription({ p, history, doseIds }: { p: ReviewPrescription; history: DoseHistory | undefined; doseIds: readonly string[] }) {
  const f = useFormat();
  const { t } = useLingui();
  const start = p.startDate ? f.calendarDate(p.startDate) : t`not set`;
  const end = p.endDate ? f.calendarDate(p.endDate) : t`no end date`;
  const dose = <DoseText dose={p.dose} />;
  return (
    <li>
      <div className="list-main">
        <strong>{p.name}</strong> <span className="muted">{p.prescrNo}</span>
        <br />
        <Trans>
          Dose {dose} · from {start} to {end}
        </Trans>
        <dl className="review-doses">
          <div>
            <dt>
              <Trans>Taken, last 7 days</Trans>
            </dt>
            <dd>{f.number(history?.last7Days ?? 0)}</dd>
          </div>
          <div>
            <dt>
              <Trans>Taken, last 30 days</Trans>
            </dt>
            <dd>{f.number(history?.last30Days ?? 0)}</dd>
          </div>
          <div>
            <dt>
              <Trans>Last taken</Trans>
            </dt>
            <dd>
              {history?.lastTakenAt ? f.dateTime(history.lastTakenAt) : t`Never marked as taken`} <NewTag ids={doseIds} />
            </dd>
          </div>
        </dl>
      </div>
    </li>
  );
}

/** Active and ended prescriptions, each with the doses the patient marked as taken. */
export function ReviewMedicines({ prescriptions, doses }: { prescriptions: ReviewPrescription[]; doses: ReviewDose[] }) {
  const now = useNow();
  const histories = doseHistories(doses, now);
  const active = prescriptions.filter((p) => p.active);
  const ended = prescriptions.filter((p) => !p.active);
  const list = (items: ReviewPrescription[]) => (
    <ul className="list">
      {items.map((p) => (
        <Prescription key={p._id} p={p} history={histories.get(p.prescrNo)} doseIds={doses.filter((d) => d.prescrNo === p.prescrNo).map((d) => d._id)} />
      ))}
    </ul>
  );
  return (
    <section className="card" aria-labelledby="review-medicines">
      <h2 id="review-medicines">
        <Trans>Medicines</Trans>
      </h2>
      <h3>
        <Trans>Active</Trans>
      </h3>
      {active.length ? (
        list(active)
      ) : (
        <EmptyState icon="mdi:medical-bag">
          <Trans>No active prescriptions. An admin adds them under the patient's prescriptions.</Trans>
        </EmptyState>
      )}
      <h3>
        <Trans>Ended</Trans>
      </h3>
      {ended.length ? (
        list(ended)
      ) : (
        <p className="muted">
          <Trans>No ended prescriptions.</Trans>
        </p>
      )}
    </section>
  );
}
