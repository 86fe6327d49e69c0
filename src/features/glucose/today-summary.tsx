import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatGlucose } from '../../../schemas/glucose-units.ts';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { useClock } from '../../lib/clock.tsx';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { BandLabel } from './band-label.tsx';
import { classifyGlucose } from './targets.ts';
import { GLUCOSE_TYPE_LABELS } from '../../lib/glucose-types.ts';
import { GLUCOSE_TYPES } from './units.ts';

const isToday = (iso: string, now = new Date()) => new Date(iso).toDateString() === now.toDateString();

/**
 * The latest reading of each type and today's readings, each against its target, with the way to
 * every reading (the readings page). `complete` false: `readings` are the newest days only, and a
 * type without a reading in them may have an older one still to be read.
 */
export function TodaySummary({ readings, complete = true }: { readings: GlucoseReading[] | undefined; complete?: boolean }) {
  const { i18n } = useLingui();
  const unit = useGlucoseUnit();
  const clock = useClock();
  if (!readings) {
    return (
      <p className="card" role="status">
        <Trans>Loading your readings…</Trans>
      </p>
    );
  }
  // `readings` is newest first, so the first of a type is its latest.
  const latest = GLUCOSE_TYPES.map((type) => ({ type, reading: readings.find((r) => r.type === type) }));
  const today = readings.filter((r) => isToday(r.recordedAt));
  return (
    <section className="card" aria-labelledby="today-title" aria-busy={complete ? undefined : true}>
      <div className="section-head">
        <h2 id="today-title">
          <Trans>Latest readings</Trans>
        </h2>
        <Link to="/app/readings" className="button button--small button--secondary" data-testid="all-readings">
          <Trans>All readings and trend</Trans>
        </Link>
      </div>
      <ul className="latest-grid">
        {latest.map(({ type, reading }) => (
          <li key={type} className={reading ? `latest latest--${classifyGlucose(reading, type, unit)}` : 'latest'} data-testid={`latest-${type}`}>
            <span className="latest-type">{i18n._(GLUCOSE_TYPE_LABELS[type])}</span>
            {reading ? (
              <>
                <span className="latest-value">
                  <span>{formatGlucose(reading, unit, i18n.locale)}</span> <small>{unit}</small>
                </span>
                <BandLabel band={classifyGlucose(reading, type, unit)} />
                <span className="muted latest-when">{clock.dateTime.format(reading.recordedAt, reading.utcOffsetMinutes)}</span>
              </>
            ) : complete ? (
              <span className="muted">
                <Trans>None yet</Trans>
              </span>
            ) : (
              // Older readings are still being read: nothing is said of this type yet.
              <span className="muted">
                <span aria-hidden="true">…</span>
                <span className="visually-hidden">
                  <Trans>Loading your readings…</Trans>
                </span>
              </span>
            )}
          </li>
        ))}
      </ul>
      <h3>
        <Trans>Today</Trans>
      </h3>
      {today.length === 0 ? (
        <EmptyState icon="mdi:water">
          <Trans>No readings today yet. Check your glucose and record it above.</Trans>
        </EmptyState>
      ) : (
        <ul className="chips" data-testid="today-readings">
          {today.map((r) => (
            <li key={r._id} className={`chip chip--${classifyGlucose(r, r.type, unit)}`}>
              <span>{clock.time.format(r.recordedAt, r.utcOffsetMinutes)}</span> <strong>{formatGlucose(r, unit, i18n.locale)}</strong>{' '}
              <span>{i18n._(GLUCOSE_TYPE_LABELS[r.type])}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
