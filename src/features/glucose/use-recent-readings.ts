import { useEffect, useState } from 'react';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import type { EddyDatabase } from '../../../sync/storage/database.ts';
import { useLiveResult } from '../../lib/use-live.ts';
import { DEFAULT_TREND_DAYS } from './trend-chart.tsx';
import { GLUCOSE_TYPES } from './units.ts';

/** The longest trend period; a page reads readings older than this only when the patient asks. */
export const RECENT_DAYS = 90;
const DAY_MS = 86_400_000;

/** Which readings are read: the first screen's days, then the 90 days, then all. */
type Span = 'first' | 'days' | 'all';

export interface RecentReadings {
  /** Newest first; undefined until the first query answers. */
  readings: GlucoseReading[] | undefined;
  /** The readings hold every reading from this instant on (undefined: all of them). */
  completeFrom: number | undefined;
  /** Only the first screen's days are read yet (the wider query comes a task later). */
  firstOnly: boolean;
  /** The 90 days are read and older ones may be asked for (`showAll`). */
  mayShowOlder: boolean;
  showAll: () => void;
}

/**
 * The patient's readings as a page shows them: recordedAt is a plain, indexed field, so older
 * readings are never read or decrypted unless asked for. The trend's default period is read first,
 * and the 90 days right after it is drawn: with years of readings, decrypting 90 days (some 2,700
 * readings, one WebCrypto call each) delayed the first screen by about half a second (bench:
 * dashboard10kListsMs). `widen` says when the 90 days are needed: always (the readings page), or
 * only while the first days lack a reading of some type (the dashboard's latest of each type).
 */
export function useRecentReadings(db: EddyDatabase | undefined, widen: 'always' | 'when-a-type-is-missing'): RecentReadings {
  const [span, setSpan] = useState<Span>('first');
  const [since] = useState(() => {
    const now = Date.now();
    return { first: new Date(now - DEFAULT_TREND_DAYS * DAY_MS).toISOString(), days: new Date(now - RECENT_DAYS * DAY_MS).toISOString() };
  });
  const from = span === 'all' ? undefined : since[span];
  const result = useLiveResult<GlucoseReading>(
    db,
    (d) => d.glucose.find({ selector: from === undefined ? {} : { recordedAt: { $gte: from } }, sort: [{ recordedAt: 'desc' }] }),
    [from],
  );
  // The readings shown are complete from this instant on (the query's bound; none: all of them).
  const bound: unknown = result?.deps[0];
  const completeFrom = typeof bound === 'string' ? Date.parse(bound) : undefined;
  const firstOnly = result !== undefined && bound === since.first;
  const needed = widen === 'always' || (result !== undefined && GLUCOSE_TYPES.some((type) => !result.docs.some((r) => r.type === type)));
  useEffect(() => {
    if (!firstOnly || span !== 'first' || !needed) return undefined;
    // A task later, so the first screen is painted before the wider query's work starts.
    const timer = setTimeout(() => setSpan('days'), 0);
    return () => clearTimeout(timer);
  }, [firstOnly, span, needed]);
  return {
    readings: result?.docs,
    completeFrom,
    firstOnly: firstOnly && needed,
    mayShowOlder: span === 'days' && result !== undefined && !firstOnly,
    showAll: () => setSpan('all'),
  };
}
