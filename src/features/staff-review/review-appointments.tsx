import { Trans } from '@lingui/react/macro';
import { EmptyState } from '../../components/empty-state.tsx';
import { useFormat } from './format.ts';
import { NewTag } from './new-since-open.tsx';
import { splitAppointments } from './summaries.ts';
import type { ReviewAppointment } from './types.ts';
import { useNow } from '../../lib/use-now.ts';

export function ReviewAppointments({ appointments }: { appointments: ReviewAppointment[] }) {
  const f = useFormat();
  const now = useNow();
  const { upcoming, past } = splitAppointments(appointments, now);
  const list = (items: ReviewAppointment[]) => (
    <ul className="list">
      {items.map((a) => (
        <li key={a._id}>
          <span className="list-main">
            <strong>{f.dateTime(a.date)}</strong> · {a.doctor} <NewTag ids={[a._id]} />
            {a.notes ? (
              <>
                <br />
                <span className="muted" dir="auto">
                  {a.notes}
                </span>
              </>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
  return (
    <section className="card" aria-labelledby="review-appointments">
      <h2 id="review-appointments">
        <Trans>Appointments</Trans>
      </h2>
      <h3>
        <Trans>Upcoming</Trans>
      </h3>
      {upcoming.length ? (
        list(upcoming)
      ) : (
        <EmptyState icon="mdi:calendar-clock">
          <Trans>No upcoming appointments. The patient adds them in the app.</Trans>
        </EmptyState>
      )}
      <h3>
        <Trans>Past</Trans>
      </h3>
      {past.length ? (
        list(past)
      ) : (
        <p className="muted">
          <Trans>No past appointments.</Trans>
        </p>
      )}
    </section>
  );
}
