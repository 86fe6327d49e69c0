import type { RxCollection } from 'rxdb';
import type { GlucoseReading } from '../../../schemas/glucose.ts';

export type GlucoseCollection = RxCollection<GlucoseReading>;
