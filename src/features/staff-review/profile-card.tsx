import { Trans, useLingui } from '@lingui/react/macro';
import { useGenderLabel } from '../../lib/gender.ts';
import { useFormat } from './format.ts';
import type { ReviewBundle } from './types.ts';

// eslint-disable-next-line lingui/no-unlocalized-strings -- the values the API stores; dayName words them with Intl
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Who the patient is and how their app is set up. */
export function ProfileCard({ bundle }: { bundle: ReviewBundle }) {
  const { t } = useLingui();
  const f = useFormat();
  const p = bundle.profile;
  const genderLabel = useGenderLabel();
  const weekday = new Intl.DateTimeFormat(f.locale, { weekday: 'long', timeZone: 'UTC' });
  // 2023-01-01 was a Sunday: the index into WEEKDAYS is the day of that week.
  const dayName = (day: string) => {
    const i = WEEKDAYS.indexOf(day);
    return i < 0 ? day : weekday.format(new Date(Date.UTC(2023, 0, 1 + i)));
  };
  const meals = p.notificationTimings ?? {};
  const mealLabel = { breakfast: t`Breakfast`, lunch: t`Lunch`, dinner: t`Dinner` } as const;
  const notSet = t`Not set`;
  const days = p.glucometerAlerts ?? [];
  return (
    <section className="card" aria-labelledby="review-profile">
      <h2 id="review-profile">{p.name}</h2>
      <dl className="review-facts">
        <div>
          <dt>
            <Trans>Hospital number</Trans>
          </dt>
          <dd>{p.hospNum || bundle.hospNo}</dd>
        </div>
        <div>
          <dt>
            <Trans>Gender</Trans>
          </dt>
          <dd>{p.gender ? genderLabel(p.gender) : notSet}</dd>
        </div>
        <div>
          <dt>
            <Trans>Age</Trans>
          </dt>
          <dd>{p.age ?? notSet}</dd>
        </div>
        <div>
          <dt>
            <Trans>Hospital</Trans>
          </dt>
          <dd>{p.hospital || notSet}</dd>
        </div>
        <div>
          <dt>
            <Trans>Meal times</Trans>
          </dt>
          <dd>{(['breakfast', 'lunch', 'dinner'] as const).map((meal) => `${mealLabel[meal]} ${meals[meal] ?? '–'}`).join(' · ')}</dd>
        </div>
        <div>
          <dt>
            <Trans>Glucometer days</Trans>
          </dt>
          <dd>{days.length ? new Intl.ListFormat(f.locale, { type: 'conjunction' }).format(days.map(dayName)) : notSet}</dd>
        </div>
      </dl>
      <p className="muted" data-testid="review-last-sync">
        {bundle.lastSyncAt ? (
          <Trans>Last sync of the patient's device: {{ lastSync: f.dateTime(bundle.lastSyncAt) }}</Trans>
        ) : (
          <Trans>Last sync of the patient's device: never</Trans>
        )}
      </p>
    </section>
  );
}
