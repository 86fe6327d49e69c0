// How a lab unit is printed. Units are stored and exchanged as typed, in plain ASCII
// ('mL/min/1.73m2', the way lab systems and the hospital's list write them; fhir.ts maps that spelling
// to UCUM), and shown as a reader expects them: 'mL/min/1.73 m²'. Only for display, never stored.

/** A unit as printed: a square or cubic metre's exponent as a superscript, set off from its number. */
export function shownLabUnit(unit: string): string {
  return unit.replace(
    /(\d?)(m)([23])(?![\p{L}\p{N}])/gu,
    (_, digit: string, m: string, power: string) => `${digit ? `${digit} ` : ''}${m}${power === '2' ? '²' : '³'}`,
  );
}

/** "75 mL/min/1.73 m²": a formatted value with its unit, or the value alone. */
export function withLabUnit(value: string, unit: string | null | undefined): string {
  return unit ? `${value} ${shownLabUnit(unit)}` : value;
}
