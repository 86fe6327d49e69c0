import { Trans } from '@lingui/react/macro';
import { EmptyState } from '../../components/empty-state.tsx';
import { localDateKey } from '../../lib/dates.ts';
import { useFormat } from './format.ts';
import { NewTag } from './new-since-open.tsx';
import { symptomsByDay } from './summaries.ts';
import type { ReviewSymptom } from './types.ts';

export function SymptomsCard({ symptoms }: { symptoms: ReviewSymptom[] }) {
  const f = useFormat();
  const days = symptomsByDay(symptoms, (iso) => localDateKey(new Date(iso)));
  return (
    <section className="card" aria-labelledby="review-symptoms">
      <h2 id="review-symptoms">
        <Trans>Symptoms</Trans>
      </h2>
      {days.length === 0 ? (
        <EmptyState icon="mdi:emoticon-sick-outline">
          <Trans>No symptoms reported. The patient reports them in the app under Symptoms.</Trans>
        </EmptyState>
      ) : (
        <ul className="list">
          {days.map(([day, list]) => (
            <li key={day}>
              <span className="list-main">
                <strong>{f.day((list[0] as ReviewSymptom).recordedAt)}</strong> <NewTag ids={list.map((s) => s._id)} />
                <br />
                {new Intl.ListFormat(f.locale, { type: 'conjunction' }).format(list.map((s) => s.symptom))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
