// Which meals a prescription's dose is taken at. Prescriptions here are written the way clinics in
// much of the world write them: "1-0-1" is morning-noon-night, i.e. breakfast, lunch and dinner
// (half tablets as "1/2", "½" or "0.5"). Any other wording ("500 mg twice daily", "10 units") does
// not say when, so the patient is reminded at every meal rather than at none.
export const MEALS = ['breakfast', 'lunch', 'dinner'] as const;
export type Meal = (typeof MEALS)[number];

/** One meal's part of the dose: "1", "½", "0.5", "1/2". */
const PART = String.raw`(\d+(?:[.,]\d+)?|\d+\/\d+|\d*[½¼¾⅓⅔])`;
// The pattern may be followed by words ("1-0-1 after food"), never preceded by any.
// Both also run in the database (the staff worklist's expected doses, server/repositories/worklist.ts):
// PostgreSQL's regular expressions read them the same way (`.` matches a newline there too).
export const DOSE_PATTERN_SOURCE = String.raw`^\s*${PART}\s*[-–]\s*${PART}\s*[-–]\s*${PART}(?:\s+.*)?$`;
/** A part that means "none at this meal": 0, 0.0, 0,0, 0/2. */
export const ZERO_PART_SOURCE = String.raw`^0+(?:[.,]0+)?$|^0+\/\d+$`;
const PATTERN = new RegExp(DOSE_PATTERN_SOURCE, 's');
const ZERO = new RegExp(ZERO_PART_SOURCE);

const isZero = (part: string) => ZERO.test(part);

export interface MealDose {
  meal: Meal;
  /** What to take at this meal: the pattern's part ("1", "½"), or the whole dose text. */
  portion: string;
}

export function mealsOfDose(dose: string): MealDose[] {
  const m = PATTERN.exec(dose);
  if (!m) return MEALS.map((meal) => ({ meal, portion: dose.trim() }));
  const parts = [m[1], m[2], m[3]];
  const out: MealDose[] = [];
  MEALS.forEach((meal, i) => {
    const part = parts[i];
    if (part !== undefined && !isZero(part)) out.push({ meal, portion: part });
  });
  return out;
}
