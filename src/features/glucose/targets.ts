// What the dashboard says of a reading, in words and colour: the judging module's word
// (schemas/judgement.ts) for the reading as shown in the patient's unit, so the number on the
// screen and the word beside it always agree (docs/requirements.md §11).
import type { GlucoseUnit, Judgeable } from '../../../schemas/glucose-units.ts';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import { readingWord, type ReadingWord } from '../../../schemas/judgement.ts';

export type GlucoseBand = ReadingWord;

export const classifyGlucose = (reading: Judgeable, type: GlucoseType, unit: GlucoseUnit): GlucoseBand => readingWord(reading, type, unit);
