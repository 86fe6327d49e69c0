import { useEffect, useState } from 'react';
import type { RxCollection } from 'rxdb';
import type { GlucoseReading } from '../../../schemas/glucose.ts';

export type GlucoseCollection = RxCollection<GlucoseReading>;

/** Every reading, newest first, kept up to date by RxDB's reactive query (local data only). */
export function useGlucoseReadings(collection: GlucoseCollection | undefined): GlucoseReading[] | undefined {
  const [readings, setReadings] = useState<GlucoseReading[] | undefined>();
  useEffect(() => {
    if (!collection) return undefined;
    const sub = collection.find({ sort: [{ recordedAt: 'desc' }] }).$.subscribe((docs) => setReadings(docs.map((d) => d.toJSON() as GlucoseReading)));
    return () => sub.unsubscribe();
  }, [collection]);
  return readings;
}
